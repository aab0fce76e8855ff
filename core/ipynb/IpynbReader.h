#pragma once

#include "core/ipynb/Notebook.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>
#include <optional>

namespace sandpad {

// Reads a Jupyter notebook file (nbformat 4). Checks its structure and says, in a sentence a user
// can act on, why a file is refused: not JSON (with the line), not a notebook, nbformat 3 or
// another version, a cell of unknown type, a cell without source, a kernel in a language Sandpad
// does not run. A refused file gives no notebook at all, never a part of one.
class IpynbReader {
public:
    // The notebook, or nullopt with *error set.
    static std::optional<Notebook> read(const QByteArray& bytes, QString* error);
    static std::optional<Notebook> readFile(const QString& path, QString* error);

    // nbformat's "multiline string": a string, or a list of strings to join; else nullopt.
    static std::optional<QString> multiline(const QJsonValue& value);

    // The language a kernel name stands for ("python3", "javascript", "node"...), else nullopt.
    static std::optional<Language> kernelLanguage(const QString& name);
};

} // namespace sandpad
