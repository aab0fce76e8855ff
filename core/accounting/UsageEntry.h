#pragma once

#include <QDateTime>
#include <QString>

namespace sandpad {

// One ledger row: exactly one per run (idempotent by runId). Costs are integer micro-dollars.
struct UsageEntry {
    QString runId;
    QDateTime time;            // UTC
    QString provider;          // "local", "vercel", "daytona", "none"
    QString language;          // "python", "javascript"
    QString source;            // "adhoc" or "document"
    QString documentId, revisionId;
    QString title;
    QString status;            // runStatusName()
    qint64 costMicros = 0;     // 50000 or 0
    QString reason;            // why 0, e.g. "timeout", "cancelled", "cleanup not confirmed: ..."
};

inline constexpr qint64 kCompletedRunCostMicros = 50000; // $0.05

} // namespace sandpad
