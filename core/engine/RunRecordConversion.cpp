#include "engine/RunRecordConversion.h"

#include <QJsonDocument>

namespace sandpad {

RunRecord toRunRecord(const ExecutionResult& r, const QDateTime& startedAt)
{
    RunRecord record;
    record.runId = r.runId;
    record.startedAt = startedAt.isValid() ? startedAt : QDateTime::currentDateTimeUtc().addMSecs(-r.durationMs);
    record.title = r.title;
    record.language = languageName(r.language);
    record.provider = r.provider;
    record.status = runStatusName(r.status);
    record.durationMs = r.durationMs;
    record.costMicros = r.costMicros;
    record.code = r.code;
    record.stdoutText = r.stdoutText;
    record.stderrText = r.stderrText;
    record.result = r.result;
    if (r.error)
        record.error = RunErrorRecord{r.error->name, r.error->value, r.error->traceback};
    for (const RunChart& chart : r.charts) {
        RunChartRecord c;
        c.kind = chart.kind == RunChart::Kind::Png ? RunChartRecord::Kind::Png : RunChartRecord::Kind::Interactive;
        c.png = chart.png;
        if (chart.kind == RunChart::Kind::Interactive)
            c.specJson = QString::fromUtf8(QJsonDocument(chart.spec).toJson(QJsonDocument::Compact));
        record.charts << c;
    }
    record.exitCode = r.exitCode;
    record.reason = r.reason;
    record.message = r.message;
    record.documentId = r.documentId;
    record.revisionId = r.revisionId;
    return record;
}

ExecutionResult fromRunRecord(const RunRecord& record)
{
    ExecutionResult r;
    r.runId = record.runId;
    r.title = record.title;
    r.language = languageFromName(record.language).value_or(Language::Python);
    r.provider = record.provider;
    r.status = runStatusFromName(record.status).value_or(RunStatus::InfrastructureError);
    r.durationMs = record.durationMs;
    r.costMicros = record.costMicros;
    r.code = record.code;
    r.stdoutText = record.stdoutText;
    r.stderrText = record.stderrText;
    r.result = record.result;
    if (record.error)
        r.error = RunError{record.error->name, record.error->value, record.error->traceback};
    for (const RunChartRecord& c : record.charts) {
        RunChart chart;
        chart.kind = c.kind == RunChartRecord::Kind::Png ? RunChart::Kind::Png : RunChart::Kind::Interactive;
        chart.png = c.png;
        if (c.kind == RunChartRecord::Kind::Interactive)
            chart.spec = QJsonDocument::fromJson(c.specJson.toUtf8()).object();
        r.charts << chart;
    }
    r.exitCode = record.exitCode;
    r.reason = record.reason;
    r.message = record.message;
    r.documentId = record.documentId;
    r.revisionId = record.revisionId;
    r.cleanupConfirmed = r.costMicros > 0;
    return r;
}

} // namespace sandpad
