#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

namespace sandpad::localsandbox {

// The Python wrapper compiled once on the host, so that a cold run does not compile ~800 lines
// of wrapper source each time (~10 ms of a ~45 ms cold `print(1)`). The host's interpreter is the
// sandbox's (the same /usr), so its bytecode is valid there. Compiling happens in the background
// when first asked; until it is done (or when it fails) runs use the source, as before.
class WrapperBytecode {
public:
    // The .pyc for this interpreter and source, if it is ready; otherwise starts compiling it
    // (once per interpreter and source) and returns nothing. sourceName is the file name the
    // code objects carry (tracebacks, warnings), e.g. "/sandpad/wrapper.py". Thread-safe.
    static std::optional<QByteArray> lookup(const QString& interpreter, const QByteArray& source,
                                            const QString& sourceName);
    // Compiles now and waits (tests, and the first lookup's worker). Empty on failure.
    static QByteArray compile(const QString& interpreter, const QByteArray& source, const QString& sourceName);
};

} // namespace sandpad::localsandbox
