#include "core/accounting/CreditsAccount.h"

#include "core/accounting/CreditReservations.h"
#include "core/accounting/Money.h"
#include "core/storage/Database.h"
#include "core/storage/Transaction.h"

#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>
#include <limits>

namespace sandpad {

namespace {

QString runsText(int runs)
{
    return runs == 1 ? QStringLiteral("1 run in progress") : QStringLiteral("%1 runs in progress").arg(runs);
}

} // namespace

CreditsAccount::CreditsAccount(Database& database) : m_db(database) {}

void CreditsAccount::setClockForTesting(Clock clock)
{
    m_clock = std::move(clock);
}

qint64 CreditsAccount::nowMs() const
{
    return m_clock ? m_clock() : QDateTime::currentMSecsSinceEpoch();
}

bool CreditsAccount::enabled() const
{
    QSqlQuery q(m_db.connection());
    if (!q.exec(QStringLiteral("SELECT enabled FROM credits WHERE id = 1")) || !q.next())
        return false;
    return q.value(0).toLongLong() != 0;
}

void CreditsAccount::setEnabled(bool enabled)
{
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("UPDATE credits SET enabled = ? WHERE id = 1"));
    q.addBindValue(enabled ? 1 : 0);
    if (!q.exec())
        qWarning("sandpad: cannot change the credits setting: %s",
                 qPrintable(q.lastError().text()));
}

qint64 CreditsAccount::balanceMicros() const
{
    QSqlQuery q(m_db.connection());
    if (!q.exec(QStringLiteral("SELECT balance_micros FROM credits WHERE id = 1")) || !q.next())
        return 0;
    return q.value(0).toLongLong();
}

bool CreditsAccount::canPay(qint64 costMicros) const
{
    const auto account = summary();
    if (!account)
        return false; // unreadable: do not promise a payment
    return !account->enabled || account->availableMicros() >= costMicros;
}

std::optional<CreditsAccount::Summary> CreditsAccount::summary() const
{
    // One statement, so one snapshot: a run recorded meanwhile is seen either before or after.
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("SELECT c.enabled, c.balance_micros, r.held, r.runs FROM credits c, "
                             "(SELECT COALESCE(SUM(amount_micros), 0) AS held, COUNT(*) AS runs "
                             "FROM credit_reservations WHERE %1) r WHERE c.id = 1")
                  .arg(CreditReservations::liveCondition()));
    CreditReservations::bindLive(q, nowMs());
    if (!q.exec() || !q.next())
        return std::nullopt;
    Summary s;
    s.enabled = q.value(0).toLongLong() != 0;
    s.balanceMicros = q.value(1).toLongLong();
    s.reservedMicros = q.value(2).toLongLong();
    s.runsInProgress = q.value(3).toInt();
    return s;
}

QString CreditsAccount::Summary::balanceText() const
{
    if (runsInProgress == 0)
        return formatMoney(balanceMicros);
    return QStringLiteral("%1 (%2 of it reserved by %3)")
        .arg(formatMoney(balanceMicros), formatMoney(reservedMicros), runsText(runsInProgress));
}

