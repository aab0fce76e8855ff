// Remote notebook sessions (issue 13) through the real Executor and NotebookSession against the
// Vercel and Daytona fakes, both languages: state kept in one remote sandbox, Out[n], interrupt
// keeps state, restart clears it, the deadline restarts, processes an execution started gone
// before it is billed, the sandbox's own timeout kept ahead of it and its expiry said, the idle
// end, the session's sandbox recorded while it lives and gone (fake lists nothing) at the end.
#include "FakeProviderConfigs.h"
#include "FakeServer.h"
#include "TempDatabase.h"

#include "core/accounting/UsageLedger.h"
#include "core/allocations/RemoteAllocations.h"
#include "core/engine/Executor.h"
#include "core/providers/daytona/DaytonaProvider.h"
#include "core/providers/http/RemoteSessionSandbox.h"
#include "core/providers/vercel/VercelProvider.h"
#include "core/run/ExecutionRequest.h"
#include "core/run/ExecutionResult.h"
#include "core/run/Run.h"
#include "core/session/NotebookSession.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace sandpad;

namespace {

QString describe(const ExecutionResult& r)
{
    return QStringLiteral("status=%1 reason=%2 result=%3\nstdout=%4\nstderr=%5\nerror=%6")
        .arg(runStatusName(r.status), r.reason, r.result.value_or(QStringLiteral("<none>")), r.stdoutText.left(800),
             r.stderrText.left(800),
             r.error ? r.error->name + u':' + r.error->value + u'\n' + r.error->traceback : QStringLiteral("-"));
}

ExecutionResult wait(Run* run)
{
    if (!run->isFinished()) {
        QEventLoop loop;
        QObject::connect(run, &Run::finished, &loop, &QEventLoop::quit);
        loop.exec();
    }
    ExecutionResult result = run->result();
    run->deleteLater();
    return result;
}

bool waitForOutput(Run* run, const QString& text)
{
    QString seen;
    QEventLoop loop;
    QObject::connect(run, &Run::output, &loop, [&](OutputStream, const QString& chunk) {
        seen += chunk;
        if (seen.contains(text))
            loop.quit();
    });
    QObject::connect(run, &Run::finished, &loop, &QEventLoop::quit);
    loop.exec();
    return seen.contains(text);
}

} // namespace

class TestRemoteSession : public QObject {
    Q_OBJECT

    TempDatabase m_data;
    std::unique_ptr<UsageLedger> m_ledger;
    std::unique_ptr<RemoteAllocations> m_allocations;
    std::unique_ptr<FakeServer> m_vercel, m_daytona;
    QMap<QString, std::shared_ptr<Executor>> m_executors;
    std::unique_ptr<NotebookSession> m_session;

