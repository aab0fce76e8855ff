#include "core/accounting/UsageLedger.h"

#include "core/accounting/CreditReservations.h"
#include "core/storage/Database.h"
#include "core/storage/SqlText.h"
#include "core/storage/Transaction.h"

#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace sandpad {

namespace {

const QString kColumns = QStringLiteral(
    "run_id, time_ms, provider, language, source, document_id, revision_id, title, status, "
    "cost_micros, reason");

UsageEntry entryFrom(const QSqlQuery& q)
{
    UsageEntry e;
    e.runId = q.value(0).toString();
    e.time = QDateTime::fromMSecsSinceEpoch(q.value(1).toLongLong(), Qt::UTC);
    e.provider = q.value(2).toString();
    e.language = q.value(3).toString();
    e.source = q.value(4).toString();
    e.documentId = q.value(5).toString();
    e.revisionId = q.value(6).toString();
    e.title = q.value(7).toString();
    e.status = q.value(8).toString();
    e.costMicros = q.value(9).toLongLong();
    e.reason = q.value(10).toString();
    return e;
}

} // namespace

UsageLedger::UsageLedger(Database& database) : m_db(database) {}

UsageLedger::RecordOutcome UsageLedger::record(const UsageEntry& entry, bool debitCredits)
{
    m_lastError.clear();
    if (entry.runId.isEmpty()) {
        m_lastError = QStringLiteral("a usage entry needs a run id");
        return RecordOutcome::Failed;
    }
    if (entry.costMicros < 0) {
        m_lastError = QStringLiteral("a usage entry cannot have a negative cost");
        return RecordOutcome::Failed;
    }
    QSqlDatabase db = m_db.connection();
    Transaction tx(db);
    if (!tx.isActive()) {
        m_lastError = QStringLiteral("cannot record usage: %1").arg(tx.error());
        return RecordOutcome::Failed;
    }
    {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("SELECT 1 FROM usage WHERE run_id = ?"));
        q.addBindValue(sqlText(entry.runId));
        if (!q.exec()) {
            m_lastError = q.lastError().text();
            return RecordOutcome::Failed;
        }
        if (q.next()) {
            // The ledger row stays as it is; a reservation left for the run is stale: drop it.
            QString error;
            if (CreditReservations::remove(db, entry.runId, nullptr, &error))
                tx.commit();
            return RecordOutcome::AlreadyRecorded;
        }
    }
    // The credits account is only debited when it is enabled (disabled = no billing adapter).
    // The run's own reservation (if any) was counted in the balance when it was made; what the
    // debit must leave untouched is what other runs in progress hold.
    bool debit = false;
    if (debitCredits && entry.costMicros > 0) {
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("SELECT enabled, balance_micros FROM credits WHERE id = 1"))
            || !q.next()) {
            m_lastError = QStringLiteral("cannot read the credits account: %1")
                              .arg(q.lastError().text());
            return RecordOutcome::Failed;
        }
        if (q.value(0).toLongLong() != 0) {
            const qint64 balance = q.value(1).toLongLong();
            CreditReservations::Held others;
            QString error;
            if (!CreditReservations::live(db, QDateTime::currentMSecsSinceEpoch(), entry.runId, &others,
                                          &error)) {
                m_lastError = error;
                return RecordOutcome::Failed;
            }
            if (balance - others.micros < entry.costMicros) {
                m_lastError = QStringLiteral("insufficient credits: the run costs %1 micro-dollars, "
                                             "the balance is %2 and other runs in progress hold %3")
                                  .arg(entry.costMicros)
                                  .arg(balance)
                                  .arg(others.micros);
                return RecordOutcome::InsufficientCredits; // the run's reservation stays
            }
            debit = true;
        }
    }
    {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("INSERT INTO usage (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                      .arg(kColumns));
        const QDateTime time = entry.time.isValid() ? entry.time : QDateTime::currentDateTimeUtc();
        q.addBindValue(sqlText(entry.runId));
        q.addBindValue(time.toMSecsSinceEpoch());
        q.addBindValue(sqlText(entry.provider));
        q.addBindValue(sqlText(entry.language));
        q.addBindValue(sqlText(entry.source));
        q.addBindValue(sqlText(entry.documentId));
        q.addBindValue(sqlText(entry.revisionId));
        q.addBindValue(sqlText(entry.title));
        q.addBindValue(sqlText(entry.status));
        q.addBindValue(entry.costMicros);
        q.addBindValue(sqlText(entry.reason));
        if (!q.exec()) {
            m_lastError = QStringLiteral("cannot record usage: %1").arg(q.lastError().text());
            return RecordOutcome::Failed;
        }
    }
    if (debit) {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("UPDATE credits SET balance_micros = balance_micros - ? "
                                 "WHERE id = 1 AND balance_micros >= ?"));
        q.addBindValue(entry.costMicros);
        q.addBindValue(entry.costMicros);
        if (!q.exec() || q.numRowsAffected() != 1) {
            m_lastError = QStringLiteral("cannot debit the credits account: %1")
                              .arg(q.lastError().text());
            return RecordOutcome::Failed;
        }
    }
    // The run is over: its reservation is consumed by the debit, or given back when nothing was.
    {
        QString error;
        if (!CreditReservations::remove(db, entry.runId, nullptr, &error)) {
            m_lastError = error;
            return RecordOutcome::Failed;
        }
    }
    if (!tx.commit()) {
        m_lastError = QStringLiteral("cannot record usage: %1").arg(tx.error());
        return RecordOutcome::Failed;
    }
    return RecordOutcome::Recorded;
}

