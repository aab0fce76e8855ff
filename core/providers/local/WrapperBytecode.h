#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

namespace sandpad::localsandbox {

// The Python wrapper compiled once on the host, so that a cold run does not compile ~800 lines
// of wrapper source each time (~10 ms of a ~45 ms cold `print(1)`). The host's interpreter is the
// sandbox's (the same /usr), so its bytecode is valid there. Compiled at the first use in a
// process (~50 ms, once) unless the user's cache has it; when compiling fails runs use the source.
class WrapperBytecode {
public:
    // The .pyc for this interpreter and source: from memory, the user's cache, or compiled now
    // (once per process); nothing when it cannot be compiled. sourceName is the file name the
    // code objects carry (tracebacks, warnings), e.g. "/sandpad/wrapper.py". Thread-safe.
    static std::optional<QByteArray> lookup(const QString& interpreter, const QByteArray& source,
                                            const QString& sourceName);
    // Compiles now, without any cache. Empty on failure.
    static QByteArray compile(const QString& interpreter, const QByteArray& source, const QString& sourceName);
};

} // namespace sandpad::localsandbox
