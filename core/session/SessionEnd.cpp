#include "core/session/SessionEnd.h"

#include "core/accounting/UsageEntry.h"
#include "core/accounting/UsageLedger.h"
#include "core/run/ExecutionResult.h"

#include <QUuid>

namespace sandpad {

bool SessionEnd::record(UsageLedger* ledger) const
{
    if (!ledger)
        return false;
    UsageEntry entry;
    entry.runId = QStringLiteral("session-end-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    entry.time = QDateTime::currentDateTimeUtc();
    entry.provider = provider;
    entry.language = languageName(language);
    entry.source = QStringLiteral("session");
    entry.title = title.isEmpty() ? QStringLiteral("session") : title;
    entry.status = runStatusName(cleanup.confirmed ? RunStatus::Success : RunStatus::InfrastructureError);
    entry.costMicros = 0;
    entry.reason = cleanup.confirmed ? QStringLiteral("session ended (%1); cleanup confirmed").arg(why)
                                     : QStringLiteral("session ended (%1); cleanup not confirmed: %2").arg(why, cleanup.detail);
    return ledger->record(entry, false) != UsageLedger::RecordOutcome::Failed;
}

} // namespace sandpad
