#pragma once

#include <QString>

#include <functional>
#include <optional>

namespace sandpad {

class Database;

// The optional billing adapter. Off by default: usage is recorded and nothing is debited.
// When enabled, a run reserves its price before a sandbox is created (reserve(), refused when the
// balance minus what runs in progress hold cannot cover it), and UsageLedger::record debits the
// cost and drops the reservation in the ledger row's transaction; a run that costs nothing gives
// the money back there, or through release(). Reserving is atomic across threads and processes
// sharing the database, so concurrent runs cannot spend one balance twice. A reservation left by
// a crashed process stops counting after CreditReservations::kLifetimeMs (15 min).
// Balances are integer micro-dollars. Usable from any thread (each uses its own connection).
class CreditsAccount {
public:
    using Clock = std::function<qint64()>; // UTC ms since the epoch

    explicit CreditsAccount(Database& database);

    bool enabled() const;
    void setEnabled(bool enabled);
    qint64 balanceMicros() const;            // the whole balance, money held by reservations included
    // True when disabled; else whether the balance minus live reservations covers the cost. Only a
    // hint: reserve() is the check that holds against concurrent runs.
    bool canPay(qint64 costMicros) const;
    void topUp(qint64 micros);               // adds to the balance (positive amounts only)

    struct Reservation {
        enum class Outcome {
            Reserved,        // held now
            AlreadyReserved, // this run already held the same amount (idempotent)
            NotNeeded,       // credits off, or nothing to hold: nothing stored
            Insufficient,    // the balance minus what other runs hold cannot cover it
            Failed,          // invalid request, or the database could not be read or written
        };
        Outcome outcome = Outcome::Failed;
        QString reason; // why it was not granted, for the run's refusal message; empty when granted
        bool granted() const
        {
            return outcome == Outcome::Reserved || outcome == Outcome::AlreadyReserved
                   || outcome == Outcome::NotNeeded;
        }
    };
    // Holds micros of the balance for runId until the run's ledger row is recorded or the run
    // releases it. Idempotent by run id: a second call with the same amount is AlreadyReserved
    // (with another amount, Failed); a run already in the ledger cannot reserve.
    Reservation reserve(const QString& runId, qint64 micros);
    // Gives runId's reservation back; true when there was one. A no-op the second time.
    bool release(const QString& runId);

    // What the balance view shows: one consistent read of the account and its live reservations.
    struct Summary {
        bool enabled = false;
        qint64 balanceMicros = 0;
        qint64 reservedMicros = 0; // held by runs in progress
        int runsInProgress = 0;    // runs holding a live reservation
        qint64 availableMicros() const { return balanceMicros - reservedMicros; }
        // "$0.10", or "$0.10 ($0.05 of it reserved by 1 run in progress)".
        QString balanceText() const;
    };
    std::optional<Summary> summary() const; // nullopt when the account cannot be read

    // Tests move time (reservations made "long ago"); the default is the system clock. Set it
    // before other threads use the account.
    void setClockForTesting(Clock clock);

private:
    qint64 nowMs() const;
    Database& m_db;
    Clock m_clock;
};

} // namespace sandpad
