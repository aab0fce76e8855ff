#pragma once

#include "core/ipynb/Notebook.h"

#include <QByteArray>
#include <QString>

namespace sandpad {

// Writes a notebook as nbformat 4.5 JSON: every cell with an id (kept when the cell had a valid
// one, else made), sources and text outputs as lists of lines (as Jupyter writes them), the
// notebook's metadata kept, with a kernelspec and language_info for the notebook's language.
class IpynbWriter {
public:
    static QByteArray write(const Notebook& notebook);
    // Atomic (a failed write leaves the old file); false with *error set.
    static bool writeFile(const Notebook& notebook, const QString& path, QString* error);

    // The metadata written for `language`: `metadata` with its kernelspec and language_info
    // replaced when they name another language (or are missing).
    static QJsonObject metadataFor(const QJsonObject& metadata, Language language);
    // nbformat's multiline string: lines with their '\n' kept.
    static QJsonArray lines(const QString& text);
};

} // namespace sandpad