CreditsAccount::Reservation CreditsAccount::reserve(const QString& runId, qint64 micros)
{
    using Outcome = Reservation::Outcome;
    if (runId.isEmpty())
        return {Outcome::Failed, QStringLiteral("a credits reservation needs a run id")};
    if (micros < 0)
        return {Outcome::Failed, QStringLiteral("a credits reservation cannot be negative")};

    QSqlDatabase db = m_db.connection();
    QString error;
    const auto readAccount = [&db, &error](bool* enabled, qint64* balance) {
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("SELECT enabled, balance_micros FROM credits WHERE id = 1")) || !q.next()) {
            error = QStringLiteral("cannot read the credits account: %1").arg(q.lastError().text());
            return false;
        }
        *enabled = q.value(0).toLongLong() != 0;
        *balance = q.value(1).toLongLong();
        return true;
    };
    // A plain read first: with credits off (the default) no write lock is taken and nothing stored.
    bool on = false;
    qint64 balance = 0;
    if (!readAccount(&on, &balance))
        return {Outcome::Failed, error};
    if (!on || micros == 0)
        return {Outcome::NotNeeded, {}};

    Transaction tx(db);
    if (!tx.isActive())
        return {Outcome::Failed, QStringLiteral("cannot reserve credits: %1").arg(tx.error())};
    // Read again under the write lock: another thread or process may have changed the account.
    if (!readAccount(&on, &balance))
        return {Outcome::Failed, error};
    if (!on)
        return {Outcome::NotNeeded, {}};
    const qint64 now = nowMs();
    if (!CreditReservations::removeExpired(db, now, &error))
        return {Outcome::Failed, error};
    {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("SELECT 1 FROM usage WHERE run_id = ?"));
        q.addBindValue(runId);
        if (!q.exec())
            return {Outcome::Failed, QStringLiteral("cannot read the usage ledger: %1").arg(q.lastError().text())};
        if (q.next())
            return {Outcome::Failed, QStringLiteral("run %1 is already recorded; it cannot reserve credits").arg(runId)};
    }
    const qint64 held = CreditReservations::amountOf(db, runId, &error);
    if (held < 0)
        return {Outcome::Failed, error};
    if (held > 0) {
        if (held != micros)
            return {Outcome::Failed, QStringLiteral("run %1 already holds a reservation of %2 (asked for %3)")
                                         .arg(runId, formatMoney(held), formatMoney(micros))};
        tx.commit(); // keeps the expired rows' removal; the reservation itself is unchanged
        return {Outcome::AlreadyReserved, {}};
    }
    CreditReservations::Held others;
    if (!CreditReservations::live(db, now, runId, &others, &error))
        return {Outcome::Failed, error};
    if (balance - others.micros < micros) {
        QString reason = QStringLiteral("the credits balance (%1) cannot cover this run (%2)")
                             .arg(formatMoney(balance), formatMoney(micros));
        if (others.runs > 0)
            reason += QStringLiteral(": %1 of it is reserved by %2")
                          .arg(formatMoney(others.micros), runsText(others.runs));
        return {Outcome::Insufficient, reason};
    }
    if (!CreditReservations::insert(db, runId, micros, now, &error))
        return {Outcome::Failed, error};
    if (!tx.commit())
        return {Outcome::Failed, QStringLiteral("cannot reserve credits: %1").arg(tx.error())};
    return {Outcome::Reserved, {}};
}

bool CreditsAccount::release(const QString& runId)
{
    if (runId.isEmpty())
        return false;
    // One statement: atomic on its own. Done whether credits are on or not (nothing to find when off).
    QSqlDatabase db = m_db.connection();
    bool removed = false;
    QString error;
    if (!CreditReservations::remove(db, runId, &removed, &error)) {
        qWarning("sandpad: %s", qPrintable(error));
        return false;
    }
    return removed;
}

void CreditsAccount::topUp(qint64 micros)
{
    if (micros <= 0) {
        qWarning("sandpad: ignored a credits top-up of %lld micro-dollars (must be positive)",
                 static_cast<long long>(micros));
        return;
    }
    QSqlQuery q(m_db.connection());
    // Saturate instead of overflowing the INTEGER column.
    q.prepare(QStringLiteral("UPDATE credits SET balance_micros = CASE "
                             "WHEN balance_micros > ? - ? THEN ? ELSE balance_micros + ? END "
                             "WHERE id = 1"));
    const qint64 max = std::numeric_limits<qint64>::max();
    q.addBindValue(max);
    q.addBindValue(micros);
    q.addBindValue(max);
    q.addBindValue(micros);
    if (!q.exec())
        qWarning("sandpad: cannot top up the credits: %s", qPrintable(q.lastError().text()));
}

} // namespace sandpad
