#pragma once

#include "core/allocations/ProcessIdentity.h"
#include "core/storage/ThreadLocalError.h"

#include <QList>
#include <QString>

class QSqlQuery;

namespace sandpad {

class Database;

// One remote sandbox a run asked for (a row of remote_allocations).
struct RemoteAllocation {
    QString runId;       // the run, and the sandbox's RemoteProvider::kRunLabel
    QString provider;    // "daytona", "vercel"
    QString remoteId;    // empty until the create answered
    qint64 createdMs = 0;
    ProcessIdentity owner;
    qint64 closedMs = 0; // 0: open (the sandbox may still exist)
    QString closedHow;
};

// The workspace's record of paid remote sandboxes, so that none is ever lost track of: the intent
// is written before each create, the remote id once known, and the row is closed after a
// confirmed removal. A row left open by a process that died is the OrphanReconciler's. Shared by
// every process on the database (GUI and sandpad-run); any thread. Failures are reported by a
// false return and lastError() (a run goes on without its record: it is not the user's fault).
class RemoteAllocations {
public:
    explicit RemoteAllocations(Database& database);

    // Also marks the run as in progress in this process, until runEnded().
    bool recordIntent(const QString& provider, const QString& runId);
    bool recordRemoteId(const QString& runId, const QString& remoteId);
    bool close(const QString& runId, const QString& how);
    // The run is over in this process (whatever became of its sandbox): an open row of it is then
    // the reconciler's, as a dead process's is.
    static void runEnded(const QString& runId);
    // Whether the run of this row may still use its sandbox: its process runs and, when that is
    // this process, the run has not ended.
    static bool live(const RemoteAllocation& row);
    // Open rows, of one provider when named; oldest first.
    QList<RemoteAllocation> open(const QString& provider = {}) const;
    QString lastError() const;

private:
    bool exec(QSqlQuery& query, const QString& what) const;
    Database& m_db;
    mutable ThreadLocalError m_error;
};

} // namespace sandpad
