#pragma once

#include "core/language/Language.h"

#include <QList>
#include <QString>
#include <optional>

namespace sandpad {

// The bundled examples (resources/examples/, compiled in as :/sandpad/examples/).
struct Example {
    QString name;      // the file's base name, e.g. "sine_wave" (for --run-example)
    QString title;     // menu text
    QString fileName;  // e.g. "sine_wave.py"
    Language language = Language::Python;
    QString code() const;
};

class ExampleLibrary {
public:
    static QList<Example> all();
    static std::optional<Example> find(const QString& name);
};

} // namespace sandpad
