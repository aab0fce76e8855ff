#pragma once

#include "core/ipynb/Notebook.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>
#include <optional>

namespace sandpad {

struct FileReadControl;

// Reads a Jupyter notebook file (nbformat 4). Checks its structure and says, in a sentence a user
// can act on, why a file is refused: not JSON (with the line), not a notebook, nbformat 3 or
// another version, a cell of unknown type, a cell without source, a kernel in a language Sandpad
// does not run. A refused file gives no notebook at all, never a part of one.
class IpynbReader {
public:
    // The notebook, or nullopt with *error set.
    static std::optional<Notebook> read(const QByteArray& bytes, QString* error);
    // A regular file of at most kMaxFileBytes (core/files/FileRead: no FIFO, device or folder),
    // read in chunks reporting to `control` (a worker thread's progress and Cancel: cancelled
    // gives nullopt with *error empty).
    static std::optional<Notebook> readFile(const QString& path, QString* error, FileReadControl* control = nullptr);

    // 100 MiB: a notebook of that size takes about 1 GiB while it is parsed and shown.
    static constexpr qint64 kMaxFileBytes = 100ll << 20;

    // nbformat's "multiline string": a string, or a list of strings to join; else nullopt.
    static std::optional<QString> multiline(const QJsonValue& value);

    // The language a kernel name stands for ("python3", "javascript", "node"...), else nullopt.
    static std::optional<Language> kernelLanguage(const QString& name);
};

} // namespace sandpad
