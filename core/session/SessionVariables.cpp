#include "core/session/SessionVariables.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sandpad {

QList<SessionVariable> SessionVariables::parse(const QByteArray& json, QString* error)
{
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return QList<SessionVariable>{};
    };
    if (json.size() > kMaxBytes)
        return fail(QStringLiteral("the variable listing is over %1 bytes").arg(kMaxBytes));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isArray())
        return fail(QStringLiteral("the variable listing is not a JSON array: %1").arg(parseError.errorString()));
    const QJsonArray rows = doc.array();
    if (rows.size() > kMaxRows)
        return fail(QStringLiteral("the variable listing has %1 rows; the limit is %2").arg(rows.size()).arg(kMaxRows));
    QList<SessionVariable> variables;
    for (const QJsonValue& value : rows) {
        const QJsonObject o = value.toObject();
        SessionVariable v;
        v.name = o.value(QStringLiteral("name")).toString().left(200);
        if (v.name.isEmpty())
            continue;
        v.type = o.value(QStringLiteral("type")).toString().left(200);
        v.size = o.value(QStringLiteral("size")).toString().left(100);
        v.memory = o.contains(QStringLiteral("memory")) ? qint64(o.value(QStringLiteral("memory")).toDouble(-1)) : -1;
        v.value = o.value(QStringLiteral("value")).toString().left(200);
        v.table = o.value(QStringLiteral("table")).toBool(false);
        variables << v;
    }
    return variables;
}

} // namespace sandpad
