#include "core/session/TableWindow.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sandpad {

namespace {

constexpr int kMaxText = 1000; // a cell or label longer than the session's own bound is cut here too

QStringList texts(const QJsonValue& value, qsizetype limit, bool* ok)
{
    QStringList list;
    const QJsonArray array = value.toArray();
    if (!value.isArray() || array.size() > limit) {
        *ok = false;
        return list;
    }
    for (const QJsonValue& v : array)
        list << v.toString().left(kMaxText);
    return list;
}

} // namespace

QByteArray TableRequest::toJson() const
{
    const QJsonObject o{{QStringLiteral("name"), name},
                        {QStringLiteral("row"), double(row)},
                        {QStringLiteral("rows"), rows},
                        {QStringLiteral("column"), double(column)},
                        {QStringLiteral("columns"), columns}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

TableWindow TableWindow::failed(const QString& why)
{
    TableWindow window;
    window.error = why;
    return window;
}

TableWindow TableWindow::parse(const QByteArray& json, const TableRequest& request)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isObject())
        return failed(QStringLiteral("The session's answer is not a JSON object: %1").arg(parseError.errorString()));
    const QJsonObject o = doc.object();
    if (o.contains(QStringLiteral("error")))
        return failed(o.value(QStringLiteral("error")).toString().left(kMaxText));
    TableWindow w;
    w.name = o.value(QStringLiteral("name")).toString().left(200);
    w.type = o.value(QStringLiteral("type")).toString().left(200);
    const QJsonArray shape = o.value(QStringLiteral("shape")).toArray();
    w.totalRows = qint64(shape.at(0).toDouble(-1));
    w.totalColumns = qint64(shape.at(1).toDouble(-1));
    w.dimensions = o.value(QStringLiteral("ndim")).toInt(2);
    w.row = qint64(o.value(QStringLiteral("row")).toDouble(-1));
    w.column = qint64(o.value(QStringLiteral("column")).toDouble(-1));
    const int rows = qBound(0, request.rows, TableRequest::kMaxRows);
    const int columns = qBound(0, request.columns, TableRequest::kMaxColumns);
    bool ok = shape.size() == 2 && w.totalRows >= 0 && w.totalColumns >= 0 && w.name == request.name &&
              w.row == request.row && w.column == request.column;
    w.columns = texts(o.value(QStringLiteral("columns")), columns, &ok);
    w.dtypes = texts(o.value(QStringLiteral("dtypes")), columns, &ok);
    w.index = texts(o.value(QStringLiteral("index")), rows, &ok);
    const QJsonArray cells = o.value(QStringLiteral("cells")).toArray();
    ok = ok && cells.size() == w.index.size() && w.dtypes.size() == w.columns.size();
    for (qsizetype i = 0; ok && i < cells.size(); ++i) {
        QStringList line = texts(cells.at(i), columns, &ok);
        ok = ok && line.size() == w.columns.size();
        w.cells << line;
    }
    if (!ok)
        return failed(QStringLiteral("The session's answer does not fit the request for %1").arg(request.name));
    return w;
}

} // namespace sandpad
