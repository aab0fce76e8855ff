#include "core/run/ExecutionResult.h"

#include "core/charts/ChartSpec.h"


#include <QJsonArray>
#include <QRegularExpression>

namespace sandpad {

namespace {
constexpr std::pair<RunStatus, const char*> kStatusNames[] = {
    {RunStatus::Success, "success"},
    {RunStatus::Error, "error"},
    {RunStatus::Timeout, "timeout"},
    {RunStatus::Cancelled, "cancelled"},
    {RunStatus::InfrastructureError, "infrastructure_error"},
};
} // namespace

QString runStatusName(RunStatus status)
{
    for (const auto& [s, name] : kStatusNames)
        if (s == status)
            return QString::fromLatin1(name);
    return QStringLiteral("infrastructure_error");
}

std::optional<RunStatus> runStatusFromName(const QString& name)
{
    for (const auto& [s, n] : kStatusNames)
        if (name == QLatin1String(n))
            return s;
    return std::nullopt;
}

std::optional<int> RunError::line() const
{
    // The innermost frame is the last `line N` in a Python traceback, or the first `:N:` in a
    // JavaScript stack (innermost first).
    static const QRegularExpression pyLine(QStringLiteral(R"(line (\d+))"));
    static const QRegularExpression jsLine(QStringLiteral(R"(:(\d+):\d+\)?\s*$)"),
                                           QRegularExpression::MultilineOption);
    std::optional<int> found;
    auto it = pyLine.globalMatch(traceback);
    while (it.hasNext())
        found = it.next().captured(1).toInt();
    if (found)
        return found;
    const auto m = jsLine.match(traceback);
    if (m.hasMatch())
        return m.captured(1).toInt();
    return std::nullopt;
}

QString ExecutionResult::composeMessage() const
{
    QStringList parts;
    if (!stdoutText.isEmpty())
        parts << stdoutText;
    if (result)
        parts << *result;
    if (!stderrText.isEmpty())
        parts << stderrText;
    if (error) {
        if (!error->traceback.isEmpty())
            parts << error->traceback;
        else
            parts << QStringLiteral("%1: %2").arg(error->name, error->value);
    }
    if (status != RunStatus::Success && status != RunStatus::Error && !reason.isEmpty())
        parts << reason;
    QString text;
    for (const QString& part : parts) {
        text += part;
        if (!text.endsWith(u'\n'))
            text += u'\n';
    }
    return text;
}

QJsonObject RunArtifact::toJson() const
{
    QJsonObject o{{QStringLiteral("name"), name},
                  {QStringLiteral("size"), double(size)},
                  {QStringLiteral("mime_type"), mimeType},
                  {QStringLiteral("sha256"), sha256}};
    if (!content.isEmpty() && content.size() <= jsonInlineBytes)
        o.insert(QStringLiteral("base64"), QString::fromLatin1(content.toBase64()));
    return o;
}

QJsonObject ExecutionResult::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("run_id")] = runId;
    o[QStringLiteral("status")] = runStatusName(status);
    o[QStringLiteral("provider")] = provider;
    o[QStringLiteral("language")] = languageName(language);
    o[QStringLiteral("stdout")] = stdoutText;
    o[QStringLiteral("stderr")] = stderrText;
    o[QStringLiteral("result")] = result ? QJsonValue(*result) : QJsonValue(QJsonValue::Null);
    if (error) {
        o[QStringLiteral("error")] = QJsonObject{{QStringLiteral("name"), error->name},
                                                 {QStringLiteral("value"), error->value},
                                                 {QStringLiteral("traceback"), error->traceback}};
    } else {
        o[QStringLiteral("error")] = QJsonValue(QJsonValue::Null);
    }
    QJsonArray chartArray;
    for (const RunChart& chart : charts) {
        if (chart.kind == RunChart::Kind::Png) {
            QJsonObject png{{QStringLiteral("format"), QStringLiteral("png")},
                            {QStringLiteral("base64"), QString::fromLatin1(chart.png.toBase64())}};
            if (chart.spec)
                png.insert(QStringLiteral("chart"), chart.specJson()); // extracted from the figure
            chartArray.append(png);
        } else
            chartArray.append(chart.specJson());
    }
    o[QStringLiteral("charts")] = chartArray;
    QJsonArray artifactArray;
    for (const RunArtifact& artifact : artifacts)
        artifactArray.append(artifact.toJson());
    o[QStringLiteral("artifacts")] = artifactArray;
    QJsonArray outputArray;
    for (const RunOutput& output : outputs)
        outputArray.append(output.toJson());
    o[QStringLiteral("outputs")] = outputArray;
    o[QStringLiteral("exit_code")] = exitCode ? QJsonValue(*exitCode) : QJsonValue(QJsonValue::Null);
    o[QStringLiteral("duration_ms")] = durationMs;
    o[QStringLiteral("cost_usd")] = costUsd();
    o[QStringLiteral("cleanup_confirmed")] = cleanupConfirmed;
    o[QStringLiteral("message")] = message;
    if (!documentId.isEmpty()) {
        o[QStringLiteral("document_id")] = documentId;
        o[QStringLiteral("revision_id")] = revisionId;
    }
    if (!reason.isEmpty())
        o[QStringLiteral("reason")] = reason;
    if (executionCount)
        o[QStringLiteral("execution_count")] = *executionCount;
    return o;
}

QJsonObject RunChart::specJson() const
{
    return spec ? spec->toJson() : QJsonObject();
}

QString RunChart::title() const
{
    return spec ? spec->title() : QString();
}

bool RunChart::setSpec(const QJsonObject& dictionary, const ChartColumns* columns, QString* error)
{
    ChartParseResult parsed = ChartSpec::parse(dictionary, columns);
    if (error)
        *error = parsed.error;
    spec = parsed.ok() ? std::make_shared<const ChartSpec>(std::move(*parsed.spec)) : nullptr;
    return spec != nullptr;
}

} // namespace sandpad
