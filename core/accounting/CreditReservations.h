#pragma once

#include <QSqlDatabase>
#include <QString>

class QSqlQuery;

namespace sandpad {

// The credits held by runs in progress (table credit_reservations, schema 3). The calls work on
// the caller's connection, inside the caller's write transaction (storage/Transaction), so that
// reading the balance, counting what other runs hold and reserving or debiting are one step for
// every thread and process that shares the database.
//
// A reservation lives from before its run's sandbox is created until the run's ledger row is
// written (UsageLedger::record removes it) or the run gives it back (CreditsAccount::release).
// A process that crashes in between leaves it behind: it stops counting kLifetimeMs after it was
// made. A time bound, not the owner's pid: a pid means nothing across PID namespaces or machines
// sharing a data dir, and is reused, so "its owner is gone" could free the money of a run that is
// still going; a bound well above the longest run (the 300 s deadline, plus sandbox start and
// cleanup) never does. A reservation made "in the future" by more than kLifetimeMs (the clock was
// set back) does not count either, so that no clock change can hold a balance for ever.
class CreditReservations {
public:
    static constexpr qint64 kLifetimeMs = 15 * 60 * 1000;

    struct Held {
        qint64 micros = 0;
        int runs = 0;
    };

    // The SQL condition that a credit_reservations row still counts, and its two bind values.
    static QString liveCondition();
    static void bindLive(QSqlQuery& query, qint64 nowMs);

    // What the live reservations hold at nowMs, leaving out exceptRunId's (empty: none left out).
    static bool live(QSqlDatabase& db, qint64 nowMs, const QString& exceptRunId, Held* held, QString* error);
    // runId's reservation, live or not: its amount, 0 when there is none, -1 on error.
    static qint64 amountOf(QSqlDatabase& db, const QString& runId, QString* error);
    static bool insert(QSqlDatabase& db, const QString& runId, qint64 micros, qint64 nowMs, QString* error);
    // Removes runId's reservation; *removed (optional) says whether there was one.
    static bool remove(QSqlDatabase& db, const QString& runId, bool* removed, QString* error);
    // Removes the reservations that no longer count at nowMs.
    static bool removeExpired(QSqlDatabase& db, qint64 nowMs, QString* error);
};

} // namespace sandpad
