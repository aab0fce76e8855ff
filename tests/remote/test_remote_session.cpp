// Remote notebook sessions (issue 13) through the real Executor and NotebookSession against the
// Vercel and Daytona fakes, both languages: state kept in one remote sandbox, Out[n], interrupt
// keeps state, restart clears it, the deadline restarts, processes an execution started gone
// before it is billed, the sandbox's own timeout kept ahead of it and its expiry said, the idle
// end, the session's sandbox recorded while it lives and gone (fake lists nothing) at the end;
// the state's lock never held while a sandbox ends (the GUI thread's nested event loop), table
// windows fetched through the session host (a deadline, a bad answer), the remote idle allowance
// from the idle setting, an interrupt that comes before its relay reaches the host, and an image
// without python3 (the session host's) said and run fresh.
#include "FakeProviderConfigs.h"
#include "FakeServer.h"
#include "FakeTimeouts.h"
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
#include <QTimer>

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

TableWindow waitForTable(NotebookSession& session, quint64 id)
{
    TableWindow got = TableWindow::failed(QStringLiteral("no answer in 60 s"));
    QEventLoop loop;
    QObject::connect(&session, &NotebookSession::tableFetched, &loop, [&](quint64 which, const TableWindow& window) {
        if (which == id) {
            got = window;
            loop.quit();
        }
    });
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    loop.exec();
    return got;
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
    bool vercel() const { return providerName() == QLatin1String("vercel"); }
    // The relay of an execution, as the fake logs its start.
    QString commandRoute() const
    {
        return vercel() ? QStringLiteral("^POST /v2/sandboxes/sessions/[^/]+/cmd$") : QStringLiteral("^POST /toolbox/.*/process/session/[^/]+/exec$");
    }
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
    // The next two removals of a sandbox are answered 503 "retry after 1 s": ending one takes over
    // 2 s, in the HTTP client's nested event loop.
    void slowEnd()
    {
        fake().injectFault(vercel() ? QStringLiteral("^/v2/sandboxes/[^/]+$") : QStringLiteral("^/api/sandbox/[^/]+$"), 503, 2,
                           QStringLiteral("DELETE"), 1);
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

    // The sound fix (NotebookSessionState::finish): ending a remote sandbox on the GUI thread spins
    // the HTTP client's nested event loop, where the session's own timers (the JavaScript
    // interrupt's resend) and the GUI's calls take the state's lock. Held across it, this hangs.
    void endingNeverHoldsTheLock()
    {
        QCOMPARE(exec(Language::Python, QStringLiteral("x = 1")).status, RunStatus::Success); // an idle sandbox to end
        Run* run = m_session->execute(Language::JavaScript, QStringLiteral("console.log('go'); await new Promise((r) => setTimeout(r, 60000));"),
                                      QStringLiteral("cell"));
        QVERIFY(waitForOutput(run, QStringLiteral("go")));
        slowEnd();
        int calls = 0;
        QTimer poll; // the GUI asking while the sandbox ends
        connect(&poll, &QTimer::timeout, this, [&] {
            m_session->executionCount();
            m_session->variables();
            ++calls;
        });
        poll.start(20);
        m_session->interrupt(); // the JavaScript resend is due in 300 ms: inside restart()'s HTTP
        m_session->restart();
        QVERIFY2(calls > 5, qPrintable(QString::number(calls))); // the nested loop ran them, unblocked
        const ExecutionResult stopped = wait(run);
        QVERIFY2(stopped.status == RunStatus::Cancelled, qPrintable(describe(stopped)));
        QCOMPARE(stopped.costMicros, 0);
        QTRY_COMPARE_WITH_TIMEOUT(liveSandboxes(), 0, 20000);
        // The owner goes while a resend is pending and a sandbox ends slowly.
        QCOMPARE(exec(Language::Python, QStringLiteral("x = 2")).status, RunStatus::Success);
        run = m_session->execute(Language::JavaScript, QStringLiteral("console.log('go'); await new Promise((r) => setTimeout(r, 60000));"),
                                 QStringLiteral("cell"));
        QVERIFY(waitForOutput(run, QStringLiteral("go")));
        connect(run, &Run::finished, run, &QObject::deleteLater);
        poll.stop();
        slowEnd();
        m_session->interrupt();
        m_session.reset();
        QTRY_COMPARE_WITH_TIMEOUT(liveSandboxes(), 0, 30000);
    }

    void tableWindowsThroughTheHost()
    {
        QVERIFY2(exec(Language::Python, QStringLiteral(
            "import pandas as pd\nimport numpy as np\ndf = pd.DataFrame({'a': range(5), 'b': list('vwxyz')})\n"
            "big = np.arange(3_000_000).reshape(1_000_000, 3)")).status == RunStatus::Success, "a frame made");
        TableRequest window;
        window.name = QStringLiteral("df");
        window.row = 1;
        window.rows = 2;
        TableWindow got = waitForTable(*m_session, m_session->fetchTable(window));
        QVERIFY2(got.ok(), qPrintable(got.error));
        QCOMPARE(got.type, QStringLiteral("pandas.DataFrame"));
        QCOMPARE(got.totalRows, 5);
        QCOMPARE(got.index, (QStringList{QStringLiteral("1"), QStringLiteral("2")}));
        QCOMPARE(got.cells, (QList<QStringList>{{QStringLiteral("1"), QStringLiteral("w")}, {QStringLiteral("2"), QStringLiteral("x")}}));
        // The same window limits as locally: never more than asked, however large the value.
        window.name = QStringLiteral("big");
        window.row = 999'998;
        window.rows = 100000;
        got = waitForTable(*m_session, m_session->fetchTable(window));
        QVERIFY2(got.ok(), qPrintable(got.error));
        QCOMPARE(got.totalRows, 1'000'000);
        QCOMPARE(got.cells.size(), 2);
        QCOMPARE(got.cells.last(), (QStringList{QStringLiteral("2999997"), QStringLiteral("2999998"), QStringLiteral("2999999")}));
        window.name = QStringLiteral("nope");
        got = waitForTable(*m_session, m_session->fetchTable(window));
        QVERIFY2(got.error.contains(QStringLiteral("no variable named 'nope'")), qPrintable(got.error));
        // Its own deadline: the value's code is interrupted, the session stays.
        QCOMPARE(exec(Language::Python, QStringLiteral(
            "import time\nclass Slow:\n    def __repr__(self):\n        time.sleep(30)\n        return 'late'\n"
            "slow = pd.DataFrame({'s': [Slow()]})")).status, RunStatus::Success);
        m_session->setFetchTimeoutMs(1000);
        window.name = QStringLiteral("slow");
        window.row = 0;
        QElapsedTimer clock;
        clock.start();
        got = waitForTable(*m_session, m_session->fetchTable(window));
        QVERIFY2(got.error.contains(QStringLiteral("deadline")), qPrintable(got.error));
        qInfo("a slow value's fetch ended after %lld ms (fetch timeout 1000 ms)", clock.elapsed());
        QCOMPARE(exec(Language::Python, QStringLiteral("len(df)")).result.value_or(QString()), QStringLiteral("5"));
        // A bad answer (the cell rewrites the relay to answer garbage) is a clear error.
        const ExecutionResult patched = exec(Language::Python, QStringLiteral(
            "import os\np = os.path.join(os.path.dirname(__file__), 'session_host.py')\n"
            "s = open(p).read().replace('sys.stdout.write(answer[\"fetched\"])', 'sys.stdout.write(\"not json\")')\n"
            "open(p, 'w').write(s)"));
        QVERIFY2(patched.status == RunStatus::Success, qPrintable(describe(patched)));
        window.name = QStringLiteral("df");
        got = waitForTable(*m_session, m_session->fetchTable(window));
        QVERIFY2(got.error.contains(QStringLiteral("not a JSON object")) && got.error.contains(QStringLiteral("not json")), qPrintable(got.error));
        QCOMPARE(fake().count(createRoute()), 1);
        // A JavaScript session's listing: its values do not open as a table, and it says so.
        QCOMPARE(exec(Language::JavaScript, QStringLiteral("let n = [1, 2, 3];")).status, RunStatus::Success);
        window.name = QStringLiteral("n");
        got = waitForTable(*m_session, m_session->fetchTable(window));
        QVERIFY2(got.error.contains(QStringLiteral("do not open as a table")), qPrintable(got.error));
    }

    // The sandbox's own timeout follows the idle setting (plus RemoteSessionSandbox::kIdleMarginMs).
    void idleAllowanceFollowsTheSetting_data()
    {
        QTest::addColumn<int>("idleMinutes");
        QTest::newRow("7 min") << 7;
        QTest::newRow("60 min") << 60;
    }
    void idleAllowanceFollowsTheSetting()
    {
        QFETCH(int, idleMinutes);
        m_session->setIdleSeconds(idleMinutes * 60);
        QCOMPARE(exec(Language::Python, QStringLiteral("x = 1")).status, RunStatus::Success);
        const qint64 keepMs = qint64(idleMinutes) * 60000 + RemoteSessionSandbox::kIdleMarginMs;
        if (vercel()) {
            // The create's timeout plus every extension: at least the allowance from the execution's
            // end, at most that plus the SDK-style slack of two extensions and the execution itself.
            const qint64 total = vercelTimeoutGrantedMs(fake());
            QVERIFY2(total >= keepMs && total <= keepMs + 11 * 60000,
                     qPrintable(QStringLiteral("%1 ms for an allowance of %2 ms").arg(total).arg(keepMs)));
        } else {
            const int minutes = int(keepMs / 60000);
            QCOMPARE(fake().count(QStringLiteral("^POST /api/sandbox/[^/]+/autostop/%1$").arg(minutes)), 1);
            QCOMPARE(fake().count(QStringLiteral("^POST /api/sandbox/[^/]+/autostop/")), 1);
        }
    }

    // The interrupt's relay reaches the host before the execution's (slow to start) does: the host
    // keeps it for that execution, which stops at once and keeps the state.
    void interruptBeforeTheRelayArrives()
    {
        QCOMPARE(exec(Language::Python, QStringLiteral("x = 5")).status, RunStatus::Success);
        fake().inject(QJsonObject{{QStringLiteral("options"), QJsonObject{{QStringLiteral("command_delay"), QJsonObject{
            {QStringLiteral("match"), QStringLiteral("session_host\\.py'? '?exec")}, {QStringLiteral("seconds"), 3}, {QStringLiteral("count"), 1}}}}}});
        const int relays = fake().count(commandRoute());
        Run* run = m_session->execute(Language::Python, QStringLiteral("import time\nprint('go', flush=True)\ntime.sleep(60)"), QStringLiteral("cell"));
        QVERIFY(QTest::qWaitFor([&] { return fake().count(commandRoute()) > relays; }, 20000)); // started, not there yet
        QElapsedTimer clock;
        clock.start();
        m_session->interrupt();
        const ExecutionResult stopped = wait(run);
        QVERIFY2(stopped.status == RunStatus::Cancelled, qPrintable(describe(stopped)));
        QVERIFY2(stopped.error && stopped.error->name == QLatin1String("KeyboardInterrupt"), qPrintable(describe(stopped)));
        qInfo("interrupted %lld ms after the press (the relay was 3 s late; lost, it would sleep 60 s)", clock.elapsed());
        const ExecutionResult after = exec(Language::Python, QStringLiteral("x * 2"));
        QVERIFY2(after.status == RunStatus::Success, qPrintable(describe(after)));
        QCOMPARE(after.result.value_or(QString()), QStringLiteral("10"));
        QCOMPARE(fake().count(createRoute()), 1);
    }

    // The session host is Python: a JavaScript session on an image without python3 says so at its
    // start, and the language's next cells run fresh (until a restart tries again).
    void imageWithoutPython()
    {
        fake().injectOption(QStringLiteral("no_python3"), true);
        QElapsedTimer clock;
        clock.start();
        const ExecutionResult first = exec(Language::JavaScript, QStringLiteral("let a = 1; a"));
        QCOMPARE(first.status, RunStatus::InfrastructureError);
        QCOMPARE(first.costMicros, 0);
        QVERIFY2(first.reason.contains(QStringLiteral("image has no python3; sessions on this provider need it"))
                     && first.reason.contains(QStringLiteral("JavaScript cells will run fresh")), qPrintable(describe(first)));
        qInfo("the missing python3 said after %lld ms", clock.elapsed());
        QTRY_COMPARE_WITH_TIMEOUT(liveSandboxes(), 0, 10000);
        QVERIFY(m_allocations->open(providerName()).isEmpty());
        const ExecutionResult fresh = exec(Language::JavaScript, QStringLiteral("console.log('fresh')"));
        QVERIFY2(fresh.status == RunStatus::Success, qPrintable(describe(fresh)));
        QCOMPARE(fresh.stdoutText, QStringLiteral("fresh\n"));
        QVERIFY(!fresh.executionCount); // not a session's execution
        QCOMPARE(fake().count(createRoute()), 2);
        m_session->restart(); // tried again: the image still has none
        QCOMPARE(exec(Language::JavaScript, QStringLiteral("1")).status, RunStatus::InfrastructureError);
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
            const qint64 keepMs = qint64(RemoteSessionSandbox::kDefaultIdleSeconds) * 1000 + RemoteSessionSandbox::kIdleMarginMs;
            QVERIFY2(longest > keepMs - 300000, qPrintable(QString::number(longest)));
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