std::optional<UsageEntry> UsageLedger::find(const QString& runId) const
{
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("SELECT %1 FROM usage WHERE run_id = ?").arg(kColumns));
    q.addBindValue(runId);
    if (!q.exec()) {
        m_lastError = q.lastError().text();
        return std::nullopt;
    }
    if (!q.next())
        return std::nullopt;
    return entryFrom(q);
}

QList<UsageEntry> UsageLedger::entries(int limit) const
{
    QList<UsageEntry> out;
    QSqlQuery q(m_db.connection());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT %1 FROM usage ORDER BY time_ms DESC, rowid DESC LIMIT ?")
                  .arg(kColumns));
    q.addBindValue(limit < 0 ? -1 : limit);
    if (!q.exec()) {
        m_lastError = q.lastError().text();
        return out;
    }
    while (q.next())
        out.append(entryFrom(q));
    return out;
}

QList<UsageEntry> UsageLedger::entriesForDocument(const QString& documentId) const
{
    QList<UsageEntry> out;
    QSqlQuery q(m_db.connection());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT %1 FROM usage WHERE document_id = ? "
                             "ORDER BY time_ms DESC, rowid DESC")
                  .arg(kColumns));
    q.addBindValue(documentId);
    if (!q.exec()) {
        m_lastError = q.lastError().text();
        return out;
    }
    while (q.next())
        out.append(entryFrom(q));
    return out;
}

qint64 UsageLedger::totalMicros() const
{
    QSqlQuery q(m_db.connection());
    if (!q.exec(QStringLiteral("SELECT COALESCE(SUM(cost_micros), 0) FROM usage")) || !q.next()) {
        m_lastError = q.lastError().text();
        return 0;
    }
    return q.value(0).toLongLong();
}

// Periods are UTC calendar days/months, newest first.
static QList<UsageLedger::PeriodTotal> totalsBy(Database& db, const QString& format,
                                                ThreadLocalError& lastError)
{
    QList<UsageLedger::PeriodTotal> out;
    QSqlQuery q(db.connection());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT strftime(?, time_ms / 1000, 'unixepoch') AS period, "
                             "COUNT(*), COALESCE(SUM(cost_micros), 0) FROM usage "
                             "GROUP BY period ORDER BY period DESC"));
    q.addBindValue(format);
    if (!q.exec()) {
        lastError = q.lastError().text();
        return out;
    }
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toInt(), q.value(2).toLongLong()});
    return out;
}

QList<UsageLedger::PeriodTotal> UsageLedger::totalsByDay() const
{
    return totalsBy(m_db, QStringLiteral("%Y-%m-%d"), m_lastError);
}

QList<UsageLedger::PeriodTotal> UsageLedger::totalsByMonth() const
{
    return totalsBy(m_db, QStringLiteral("%Y-%m"), m_lastError);
}

} // namespace sandpad
