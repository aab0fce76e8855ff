#pragma once

#include <QJsonValue>
#include <QList>
#include <QString>

namespace sandpad {

// One entry of result.json's `outputs` list (docs/runtime-protocol.md, "Rich outputs") as the
// wrapper sent it: the small fields, with the names of the files that carry the large parts
// (a table's cells, a PNG). Read and checked against ResultLimits by core/engine/OutputCollector.
struct WrapperOutputRef {
    QString type;              // "text", "table", "math", "image", "svg", "markdown", "html"
    qint64 stdoutOffset = 0;   // bytes of stdout before it
    QString text;              // text/markdown/html/svg: the content; math: the text form; image: alt text
    QString latex;             // math
    QString file;              // table: its JSON file; image: its PNG; math: the rendered PNG, or empty
    qint64 rows = 0, columns = 0, totalRows = 0; // table: as declared (checked against the file)
    QString problem;           // set when this entry is malformed: shown as a notice in its place
};

struct WrapperOutputs {
    // Parses result.json's `outputs` (absent or null: none). Only a value that is not a list is
    // an error of the whole result (returns false, *problem says why); a malformed entry becomes
    // a ref with `problem` set, and entries over ResultLimits::outputsPerRun one notice, so the
    // rest of the result is kept.
    static bool parse(const QJsonValue& outputs, QList<WrapperOutputRef>* out, QString* problem);
    // The same rule as chart files: a plain name inside out_dir.
    static bool safeFileName(const QString& name);
};

} // namespace sandpad
