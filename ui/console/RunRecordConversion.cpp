#include "console/RunRecordConversion.h"

#include <QJsonDocument>

namespace sandpad {

RunRecord toRunRecord(const ExecutionResult& result, const QDateTime& startedAt)
{
    RunRecord r;
    r.runId = result.runId;
    r.startedAt = startedAt.toUTC();
    r.title = result.title;
    r.language = languageName(result.language);
    r.provider = result.provider;
    r.status = runStatusName(result.status);
    r.durationMs = result.durationMs;
    r.costMicros = result.costMicros;
    r.code = result.code;
    r.stdoutText = result.stdoutText;
    r.stderrText = result.stderrText;
    r.result = result.result;
    if (result.error)
        r.error = RunErrorRecord{result.error->name, result.error->value, result.error->traceback};
    for (const RunChart& chart : result.charts) {
        RunChartRecord c;
        if (chart.kind == RunChart::Kind::Png) {
            c.kind = RunChartRecord::Kind::Png;
            c.png = chart.png;
        } else {
            c.kind = RunChartRecord::Kind::Interactive;
            c.specJson = QString::fromUtf8(QJsonDocument(chart.spec).toJson(QJsonDocument::Compact));
        }
        r.charts.append(c);
    }
    r.exitCode = result.exitCode;
    r.reason = result.reason;
    r.message = result.message;
    r.documentId = result.documentId;
    r.revisionId = result.revisionId;
    return r;
}

} // namespace sandpad
