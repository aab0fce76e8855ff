#pragma once

#include "core/accounting/UsageEntry.h"

#include "core/storage/ThreadLocalError.h"

#include <QList>
#include <optional>

namespace sandpad {

class Database;

// The usage ledger: one row per run in SQLite. Thread-safe (each thread uses its own connection).
class UsageLedger {
public:
    explicit UsageLedger(Database& database);

    enum class RecordOutcome { Recorded, AlreadyRecorded, InsufficientCredits, Failed };
    // Records the run. Idempotent: a second call with the same runId leaves the row as it is and
    // answers AlreadyRecorded. When debitCredits is true the cost is debited from the credits
    // account in the same transaction; it may use the run's own reservation but never what other
    // runs in progress hold (InsufficientCredits and nothing written if the rest cannot cover it).
    // With the credits account disabled nothing is debited. Whatever the cost, the run's credits
    // reservation (CreditsAccount::reserve) goes in the same transaction: consumed by the debit,
    // given back when nothing is debited. An invalid entry.time means now.
    RecordOutcome record(const UsageEntry& entry, bool debitCredits = false);

    std::optional<UsageEntry> find(const QString& runId) const;
    QList<UsageEntry> entries(int limit = -1) const;                  // newest first
    QList<UsageEntry> entriesForDocument(const QString& documentId) const;
    qint64 totalMicros() const;
    struct PeriodTotal { QString period; int runs = 0; qint64 costMicros = 0; };
    // UTC calendar periods, newest first.
    QList<PeriodTotal> totalsByDay() const;                           // "2026-11-29"
    QList<PeriodTotal> totalsByMonth() const;                         // "2026-11"
    QString lastError() const { return m_lastError.get(); } // this thread's last error

private:
    Database& m_db;
    mutable ThreadLocalError m_lastError;
};

} // namespace sandpad
