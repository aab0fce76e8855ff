#include "accounting/CreditsAccount.h"

#include "storage/Database.h"
#include "storage/Transaction.h"

#include <QSqlError>
#include <QSqlQuery>
#include <limits>

namespace sandpad {

CreditsAccount::CreditsAccount(Database& database) : m_db(database) {}

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
    QSqlQuery q(m_db.connection());
    if (!q.exec(QStringLiteral("SELECT enabled, balance_micros FROM credits WHERE id = 1"))
        || !q.next())
        return false; // unreadable: do not promise a payment
    if (q.value(0).toLongLong() == 0)
        return true;
    return q.value(1).toLongLong() >= costMicros;
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
