#include "core/run/RunOutput.h"

#include <QJsonArray>
#include <QLocale>
#include <algorithm>

namespace sandpad {

namespace {
constexpr std::pair<RunOutput::Type, const char*> kTypeNames[] = {
    {RunOutput::Type::Text, "text"},   {RunOutput::Type::Table, "table"}, {RunOutput::Type::Math, "math"},
    {RunOutput::Type::Image, "image"}, {RunOutput::Type::Svg, "svg"},     {RunOutput::Type::Markdown, "markdown"},
    {RunOutput::Type::Html, "html"},
};

QString grouped(qint64 n)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(n);
}

// Right-aligned for numeric columns (as pandas prints them), left-aligned otherwise.
bool numericDtype(const QString& dtype)
{
    return dtype.startsWith(u"int") || dtype.startsWith(u"uint") || dtype.startsWith(u"float")
           || dtype.startsWith(u"Int") || dtype.startsWith(u"UInt") || dtype.startsWith(u"Float")
           || dtype.startsWith(u"complex");
}

QString oneLine(QString cell)
{
    cell.replace(u'\n', QStringLiteral("\\n"));
    cell.replace(u'\t', QStringLiteral("\\t"));
    if (cell.size() > 60)
        cell = cell.left(59) + QChar(0x2026);
    return cell;
}

QString tableText(const RunOutput& o, int maxRows)
{
    const qsizetype shown = std::min<qsizetype>(o.rows.size(), std::max(0, maxRows));
    // Column 0 is the index, then the data columns.
    QList<QStringList> lines;
    QStringList header{o.indexName};
    for (const QString& c : o.columns)
        header << oneLine(c);
    lines << header;
    for (qsizetype r = 0; r < shown; ++r) {
        QStringList line{oneLine(o.index.value(r))};
        for (qsizetype c = 0; c < o.columns.size(); ++c)
            line << oneLine(o.rows[r].value(c));
        lines << line;
    }
    QList<qsizetype> widths(header.size(), 0);
    for (const QStringList& line : lines)
        for (qsizetype c = 0; c < line.size(); ++c)
            widths[c] = std::max(widths[c], line[c].size());
    QString text;
    for (const QStringList& line : lines) {
        QString row;
        for (qsizetype c = 0; c < line.size(); ++c) {
            const bool right = c > 0 && numericDtype(o.dtypes.value(c - 1));
            if (c > 0)
                row += QStringLiteral("  ");
            row += right ? line[c].rightJustified(widths[c]) : line[c].leftJustified(widths[c]);
        }
        while (row.endsWith(u' '))
            row.chop(1);
        text += row + u'\n';
    }
    const qint64 total = std::max<qint64>(o.totalRows, o.rows.size());
    if (total > shown)
        text += QStringLiteral("… %1 more rows (%2 rows × %3 columns)\n")
                    .arg(grouped(total - shown), grouped(total), grouped(o.columns.size()));
    else
        text += QStringLiteral("[%1 rows × %2 columns]\n").arg(grouped(total), grouped(o.columns.size()));
    return text;
}
} // namespace

QString RunOutput::typeName(Type type)
{
    for (const auto& [t, name] : kTypeNames)
        if (t == type)
            return QString::fromLatin1(name);
    return QStringLiteral("text");
}

std::optional<RunOutput::Type> RunOutput::typeFromName(const QString& name)
{
    for (const auto& [t, n] : kTypeNames)
        if (name == QLatin1String(n))
            return t;
    return std::nullopt;
}

qsizetype RunOutput::textPosition(const QString& stdoutText) const
{
    // UTF-8 lengths of the decoded text, counted until the output's byte offset is reached.
    qint64 bytes = 0;
    for (qsizetype i = 0; i < stdoutText.size(); ++i) {
        if (bytes >= stdoutBytes)
            return i;
        const char16_t c = stdoutText.at(i).unicode();
        if (QChar::isHighSurrogate(c) && i + 1 < stdoutText.size() && stdoutText.at(i + 1).isLowSurrogate()) {
            bytes += 4;
            ++i;
        } else {
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        }
    }
    return stdoutText.size();
}

