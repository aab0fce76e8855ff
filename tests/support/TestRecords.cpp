#include "TestRecords.h"

namespace sandpad {

UsageEntry usageEntry(const QString& runId, const QDateTime& time, const QString& title, const QString& status,
                      qint64 costMicros, const QString& reason)
{
    UsageEntry e;
    e.runId = runId;
    e.time = time;
    e.provider = QStringLiteral("local");
    e.language = QStringLiteral("python");
    e.source = QStringLiteral("adhoc");
    e.title = title;
    e.status = status;
    e.costMicros = costMicros;
    e.reason = reason;
    return e;
}

ExecutionResult runResult(const QString& runId, const QString& title, const QString& status)
{
    ExecutionResult r;
    r.runId = runId;
    r.title = title;
    r.language = Language::Python;
    r.provider = QStringLiteral("local");
    r.status = runStatusFromName(status).value_or(RunStatus::InfrastructureError);
    r.durationMs = 1234;
    r.costMicros = 50000;
    r.cleanupConfirmed = true;
    return r;
}

Run* runningRun(const QString& title, const QString& code, const QString& runId)
{
    RunOrigin origin;
    origin.title = title;
    origin.code = code;
    return new Run(runId, origin, QStringLiteral("local"));
}

} // namespace sandpad
