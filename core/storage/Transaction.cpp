#include "core/storage/Transaction.h"

#include <QSqlError>
#include <QSqlQuery>

namespace sandpad {

Transaction::Transaction(QSqlDatabase db) : m_db(std::move(db))
{
    if (!m_db.isValid() || !m_db.isOpen()) {
        m_error = QStringLiteral("the database is not open");
        return;
    }
    m_active = execRaw(QStringLiteral("BEGIN IMMEDIATE"));
}

Transaction::~Transaction()
{
    rollback();
}

bool Transaction::execRaw(const QString& sql)
{
    QSqlQuery q(m_db);
    if (!q.exec(sql)) {
        m_error = q.lastError().text();
        return false;
    }
    return true;
}

bool Transaction::commit()
{
    if (!m_active)
        return false;
    if (!execRaw(QStringLiteral("COMMIT"))) {
        rollback();
        return false;
    }
    m_active = false;
    return true;
}

void Transaction::rollback()
{
    if (!m_active)
        return;
    m_active = false;
    QSqlQuery q(m_db);
    q.exec(QStringLiteral("ROLLBACK"));
}

} // namespace sandpad
