#pragma once

#include <QSqlDatabase>
#include <QString>

namespace sandpad {

// A write transaction on one connection: BEGIN IMMEDIATE on construction (takes the write lock at
// once, waiting up to the busy timeout, so that read-then-write sequences cannot fail with
// SQLITE_BUSY half-way as deferred transactions do in WAL mode), ROLLBACK on destruction unless
// commit() succeeded.
class Transaction {
public:
    explicit Transaction(QSqlDatabase db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    bool isActive() const { return m_active; }
    QString error() const { return m_error; }
    bool commit();
    void rollback();

private:
    bool execRaw(const QString& sql);
    QSqlDatabase m_db;
    bool m_active = false;
    QString m_error;
};

} // namespace sandpad