RunOutput RunOutput::notice(const QString& text, qint64 stdoutBytes)
{
    RunOutput o;
    o.type = Type::Text;
    o.text = text;
    o.stdoutBytes = stdoutBytes;
    return o;
}

QString RunOutput::textForm(int maxRows) const
{
    QString text;
    switch (type) {
    case Type::Text:
    case Type::Markdown:
    case Type::Html:
        text = this->text;
        break;
    case Type::Table:
        text = tableText(*this, maxRows);
        break;
    case Type::Math:
        text = plain.isEmpty() ? this->text : plain;
        break;
    case Type::Image:
        text = plain.isEmpty() ? QStringLiteral("[image: PNG, %1 bytes]").arg(grouped(png.size())) : plain;
        break;
    case Type::Svg:
        text = plain.isEmpty() ? QStringLiteral("[SVG image, %1 characters]").arg(grouped(this->text.size())) : plain;
        break;
    }
    if (!text.isEmpty() && !text.endsWith(u'\n'))
        text += u'\n';
    return text;
}

QJsonObject RunOutput::tableJson() const
{
    QJsonArray rowArray;
    for (const QStringList& row : rows)
        rowArray.append(QJsonArray::fromStringList(row));
    return QJsonObject{{QStringLiteral("columns"), QJsonArray::fromStringList(columns)},
                       {QStringLiteral("dtypes"), QJsonArray::fromStringList(dtypes)},
                       {QStringLiteral("index_name"), indexName},
                       {QStringLiteral("index"), QJsonArray::fromStringList(index)},
                       {QStringLiteral("rows"), rowArray},
                       {QStringLiteral("total_rows"), totalRows}};
}

namespace {
bool stringList(const QJsonValue& v, QStringList* out)
{
    if (!v.isArray())
        return false;
    const QJsonArray a = v.toArray();
    out->clear();
    out->reserve(a.size());
    for (const QJsonValue& item : a) {
        if (!item.isString())
            return false;
        out->append(item.toString());
    }
    return true;
}
} // namespace

bool RunOutput::tableFromJson(const QJsonObject& table)
{
    if (!stringList(table.value(QStringLiteral("columns")), &columns)
        || !stringList(table.value(QStringLiteral("dtypes")), &dtypes)
        || !stringList(table.value(QStringLiteral("index")), &index))
        return false;
    indexName = table.value(QStringLiteral("index_name")).toString();
    const QJsonArray rowArray = table.value(QStringLiteral("rows")).toArray();
    rows.clear();
    rows.reserve(rowArray.size());
    for (const QJsonValue& row : rowArray) {
        QStringList cells;
        if (!stringList(row, &cells) || cells.size() != columns.size())
            return false;
        rows.append(std::move(cells));
    }
    if (dtypes.size() != columns.size() || index.size() != rows.size())
        return false;
    totalRows = std::max<qint64>(table.value(QStringLiteral("total_rows")).toInteger(), rows.size());
    return true;
}

QJsonObject RunOutput::toJson() const
{
    QJsonObject o{{QStringLiteral("type"), typeName(type)}, {QStringLiteral("stdout_offset"), stdoutBytes}};
    switch (type) {
    case Type::Text:
    case Type::Markdown:
    case Type::Html:
    case Type::Svg:
        o.insert(QStringLiteral("text"), text);
        break;
    case Type::Math:
        o.insert(QStringLiteral("latex"), text);
        o.insert(QStringLiteral("text"), plain);
        if (!png.isEmpty())
            o.insert(QStringLiteral("png_base64"), QString::fromLatin1(png.toBase64()));
        break;
    case Type::Image:
        o.insert(QStringLiteral("format"), QStringLiteral("png"));
        o.insert(QStringLiteral("base64"), QString::fromLatin1(png.toBase64()));
        if (!plain.isEmpty())
            o.insert(QStringLiteral("text"), plain);
        break;
    case Type::Table: {
        const QJsonObject table = tableJson();
        for (auto it = table.begin(); it != table.end(); ++it)
            o.insert(it.key(), it.value());
        break;
    }
    }
    return o;
}

} // namespace sandpad
