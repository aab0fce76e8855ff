// RemoteAllocations (rows on the workspace database) and OrphanReconciler against a scripted
// remote provider: only dead processes' sandboxes are removed, rows closed after confirmation.
#include "TempDatabase.h"

#include "core/allocations/OrphanReconciler.h"
#include "core/allocations/ProcessIdentity.h"
#include "core/allocations/RemoteAllocations.h"
#include "core/providers/http/RemoteProvider.h"
#include "core/sandbox/ProviderError.h"

#include <QCoreApplication>
#include <QProcess>
#include <QSqlQuery>
#include <QtTest>

using namespace sandpad;

namespace {
// A remote provider whose service is a list in memory.
class ScriptedRemote : public RemoteProvider {
public:
    ScriptedRemote() : RemoteProvider(QStringLiteral("Scripted"), {}) {}
    QString name() const override { return QStringLiteral("scripted"); }
    QString displayName() const override { return QStringLiteral("Scripted"); }
    QList<Listing> listAppSandboxes() override
    {
        ++lists;
        if (!listError.isEmpty())
            throw ProviderError(ProviderError::Kind::Unavailable, listError);
        return sandboxes;
    }
    CleanupReport removeAppSandbox(const QString& id) override
    {
        removed << id;
        CleanupReport r;
        r.confirmed = !unconfirmed.contains(id);
        r.detail = r.confirmed ? QStringLiteral("gone") : QStringLiteral("deletion of %1 not confirmed").arg(id);
        if (r.confirmed)
            sandboxes.removeIf([&](const Listing& l) { return l.id == id; });
        return r;
    }
    QList<Listing> sandboxes;
    QStringList removed, unconfirmed;
    QString listError;
    int lists = 0;

private:
    QString configProblem() const override { return {}; }
    CredentialCheck credentialCheck() const override { return {}; }
    ValidationItem runtimeItem() const override { return {}; }
    std::unique_ptr<Sandbox> start(const SandboxOptions&, RunControl&) override { return nullptr; }
};

// An identity no running process has: a pid that exited.
ProcessIdentity deadProcess()
{
    QProcess p;
    p.start(QStringLiteral("/bin/true"));
    p.waitForStarted();
    const ProcessIdentity id = ProcessIdentity::of(p.processId());
    p.waitForFinished();
    return id;
}
} // namespace

class TestRemoteAllocations : public QObject {
    Q_OBJECT
    TempDatabase m_db;

    // A row as another process (`owner`) wrote it.
    void rowOf(const ProcessIdentity& owner, const QString& runId)
    {
        RemoteAllocations allocations(m_db.db());
        QVERIFY(allocations.recordIntent(QStringLiteral("scripted"), runId));
        QSqlQuery q(m_db.db().connection());
        q.prepare(QStringLiteral("UPDATE remote_allocations SET owner_pid = ?, owner_start = ? WHERE run_id = ?"));
        q.addBindValue(owner.pid);
        q.addBindValue(owner.start);
        q.addBindValue(runId);
        QVERIFY(q.exec());
    }

private slots:
    void init() { m_db.initTest(); }

    void processIdentity()
    {
        const ProcessIdentity me = ProcessIdentity::current();
        QCOMPARE(me.pid, QCoreApplication::applicationPid());
        QVERIFY(!me.start.isEmpty());
        QVERIFY(me.alive());
        ProcessIdentity reused = me;
        reused.start += QStringLiteral("x"); // same pid, another process
        QVERIFY(!reused.alive());
        QVERIFY(!deadProcess().alive());
    }