    static QString providerName()
    {
        QFETCH_GLOBAL(QString, provider);
        return provider;
    }
    FakeServer& fake() const { return providerName() == QLatin1String("vercel") ? *m_vercel : *m_daytona; }
    QString createRoute() const
    {
        return providerName() == QLatin1String("vercel") ? QStringLiteral("^POST /v2/sandboxes$") : QStringLiteral("^POST /api/sandbox$");
    }
    ExecutionResult exec(Language language, const QString& code)
    {
        return wait(m_session->execute(language, code, QStringLiteral("cell")));
    }
    // The fake's VMs still running (the Vercel fake also lists named sandboxes as "sandbox:...").
    int liveSandboxes()
    {
        int n = 0;
        const QJsonObject all = fake().sandboxes();
        for (auto it = all.begin(); it != all.end(); ++it)
            if (!it.key().contains(u':'))
                n += it.value().toObject().value(QLatin1String("destroyed")).toBool() ? 0 : 1;
        return n;
    }
    void verifyCleaned()
    {
        QString why;
        QVERIFY2(QTest::qWaitFor([&] { return fake().allCleaned(&why); }, 10000), qPrintable(why));
    }

private slots:
    void initTestCase_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::newRow("vercel") << QStringLiteral("vercel");
        QTest::newRow("daytona") << QStringLiteral("daytona");
    }

    void initTestCase()
    {
        QVERIFY2(m_data.open(), qPrintable(m_data.error()));
        m_ledger = std::make_unique<UsageLedger>(m_data.db());
        m_allocations = std::make_unique<RemoteAllocations>(m_data.db());
        m_vercel = std::make_unique<FakeServer>(QStringLiteral("fake_vercel.py"));
        m_daytona = std::make_unique<FakeServer>(QStringLiteral("fake_daytona.py"));
        QVERIFY(m_vercel->started() && m_daytona->started());
        VercelConfig v = fakeVercelConfig(*m_vercel);
        v.basePackages = {QStringLiteral("matplotlib"), QStringLiteral("numpy")};
        v.confirmTimeoutMs = 5000;
        DaytonaConfig d = fakeDaytonaConfig(*m_daytona);
        d.basePackages = v.basePackages;
        d.confirmTimeoutMs = 5000;
        ExecutorConfig config;
        config.deadlineSeconds = 60;
        for (auto& [name, provider] : {std::pair<QString, std::shared_ptr<SandboxProvider>>{QStringLiteral("vercel"), std::make_shared<VercelProvider>(v)},
                                       std::pair<QString, std::shared_ptr<SandboxProvider>>{QStringLiteral("daytona"), std::make_shared<DaytonaProvider>(d)}}) {
            auto executor = std::make_shared<Executor>(provider, m_ledger.get());
            executor->setConfig(config);
            executor->setAllocations(m_allocations.get());
            m_executors.insert(name, executor);
        }
    }

    void init()
    {
        fake().reset();
        m_session = std::make_unique<NotebookSession>(m_executors.value(providerName()).get());
    }
    void cleanup()
    {
        m_session.reset();
        if (!QTest::currentTestFailed())
            verifyCleaned();
    }
    void cleanupTestCase()
    {
        m_session.reset();
        m_executors.clear();
    }

    void stateIsKeptInOneSandbox_data()
    {
        QTest::addColumn<Language>("language");
        QTest::addColumn<QString>("define");
        QTest::addColumn<QString>("use");
        QTest::newRow("python") << Language::Python << QStringLiteral("x = 41\ndef f(): return x + 1")
                                << QStringLiteral("print(f())\nx");
        QTest::newRow("javascript") << Language::JavaScript << QStringLiteral("let x = 41; const f = () => x + 1;")
                                    << QStringLiteral("console.log(f()); x");
    }
    void stateIsKeptInOneSandbox()
    {
        QFETCH(Language, language);
        QFETCH(QString, define);
        QFETCH(QString, use);
        QVERIFY(m_session->sessionsSupported());
        const ExecutionResult first = exec(language, define);
        QVERIFY2(first.status == RunStatus::Success, qPrintable(describe(first)));
        QCOMPARE(first.executionCount.value_or(-1), 1);
        QCOMPARE(first.costMicros, 50000);
        QCOMPARE(m_allocations->open(providerName()).size(), 1); // recorded while the session lives
        const ExecutionResult second = exec(language, use);
        QVERIFY2(second.status == RunStatus::Success, qPrintable(describe(second)));
        QCOMPARE(second.stdoutText, QStringLiteral("42\n"));
        QCOMPARE(second.result.value_or(QString()), QStringLiteral("41"));
        QCOMPARE(second.executionCount.value_or(-1), 2);
        QCOMPARE(second.costMicros, 50000);
        QVERIFY(second.cleanupConfirmed);
        QCOMPARE(fake().count(createRoute()), 1);
        QCOMPARE(liveSandboxes(), 1);
        const int rows = m_ledger->entries().size();
        m_session.reset(); // the owner goes: the sandbox is deleted, confirmed, recorded at $0
        QCOMPARE(liveSandboxes(), 0);
        verifyCleaned();
        QCOMPARE(m_ledger->entries().size(), rows + 1);
        const UsageEntry end = m_ledger->entries(1).first(); // newest first
        QCOMPARE(end.source, QStringLiteral("session"));
        QCOMPARE(end.costMicros, 0);
        QVERIFY(m_allocations->open(providerName()).isEmpty());
    }

    void errorsAndFiguresAsLocally()
    {
        const ExecutionResult error = exec(Language::Python, QStringLiteral("y = 1\n\nraise ValueError('bad')"));
        QCOMPARE(error.status, RunStatus::Error);
        QVERIFY(error.error && error.error->name == QLatin1String("ValueError"));
        QVERIFY2(error.error->traceback.contains(QStringLiteral("line 3")), qPrintable(error.error->traceback));
        QCOMPARE(error.costMicros, 50000);
        const ExecutionResult figure = exec(Language::Python, QStringLiteral(
            "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [y, 4, 9])\nprint('drawn')"));
        QVERIFY2(figure.status == RunStatus::Success, qPrintable(describe(figure)));
        QCOMPARE(figure.charts.size(), 1);
        QVERIFY(!m_session->variables().isEmpty()); // the listing came back through the out dir
    }

    void interruptKeepsState_data()
    {
        QTest::addColumn<Language>("language");
        QTest::addColumn<QString>("define");
        QTest::addColumn<QString>("block");
        QTest::addColumn<QString>("use");
        QTest::addColumn<QString>("error");
        QTest::newRow("python") << Language::Python << QStringLiteral("x = 5")
                                << QStringLiteral("import time\nprint('go', flush=True)\ntime.sleep(60)")
                                << QStringLiteral("x * 2") << QStringLiteral("KeyboardInterrupt");
        QTest::newRow("javascript") << Language::JavaScript << QStringLiteral("let x = 5;")
                                    << QStringLiteral("console.log('go'); await new Promise((r) => setTimeout(r, 60000));")
                                    << QStringLiteral("x * 2") << QStringLiteral("KeyboardInterrupt");
    }
    void interruptKeepsState()
    {
        QFETCH(Language, language);
        QFETCH(QString, define);
        QFETCH(QString, block);
        QFETCH(QString, use);
        QFETCH(QString, error);
        QCOMPARE(exec(language, define).status, RunStatus::Success);
        Run* run = m_session->execute(language, block, QStringLiteral("cell"));
        QVERIFY(waitForOutput(run, QStringLiteral("go")));
        m_session->interrupt();
        const ExecutionResult stopped = wait(run);
        QCOMPARE(stopped.status, RunStatus::Cancelled);
        QCOMPARE(stopped.costMicros, 0);
        QVERIFY2(stopped.error && stopped.error->name == error, qPrintable(describe(stopped)));
        const ExecutionResult after = exec(language, use);
        QVERIFY2(after.status == RunStatus::Success, qPrintable(describe(after)));
        QCOMPARE(after.result.value_or(QString()), QStringLiteral("10"));
        QCOMPARE(after.executionCount.value_or(-1), 3);
        QCOMPARE(fake().count(createRoute()), 1);
    }

    void secondInterruptRestarts()
    {
        QCOMPARE(exec(Language::Python, QStringLiteral("x = 5")).status, RunStatus::Success);
        // A loop that swallows KeyboardInterrupt: only the second interrupt ends it (the session with it).
        Run* run = m_session->execute(Language::Python, QStringLiteral(
            "import time\nprint('go', flush=True)\nwhile True:\n    try:\n        time.sleep(60)\n"
            "    except KeyboardInterrupt:\n        print('caught', flush=True)"), QStringLiteral("cell"));
        QVERIFY(waitForOutput(run, QStringLiteral("go")));
        m_session->interrupt();
        QVERIFY(waitForOutput(run, QStringLiteral("caught")));
        m_session->interrupt();
        const ExecutionResult stopped = wait(run);
        QCOMPARE(stopped.status, RunStatus::Cancelled);
        QCOMPARE(stopped.costMicros, 0);
        QVERIFY2(stopped.stderrText.contains(QStringLiteral("its state is lost")), qPrintable(describe(stopped)));
        QCOMPARE(liveSandboxes(), 0);
        const ExecutionResult after = exec(Language::Python, QStringLiteral("'x' in globals()"));
        QCOMPARE(after.result.value_or(QString()), QStringLiteral("False"));
        QCOMPARE(after.executionCount.value_or(-1), 1);
    }

    // Figures, not assertions on time: what a session execution costs against a fresh run.
    void requestsAndTimePerExecution()
    {
        QCOMPARE(exec(Language::Python, QStringLiteral("print(0)")).status, RunStatus::Success); // the session starts
        bool allOk = true;
        auto measure = [&](auto&& once) {
            fake().reset();
            QElapsedTimer clock;
            clock.start();
            for (int i = 0; i < 5; ++i)
                allOk = once().status == RunStatus::Success && allOk;
            return std::pair<double, double>(clock.elapsed() / 5.0, fake().requests().size() / 5.0);
        };
        const auto session = measure([&] { return exec(Language::Python, QStringLiteral("print(1)")); });
        const auto fresh = measure([&] {
            auto request = ExecutionRequest::adHoc(Language::Python, QStringLiteral("print(1)"), QStringLiteral("snippet.py"));
            return m_executors.value(providerName())->run(request);
        });
        QVERIFY(allOk);
        qInfo("%s print(1): session %.0f ms and %.1f requests per execution; fresh run %.0f ms and %.1f requests",
              qPrintable(providerName()), session.first, session.second, fresh.first, fresh.second);
    }

    void restartClearsState()
    {
        QCOMPARE(exec(Language::Python, QStringLiteral("x = 1")).status, RunStatus::Success);
        QSignalSpy ended(m_session.get(), &NotebookSession::sessionEnded);
        m_session->restart();
        QVERIFY(ended.count() == 1 || ended.wait(10000));
        QCOMPARE(liveSandboxes(), 0);
        const ExecutionResult after = exec(Language::Python, QStringLiteral("x"));
        QCOMPARE(after.status, RunStatus::Error);
        QVERIFY2(after.error && after.error->name == QLatin1String("NameError"), qPrintable(describe(after)));
        QCOMPARE(after.executionCount.value_or(-1), 1);
        QCOMPARE(fake().count(createRoute()), 2);
    }

    void deadlineRestartsTheSession()
    {
        auto executor = std::make_shared<Executor>(m_executors.value(providerName())->provider(), m_ledger.get());
        ExecutorConfig config;
        config.deadlineSeconds = 15;
        executor->setConfig(config);
        executor->setAllocations(m_allocations.get());
        {
            NotebookSession session(executor.get());
            QCOMPARE(wait(session.execute(Language::Python, QStringLiteral("x = 1"), QStringLiteral("cell"))).status, RunStatus::Success);
            const ExecutionResult late = wait(session.execute(Language::Python, QStringLiteral("import time\ntime.sleep(60)"), QStringLiteral("cell")));
            QCOMPARE(late.status, RunStatus::Timeout);
            QCOMPARE(late.costMicros, 0);
            QVERIFY2(late.stderrText.contains(QStringLiteral("its state is lost")), qPrintable(describe(late)));
            QCOMPARE(liveSandboxes(), 0); // the whole sandbox went, confirmed
            const ExecutionResult after = wait(session.execute(Language::Python, QStringLiteral("print('fresh')\n'x' in globals()"), QStringLiteral("cell")));
            QVERIFY2(after.status == RunStatus::Success, qPrintable(describe(after)));
            QCOMPARE(after.result.value_or(QString()), QStringLiteral("False"));
            QCOMPARE(after.executionCount.value_or(-1), 1);
        }
        verifyCleaned();
        QVERIFY(m_allocations->open(providerName()).isEmpty());
    }

    void backgroundProcessesGoneBeforeBilling()
    {
        const ExecutionResult started = exec(Language::Python, QStringLiteral(
            "import subprocess\nsubprocess.Popen(['sleep', '300'])\n"
            "subprocess.Popen(['sh', '-c', 'sleep 301 & exit 0'])\nprint('started')"));
        QVERIFY2(started.status == RunStatus::Success, qPrintable(describe(started)));
        QCOMPARE(started.costMicros, 50000);
        QVERIFY(started.cleanupConfirmed);
        // From inside the sandbox: no `sleep` is left, the orphaned one included.
        const ExecutionResult look = exec(Language::Python, QStringLiteral(
            "import os\nnames = []\nfor p in os.listdir('/proc'):\n    if p.isdigit():\n        try:\n"
            "            st = open('/proc/%s/stat' % p).read()\n        except OSError:\n            continue\n"
            "        if '(sleep)' in st and st.rsplit(')', 1)[1].split()[0] != 'Z':\n            names.append(p)\nlen(names)"));
        QVERIFY2(look.status == RunStatus::Success, qPrintable(describe(look)));
        QCOMPARE(look.result.value_or(QString()), QStringLiteral("0"));
    }

    void timeoutIsKeptAhead()
    {
        QCOMPARE(exec(Language::Python, QStringLiteral("x = 1")).status, RunStatus::Success);
        if (providerName() == QLatin1String("vercel")) {
            QVERIFY(fake().count(QStringLiteral("^POST /v2/sandboxes/sessions/[^/]+/extend-timeout$")) >= 1);
            // The SDK's extendTimeout: enough for the session to sit idle, from the execution's end.
            qint64 longest = 0;
            for (const auto& entry : fake().requests()) {
                const QJsonObject e = entry.toObject();
                if (e.value(QLatin1String("path")).toString().endsWith(QLatin1String("/extend-timeout")))
                    longest = std::max(longest, e.value(QLatin1String("body")).toObject().value(QLatin1String("duration")).toInteger());
            }
            QVERIFY2(longest > RemoteSessionSandbox::kIdleKeepMs - 300000, qPrintable(QString::number(longest)));
        } else {
            QVERIFY(fake().count(QStringLiteral("^POST /api/sandbox/[^/]+/autostop/32$")) == 1);
        }
    }

    void expiredSandboxIsSaidAndReplaced()
    {
        QCOMPARE(exec(Language::Python, QStringLiteral("x = 1")).status, RunStatus::Success);
        fake().expire(); // the service stops it by itself, as its clock would
        const ExecutionResult lost = exec(Language::Python, QStringLiteral("x"));
        QCOMPARE(lost.status, RunStatus::InfrastructureError);
        QCOMPARE(lost.costMicros, 0);
        QVERIFY2(lost.reason.contains(QStringLiteral("stopped by itself")) && lost.reason.contains(QStringLiteral("state is lost")),
                 qPrintable(describe(lost)));
        const ExecutionResult next = exec(Language::Python, QStringLiteral("'x' in globals()"));
        QVERIFY2(next.status == RunStatus::Success, qPrintable(describe(next)));
        QCOMPARE(next.result.value_or(QString()), QStringLiteral("False"));
        QCOMPARE(next.executionCount.value_or(-1), 1);
        QCOMPARE(fake().count(createRoute()), 2);
    }

    void idleEndDeletesTheSandbox()
    {
        m_session->setIdleSeconds(1);
        QSignalSpy ended(m_session.get(), &NotebookSession::sessionEnded);
        QCOMPARE(exec(Language::JavaScript, QStringLiteral("let y = 2;")).status, RunStatus::Success);
        QVERIFY(ended.count() == 1 || ended.wait(20000));
        QVERIFY(ended.first().first().toString().contains(QStringLiteral("idle")));
        QCOMPARE(liveSandboxes(), 0);
        verifyCleaned();
        QVERIFY(m_allocations->open(providerName()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRemoteSession)
#include "test_remote_session.moc"
