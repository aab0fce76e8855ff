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

RunRecord runRecord(const QString& runId, const QString& title, const QString& status)
{
    RunRecord r;
    r.runId = runId;
    r.title = title;
    r.language = QStringLiteral("python");
    r.provider = QStringLiteral("local");
    r.status = status;
    r.durationMs = 1234;
    r.costMicros = 50000;
    return r;
}

} // namespace sandpad
