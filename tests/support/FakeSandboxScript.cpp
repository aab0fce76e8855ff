#include "FakeSandboxScript.h"

#include "core/runtime/ResultFrames.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace sandpad {

QByteArray FakeSandboxScript::frames(const QList<QPair<QString, QByteArray>>& files)
{
    QByteArray stream;
    for (const auto& [name, content] : files)
        stream += ResultFrames::frame(name, content);
    return stream;
}

QByteArray FakeSandboxScript::resultJson(const std::optional<QString>& result,
                                         const std::optional<QJsonObject>& error, const QJsonArray& charts)
{
    const QJsonObject json{
        {QStringLiteral("status"), error ? QStringLiteral("error") : QStringLiteral("success")},
        {QStringLiteral("result"), result ? QJsonValue(*result) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("error"), error ? QJsonValue(*error) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("charts"), charts},
        {QStringLiteral("chart_error"), QJsonValue(QJsonValue::Null)},
    };
    return QJsonDocument(json).toJson(QJsonDocument::Compact);
}

QJsonObject FakeSandboxScript::error(const QString& name, const QString& value, const QString& traceback)
{
    return {{QStringLiteral("name"), name}, {QStringLiteral("value"), value},
            {QStringLiteral("traceback"), traceback}};
}

FakeSandboxScript FakeSandboxScript::completed(const QByteArray& json, const QByteArray& out)
{
    FakeSandboxScript script;
    script.resultChannel = frames({{QStringLiteral("started"), {}}, {QStringLiteral("result.json"), json}});
    if (!out.isEmpty())
        script.output = {{OutputStream::Stdout, out}};
    return script;
}

} // namespace sandpad
