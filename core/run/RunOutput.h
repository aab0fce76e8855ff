#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace sandpad {

// One rich output of a run (display(), a DataFrame `result`, ...), in the order the program
// produced it (docs/runtime-protocol.md, "Rich outputs"). It sits in the run's stdout after the
// first `stdoutBytes` bytes the program printed, so a view shows text, table, text as they came.
struct RunOutput {
    enum class Type { Text, Table, Math, Image, Svg, Markdown, Html };
    Type type = Type::Text;
    qint64 stdoutBytes = 0;   // bytes of stdout written before this output

    // Text: the text. Markdown, Html: its source (HTML is shown reduced by SafeHtml). Svg: the
    // SVG document. Math: the LaTeX (no $).
    // Table, Image: empty.
    QString text;
    // The plain text form beside it: math as sympy's str() (`x**2 + 1`), an image's or a
    // table's repr; what `sandpad-run` prints for it when it has no text form of its own.
    QString plain;
    QByteArray png;           // Image; Math: the LaTeX rendered (mathtext), or empty

    // Table: column names and their dtypes (as pandas names them), the index's name and labels,
    // the rows sent (each as long as `columns`, cells as text) and how many the table had.
    QStringList columns, dtypes;
    QString indexName;
    QStringList index;
    QList<QStringList> rows;
    qint64 totalRows = 0;

    static QString typeName(Type type);   // "text", "table", "math", "image", "svg", "markdown", "html"
    static std::optional<Type> typeFromName(const QString& name);
    qint64 cellCount() const { return qint64(rows.size()) * columns.size(); }
    // Where this output sits in `stdoutText` (the run's decoded, maybe cut, stdout): the
    // character after its first stdoutBytes bytes, or the end.
    qsizetype textPosition(const QString& stdoutText) const;
    // A notice shown in place of an output that was refused (over a limit, malformed).
    static RunOutput notice(const QString& text, qint64 stdoutBytes);
    // The output as plain text, for a terminal or a text export: a table as aligned columns (its
    // first maxRows rows, then how many more), math as its text form, Markdown and HTML as their source,
    // an image or SVG as a line that says what it is.
    QString textForm(int maxRows = 60) const;

    // The JSON of `sandpad-run --json`'s `outputs` (docs/runtime-protocol.md): PNGs as base64.
    QJsonObject toJson() const;
    // The table's part of it ({"columns", "dtypes", "index_name", "index", "rows", "total_rows"}),
    // which the run history stores as text; tableFromJson reads it back (false when malformed).
    QJsonObject tableJson() const;
    bool tableFromJson(const QJsonObject& table);
};

} // namespace sandpad