    void intentRemoteIdAndClose()
    {
        RemoteAllocations allocations(m_db.db());
        QVERIFY(allocations.recordIntent(QStringLiteral("daytona"), QStringLiteral("run-1")));
        QVERIFY(allocations.recordIntent(QStringLiteral("vercel"), QStringLiteral("run-2")));
        QVERIFY(allocations.recordRemoteId(QStringLiteral("run-1"), QStringLiteral("sb-1")));
        auto open = allocations.open(QStringLiteral("daytona"));
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.first().remoteId, QStringLiteral("sb-1"));
        QCOMPARE(open.first().owner.pid, ProcessIdentity::current().pid);
        QVERIFY(open.first().owner.alive());
        QCOMPARE(allocations.open().size(), 2);
        QVERIFY(allocations.close(QStringLiteral("run-1"), QStringLiteral("removed")));
        QVERIFY(allocations.open(QStringLiteral("daytona")).isEmpty());
        QCOMPARE(m_db.rowCount(QStringLiteral("remote_allocations")), 2); // kept, closed
    }

    void reconcilerRemovesOnlyWhatDeadRunsLeft()
    {
        const ProcessIdentity dead = deadProcess();
        rowOf(dead, QStringLiteral("dead-1"));
        rowOf(dead, QStringLiteral("dead-empty")); // died before its create answered
        rowOf(ProcessIdentity::current(), QStringLiteral("live-1"));
        ScriptedRemote remote;
        remote.sandboxes = {{QStringLiteral("sb-dead"), QStringLiteral("dead-1"), QStringLiteral("started")},
                            {QStringLiteral("sb-live"), QStringLiteral("live-1"), QStringLiteral("started")},
                            {QStringLiteral("sb-other"), QStringLiteral("another-workspace"), QStringLiteral("started")}};
        RemoteAllocations allocations(m_db.db());
        const ReconcileReport report = OrphanReconciler(allocations, remote).run();
        QCOMPARE(remote.removed, QStringList{QStringLiteral("sb-dead")});
        QCOMPARE(report.removed, 1);
        QCOMPARE(report.rowsClosed, 2);
        QCOMPARE(report.message(), QStringLiteral("removed 1 Scripted sandbox left by a run that did not finish"));
        const auto open = allocations.open();
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.first().runId, QStringLiteral("live-1"));
        // Nothing left to do: no request at all the next time.
        const int lists = remote.lists;
        QVERIFY(OrphanReconciler(allocations, remote).run().message().isEmpty());
        QCOMPARE(remote.lists, lists);
    }

    // A run of this process that is over (its create failed, its removal was not confirmed) is
    // reconciled in this process too; one still going is not.
    void endedRunOfThisProcessIsReconciled()
    {
        rowOf(ProcessIdentity::current(), QStringLiteral("mine-ended"));
        rowOf(ProcessIdentity::current(), QStringLiteral("mine-going"));
        RemoteAllocations::runEnded(QStringLiteral("mine-ended"));
        ScriptedRemote remote;
        remote.sandboxes = {{QStringLiteral("sb-e"), QStringLiteral("mine-ended"), QStringLiteral("started")},
                            {QStringLiteral("sb-g"), QStringLiteral("mine-going"), QStringLiteral("started")}};
        RemoteAllocations allocations(m_db.db());
        QCOMPARE(OrphanReconciler(allocations, remote).run().removed, 1);
        QCOMPARE(remote.removed, QStringList{QStringLiteral("sb-e")});
        QCOMPARE(allocations.open().size(), 1);
        RemoteAllocations::runEnded(QStringLiteral("mine-going"));
    }

    void unconfirmedRemovalKeepsTheRowOpen()
    {
        rowOf(deadProcess(), QStringLiteral("dead-2"));
        ScriptedRemote remote;
        remote.sandboxes = {{QStringLiteral("sb-2"), QStringLiteral("dead-2"), QStringLiteral("destroying")}};
        remote.unconfirmed = {QStringLiteral("sb-2")};
        RemoteAllocations allocations(m_db.db());
        const ReconcileReport report = OrphanReconciler(allocations, remote).run();
        QCOMPARE(report.notRemoved, 1);
        QVERIFY2(report.message().contains(QStringLiteral("could not confirm")), qPrintable(report.message()));
        QCOMPARE(allocations.open().size(), 1);
        remote.unconfirmed.clear();
        QCOMPARE(OrphanReconciler(allocations, remote).run().removed, 1);
        QVERIFY(allocations.open().isEmpty());
    }

    void listingFailureIsReportedAndKeepsRows()
    {
        rowOf(deadProcess(), QStringLiteral("dead-3"));
        ScriptedRemote remote;
        remote.listError = QStringLiteral("Scripted: service unavailable");
        RemoteAllocations allocations(m_db.db());
        const QString message = OrphanReconciler(allocations, remote).run().message();
        QVERIFY2(message.contains(QStringLiteral("could not check")) && message.contains(remote.listError),
                 qPrintable(message));
        QCOMPARE(allocations.open().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestRemoteAllocations)
#include "test_remote_allocations.moc"
