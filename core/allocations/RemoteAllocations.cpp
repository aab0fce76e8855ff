#include "core/allocations/RemoteAllocations.h"

#include "core/storage/Database.h"
#include "core/storage/ThreadLocalError.h"

#include <QDateTime>
#include <QMutex>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace sandpad {

bool RemoteAllocations::exec(QSqlQuery& q, const QString& what) const
{
    if (q.exec())
        return true;
    m_error = QStringLiteral("cannot %1: %2").arg(what, q.lastError().text());
    return false;
}

namespace {
// The runs of this process that recorded an intent and have not ended (every workspace's: run ids
// are unique).
QMutex g_activeMutex;
QSet<QString> g_active;
} // namespace

RemoteAllocations::RemoteAllocations(Database& database) : m_db(database) {}

void RemoteAllocations::runEnded(const QString& runId)
{
    QMutexLocker lock(&g_activeMutex);
    g_active.remove(runId);
}

bool RemoteAllocations::live(const RemoteAllocation& row)
{
    if (!row.owner.alive())
        return false;
    if (row.owner.pid != ProcessIdentity::current().pid)
        return true; // another live process: its own to reconcile
    QMutexLocker lock(&g_activeMutex);
    return g_active.contains(row.runId);
}

QString RemoteAllocations::lastError() const { return m_error.get(); }

bool RemoteAllocations::recordIntent(const QString& provider, const QString& runId)
{
    const ProcessIdentity owner = ProcessIdentity::current();
    {
        QMutexLocker lock(&g_activeMutex);
        g_active.insert(runId);
    }
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("INSERT OR REPLACE INTO remote_allocations "
                             "(run_id, provider, remote_id, created_ms, owner_pid, owner_start) VALUES (?, ?, '', ?, ?, ?)"));
    q.addBindValue(runId);
    q.addBindValue(provider);
    q.addBindValue(QDateTime::currentMSecsSinceEpoch());
    q.addBindValue(owner.pid);
    q.addBindValue(owner.start);
    return exec(q, QStringLiteral("record the remote sandbox of run %1").arg(runId));
}

bool RemoteAllocations::recordRemoteId(const QString& runId, const QString& remoteId)
{
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("UPDATE remote_allocations SET remote_id = ? WHERE run_id = ?"));
    q.addBindValue(remoteId);
    q.addBindValue(runId);
    return exec(q, QStringLiteral("record the remote id of run %1").arg(runId));
}

bool RemoteAllocations::close(const QString& runId, const QString& how)
{
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("UPDATE remote_allocations SET closed_ms = ?, closed_how = ? "
                             "WHERE run_id = ? AND closed_ms IS NULL"));
    q.addBindValue(QDateTime::currentMSecsSinceEpoch());
    q.addBindValue(how);
    q.addBindValue(runId);
    return exec(q, QStringLiteral("close the remote sandbox record of run %1").arg(runId));
}

QList<RemoteAllocation> RemoteAllocations::open(const QString& provider) const
{
    QList<RemoteAllocation> rows;
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("SELECT run_id, provider, remote_id, created_ms, owner_pid, owner_start "
                             "FROM remote_allocations WHERE closed_ms IS NULL AND (? = '' OR provider = ?) "
                             "ORDER BY created_ms"));
    q.addBindValue(provider.isNull() ? QString(QLatin1String("")) : provider);
    q.addBindValue(provider.isNull() ? QString(QLatin1String("")) : provider);
    if (!exec(q, QStringLiteral("read the remote sandbox records")))
        return rows;
    while (q.next()) {
        RemoteAllocation a;
        a.runId = q.value(0).toString();
        a.provider = q.value(1).toString();
        a.remoteId = q.value(2).toString();
        a.createdMs = q.value(3).toLongLong();
        a.owner.pid = q.value(4).toLongLong();
        a.owner.start = q.value(5).toString();
        rows.append(a);
    }
    return rows;
}

} // namespace sandpad
