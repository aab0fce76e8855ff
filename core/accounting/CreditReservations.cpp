#include "core/accounting/CreditReservations.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace sandpad {

QString CreditReservations::liveCondition()
{
    return QStringLiteral("(expires_ms > ? AND created_ms <= ?)");
}

void CreditReservations::bindLive(QSqlQuery& query, qint64 nowMs)
{
    query.addBindValue(nowMs);
    query.addBindValue(nowMs + kLifetimeMs);
}

bool CreditReservations::live(QSqlDatabase& db, qint64 nowMs, const QString& exceptRunId, Held* held,
                              QString* error)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT COALESCE(SUM(amount_micros), 0), COUNT(*) FROM credit_reservations "
                             "WHERE %1 AND run_id <> ?")
                  .arg(liveCondition()));
    bindLive(q, nowMs);
    q.addBindValue(exceptRunId.isNull() ? QString(QLatin1String("")) : exceptRunId);
    if (!q.exec() || !q.next()) {
        *error = QStringLiteral("cannot read the credits reservations: %1").arg(q.lastError().text());
        return false;
    }
    held->micros = q.value(0).toLongLong();
    held->runs = q.value(1).toInt();
    return true;
}

qint64 CreditReservations::amountOf(QSqlDatabase& db, const QString& runId, QString* error)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT amount_micros FROM credit_reservations WHERE run_id = ?"));
    q.addBindValue(runId);
    if (!q.exec()) {
        *error = QStringLiteral("cannot read the credits reservations: %1").arg(q.lastError().text());
        return -1;
    }
    return q.next() ? q.value(0).toLongLong() : 0;
}

bool CreditReservations::insert(QSqlDatabase& db, const QString& runId, qint64 micros, qint64 nowMs,
                                QString* error)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO credit_reservations (run_id, amount_micros, created_ms, expires_ms) "
                             "VALUES (?, ?, ?, ?)"));
    q.addBindValue(runId);
    q.addBindValue(micros);
    q.addBindValue(nowMs);
    q.addBindValue(nowMs + kLifetimeMs);
    if (!q.exec()) {
        *error = QStringLiteral("cannot reserve credits: %1").arg(q.lastError().text());
        return false;
    }
    return true;
}

bool CreditReservations::remove(QSqlDatabase& db, const QString& runId, bool* removed, QString* error)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("DELETE FROM credit_reservations WHERE run_id = ?"));
    q.addBindValue(runId);
    if (!q.exec()) {
        *error = QStringLiteral("cannot release the credits reservation of run %1: %2")
                     .arg(runId, q.lastError().text());
        return false;
    }
    if (removed)
        *removed = q.numRowsAffected() > 0;
    return true;
}

bool CreditReservations::removeExpired(QSqlDatabase& db, qint64 nowMs, QString* error)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("DELETE FROM credit_reservations WHERE NOT %1").arg(liveCondition()));
    bindLive(q, nowMs);
    if (!q.exec()) {
        *error = QStringLiteral("cannot remove expired credits reservations: %1").arg(q.lastError().text());
        return false;
    }
    return true;
}

} // namespace sandpad
