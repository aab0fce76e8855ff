#include "TestRecords.h"

#include "core/notebook/RunHistory.h"
#include "core/storage/Database.h"

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

bool fillHistory(const QString& dataDir, int runs, bool hostile, QString* error)
{
    Database db(dataDir);
    if (!db.open()) {
        if (error)
            *error = db.error();
        return false;
    }
    RunHistory history(db);
    for (int i = 0; i < runs; ++i) {
        ExecutionResult r = runResult(QStringLiteral("h%1").arg(i), QStringLiteral("run %1").arg(i), QStringLiteral("success"));
        r.startedAt = QDateTime::currentDateTimeUtc().addSecs(i - runs);
        r.code = QStringLiteral("print('x' * 10_000_000)\n");
        if (hostile) {
            r.stdoutText = QString(4 << 20, QLatin1Char('x'))
                           + QStringLiteral("\n[output truncated: kept the first 4.0 MiB of 10.0 MB]\n");
            r.stderrText = QString(1'000'000, QLatin1Char('w'));
            r.result = QString(2'000'000, QLatin1Char('r'));
        } else {
            r.stdoutText = QStringLiteral("hello\n");
            r.result = QStringLiteral("42");
        }
        r.message = r.stdoutText + r.stderrText;
        if (!history.save(r)) {
            if (error)
                *error = history.lastError();
            return false;
        }
    }
    return true;
}

} // namespace sandpad
