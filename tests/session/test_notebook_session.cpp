// Notebook sessions (issue 13) through the real Executor and the local provider, both languages:
// state kept, Out[n], interrupt keeps state, a second interrupt and the deadline restart, restart
// clears, idle end, processes an execution started gone before it is billed, the session's end
// recorded, nothing left when its owner goes, and a provider without sessions running fresh.
#include "ExecutionChecks.h"
#include "FakeSandboxProvider.h"
#include "ProcessChecks.h"
#include "TempDatabase.h"

#include "core/accounting/UsageLedger.h"
#include "core/engine/Executor.h"
#include "core/providers/local/LocalProvider.h"
#include "core/run/ExecutionResult.h"
#include "core/run/Run.h"
#include "core/session/NotebookSession.h"

#include <QDir>
#include <QMap>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace sandpad;

namespace {

QString describe(const ExecutionResult& r)
{
    return QStringLiteral("status=%1 reason=%2 result=%3\nstdout=%4\nstderr=%5\nerror=%6")
        .arg(runStatusName(r.status), r.reason, r.result.value_or(QStringLiteral("<none>")), r.stdoutText.left(600),
             r.stderrText.left(600),
             r.error ? r.error->name + u':' + r.error->value + u'\n' + r.error->traceback : QStringLiteral("-"));
}

// Waits for a run's result (a local loop: the run reports on this thread).
ExecutionResult wait(Run* run) { return waitForResult(run); } // tests/support


// Live host processes whose name (/proc/PID/comm) is `name`.
int processesNamed(const QByteArray& name)
{
    int count = 0;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool ok = false;
        const int pid = entry.toInt(&ok);
        if (ok && readProcFile(pid, "comm").trimmed() == name && !readProcFile(pid, "stat").contains(") Z"))
            ++count;
    }
    return count;
}

} // namespace

class TestNotebookSession : public QObject {
    Q_OBJECT

private:
    TempDatabase m_data;
    std::shared_ptr<LocalProvider> m_provider;
    std::unique_ptr<UsageLedger> m_ledger;
    std::unique_ptr<Executor> m_executor;
    std::unique_ptr<NotebookSession> m_session;

    ExecutionResult exec(Language language, const QString& code)
    {
        return wait(m_session->execute(language, code, QStringLiteral("cell")));
    }

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty())
            QSKIP("bubblewrap is not installed");
        QVERIFY2(m_data.open(), qPrintable(m_data.error()));
        m_provider = std::make_shared<LocalProvider>();
        m_provider->setPoolSize(0);
        m_ledger = std::make_unique<UsageLedger>(m_data.db());
        m_executor = std::make_unique<Executor>(m_provider, m_ledger.get());
        ExecutorConfig config;
        config.deadlineSeconds = 60;
        m_executor->setConfig(config);
    }

    void init() { m_session = std::make_unique<NotebookSession>(m_executor.get()); }
    void cleanup() { m_session.reset(); }
    void cleanupTestCase()
    {
        m_session.reset();
        m_executor.reset();
        m_ledger.reset();
        m_provider.reset();
    }

    void stateIsKept_data()
    {
        QTest::addColumn<Language>("language");
        QTest::addColumn<QString>("define");
        QTest::addColumn<QString>("use");
        QTest::newRow("python") << Language::Python << QStringLiteral("x = 41\ndef f(): return x + 1")
                                << QStringLiteral("print(f())\nx");
        QTest::newRow("javascript") << Language::JavaScript << QStringLiteral("let x = 41; const f = () => x + 1;")
                                    << QStringLiteral("console.log(f()); x");
    }
    void stateIsKept()
    {
        QFETCH(Language, language);
        QFETCH(QString, define);
        QFETCH(QString, use);
        const int rowsBefore = m_ledger->entries().size();
        const ExecutionResult first = exec(language, define);
        QVERIFY2(first.status == RunStatus::Success, qPrintable(describe(first)));
        QCOMPARE(first.executionCount.value_or(-1), 1);
        QVERIFY(!first.result); // a definition shows nothing
        const ExecutionResult second = exec(language, use);
        QVERIFY2(second.status == RunStatus::Success, qPrintable(describe(second)));
        QCOMPARE(second.stdoutText, QStringLiteral("42\n"));
        QCOMPARE(second.result.value_or(QString()), QStringLiteral("41")); // Out[2]: the bare last expression
        QCOMPARE(second.executionCount.value_or(-1), 2);
        QCOMPARE(second.costMicros, kCompletedRunCostMicros);
        QVERIFY(second.cleanupConfirmed);
        QCOMPARE(m_ledger->entries().size(), rowsBefore + 2); // one row per execution
    }

    void javascriptRerunsDeclarationsAndAwaits()
    {
        QVERIFY(exec(Language::JavaScript, QStringLiteral("const a = 1;")).status == RunStatus::Success);
        const ExecutionResult again = exec(Language::JavaScript, QStringLiteral("const a = 2;\nawait new Promise((r) => setTimeout(r, 5));\na * 10"));
        QVERIFY2(again.status == RunStatus::Success, qPrintable(describe(again)));
        QCOMPARE(again.result.value_or(QString()), QStringLiteral("20"));
        const ExecutionResult imported = exec(Language::JavaScript, QStringLiteral("import path from \"node:path\";\nimport { sep } from \"node:path\";\npath.join(\"a\", \"b\") + sep"));
        QVERIFY2(imported.status == RunStatus::Success, qPrintable(describe(imported)));
        QCOMPARE(imported.result.value_or(QString()), QStringLiteral("'a/b/'"));
        const ExecutionResult later = exec(Language::JavaScript, QStringLiteral("typeof path.join"));
        QCOMPARE(later.result.value_or(QString()), QStringLiteral("'function'"));
        const ExecutionResult declared = exec(Language::JavaScript, QStringLiteral("const result = 2 ** 10\n"));
        QCOMPARE(declared.result.value_or(QString()), QStringLiteral("1024"));
        QVERIFY(!exec(Language::JavaScript, QStringLiteral("const other = 1;")).result); // not shown again
        const ExecutionResult thrown = exec(Language::JavaScript, QStringLiteral("\n\nnull.foo"));
        QCOMPARE(thrown.status, RunStatus::Error);
        QVERIFY2(thrown.error->traceback.contains(QStringLiteral("cell:3")), qPrintable(describe(thrown)));
    }

    // Cells are sloppy and have node's CommonJS names; a cell with a top-level `return` runs as a
    // function body (the session's bindings visible, its own declarations local, the value its Out).
    void javascriptSloppyCellsAndReturn()
    {
        ExecutionResult r = exec(Language::JavaScript, QStringLiteral(
            "g = 5;\nconsole.log(delete g, typeof g, typeof require, typeof module, exports === module.exports, __filename, __dirname);\n"
            "const frozen = Object.freeze({ a: 1 });\nfrozen.a = 2;\nconsole.log(frozen.a, require('node:path').sep);\n"
            "let base = 40;\nconsole.log(new Error('x').stack);"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("true undefined function object true /sandpad/cell /sandpad\n1 /\nError: x\n    at cell:7:13\n"));
        r = exec(Language::JavaScript, QStringLiteral("let local = await Promise.resolve(2);\nif (local)\n  return base + local;\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QCOMPARE(r.result.value_or(QString()), QStringLiteral("42"));
        QCOMPARE(exec(Language::JavaScript, QStringLiteral("typeof local")).result.value_or(QString()), QStringLiteral("'undefined'"));
        r = exec(Language::JavaScript, QStringLiteral("return 'text';"));
        QCOMPARE(r.result.value_or(QString()), QStringLiteral("text"));
        r = exec(Language::JavaScript, QStringLiteral("if (base)\n  return null.x;"));
        QCOMPARE(r.status, RunStatus::Error);
        QVERIFY2(r.error->traceback.contains(QStringLiteral("(cell:2:15)")) || r.error->traceback.contains(QStringLiteral("cell:2:15")), qPrintable(describe(r)));
        QVERIFY2(!r.error->traceback.contains(QStringLiteral("session.mjs")) && !r.error->traceback.contains(QStringLiteral("js_program")),
                 qPrintable(describe(r)));
        // A title with a space: stacks name it as it is; a SyntaxError thrown at run time is an error like any other.
        r = wait(m_session->execute(Language::JavaScript, QStringLiteral("console.log(new Error('t').stack);\nJSON.parse('{');"),
                                    QStringLiteral("Untitled 1")));
        QCOMPARE(r.error->name, QStringLiteral("SyntaxError"));
        QVERIFY2(r.stdoutText.startsWith(QStringLiteral("Error: t\n    at Untitled 1:1:13\n")), qPrintable(describe(r)));
        QVERIFY2(r.error->traceback.contains(QStringLiteral("at JSON.parse (<anonymous>)\n    at Untitled 1:2:6")), qPrintable(describe(r)));
        r = exec(Language::JavaScript, QStringLiteral("let = ;"));
        QCOMPARE(r.error->name, QStringLiteral("SyntaxError"));
        QVERIFY2(r.error->traceback.startsWith(QStringLiteral("cell:1:7\nlet = ;\n      ^\n")), qPrintable(describe(r)));
    }

    void resultWinsAndFiguresBelongToTheirCell()
    {
        ExecutionResult r = exec(Language::Python, QStringLiteral("result = 'mine'\n7"));
        QCOMPARE(r.result.value_or(QString()), QStringLiteral("mine"));
        r = exec(Language::Python, QStringLiteral("8")); // result of an earlier cell is not shown again
        QCOMPARE(r.result.value_or(QString()), QStringLiteral("8"));
        r = exec(Language::Python, QStringLiteral("import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nchart = {'type': 'bar', 'elements': [{'label': 'a', 'value': 1}]}"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QCOMPARE(r.charts.size(), 2);
        r = exec(Language::Python, QStringLiteral("print('no figure')"));
        QCOMPARE(r.charts.size(), 0);
        r = exec(Language::Python, QStringLiteral("\n\n1/0"));
        QCOMPARE(r.status, RunStatus::Error);
        QVERIFY2(r.error->traceback.contains(QStringLiteral("line 3")), qPrintable(describe(r)));
    }

    void interruptKeepsState_data()
    {
        QTest::addColumn<Language>("language");
        QTest::addColumn<QString>("set");
        QTest::addColumn<QString>("wait");
        QTest::addColumn<QString>("check");
        QTest::newRow("python") << Language::Python << QStringLiteral("x = 1")
                                << QStringLiteral("import time\nx = 2\nprint('ready', flush=True)\ntime.sleep(120)")
                                << QStringLiteral("x");
        QTest::newRow("javascript") << Language::JavaScript << QStringLiteral("let x = 1;")
                                    << QStringLiteral("x = 2;\nconsole.log('ready');\nawait new Promise((r) => setTimeout(r, 120000));")
                                    << QStringLiteral("x");
        // A synchronous busy loop too: the first interrupt terminates it, the context stays.
        QTest::newRow("javascript busy loop") << Language::JavaScript << QStringLiteral("let x = 1;")
                                              << QStringLiteral("x = 2;\nconsole.log('ready');\nwhile (true) {}")
                                              << QStringLiteral("x");
    }
    void interruptKeepsState()
    {
        QFETCH(Language, language);
        QFETCH(QString, set);
        QFETCH(QString, wait);
        QFETCH(QString, check);
        QVERIFY(exec(language, set).status == RunStatus::Success);
        QSignalSpy ended(m_session.get(), &NotebookSession::sessionEnded);
        Run* run = m_session->execute(language, wait, QStringLiteral("cell"));
        QVERIFY(waitForOutput(run, QStringLiteral("ready")));
        m_session->interrupt();
        const ExecutionResult interrupted = ::wait(run);
        QVERIFY2(interrupted.status == RunStatus::Cancelled, qPrintable(describe(interrupted)));
        QCOMPARE(interrupted.costMicros, 0);
        QVERIFY(interrupted.error && interrupted.error->name == QStringLiteral("KeyboardInterrupt"));
        const ExecutionResult after = exec(language, check);
        QVERIFY2(after.status == RunStatus::Success, qPrintable(describe(after)));
        QCOMPARE(after.result.value_or(QString()), QStringLiteral("2"));
        QCOMPARE(after.executionCount.value_or(-1), 3);
        QCOMPARE(ended.size(), 0);
    }

    void secondInterruptRestarts_data()
    {
        QTest::addColumn<Language>("language");
        QTest::addColumn<QString>("stubborn");
        QTest::addColumn<QString>("check");
        QTest::newRow("python") << Language::Python
                                << QStringLiteral("import signal\nkept = 1\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nprint('ready', flush=True)\nwhile True: pass")
                                << QStringLiteral("'kept' in globals()");
        // A busy loop in a timer, outside the evaluation: only a restart stops it.
        QTest::newRow("javascript") << Language::JavaScript
                                    << QStringLiteral("var kept = 1; setTimeout(() => { console.log('ready'); while (true) {} }, 0);\n"
                                                      "await new Promise(() => {});")
                                    << QStringLiteral("typeof kept !== 'undefined'");
    }
    void secondInterruptRestarts()
    {
        QFETCH(Language, language);
        QFETCH(QString, stubborn);
        QFETCH(QString, check);
        QSignalSpy ended(m_session.get(), &NotebookSession::sessionEnded);
        Run* run = m_session->execute(language, stubborn, QStringLiteral("cell"));
        QVERIFY(waitForOutput(run, QStringLiteral("ready")));
        m_session->interrupt();
        m_session->interrupt();
        const ExecutionResult r = wait(run);
        QVERIFY2(r.status == RunStatus::Cancelled, qPrintable(describe(r)));
        QCOMPARE(r.costMicros, 0);
        QVERIFY2(r.stderrText.contains(QStringLiteral("the session was restarted")), qPrintable(describe(r)));
        QVERIFY(ended.wait(10000) || ended.size() == 1);
        const ExecutionResult after = exec(language, check);
        QCOMPARE(after.result.value_or(QString()), language == Language::Python ? QStringLiteral("False") : QStringLiteral("false"));
        QCOMPARE(after.executionCount.value_or(-1), 1); // a fresh session
    }

    void restartClearsAndIsRecorded()
    {
        QVERIFY(exec(Language::Python, QStringLiteral("x = 1")).status == RunStatus::Success);
        m_session->restart();
        const ExecutionResult r = exec(Language::Python, QStringLiteral("'x' in globals()"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QCOMPARE(r.result.value_or(QString()), QStringLiteral("False"));
        QCOMPARE(r.executionCount.value_or(-1), 1);
        bool recorded = false;
        for (const UsageEntry& e : m_ledger->entries())
            recorded = recorded || (e.source == QStringLiteral("session") && e.costMicros == 0 &&
                                    e.reason == QStringLiteral("session ended (restarted); cleanup confirmed"));
        QVERIFY(recorded);
    }

    void deadlineRestarts()
    {
        ExecutorConfig config = m_executor->config();
        config.deadlineSeconds = 2;
        m_executor->setConfig(config);
        QVERIFY(exec(Language::Python, QStringLiteral("x = 1")).status == RunStatus::Success);
        const ExecutionResult r = exec(Language::Python, QStringLiteral("import time\ntime.sleep(60)"));
        config.deadlineSeconds = 60;
        m_executor->setConfig(config);
        QVERIFY2(r.status == RunStatus::Timeout, qPrintable(describe(r)));
        QCOMPARE(r.costMicros, 0);
        QVERIFY2(r.reason.contains(QStringLiteral("the session was restarted (the execution passed its deadline)")), qPrintable(r.reason));
        const ExecutionResult after = exec(Language::Python, QStringLiteral("'x' in globals()"));
        QCOMPARE(after.result.value_or(QString()), QStringLiteral("False"));
    }

    void idleEnd()
    {
        m_session->setIdleSeconds(1);
        QSignalSpy ended(m_session.get(), &NotebookSession::sessionEnded);
        QVERIFY(exec(Language::Python, QStringLiteral("x = 1")).status == RunStatus::Success);
        QVERIFY(ended.wait(30000));
        QCOMPARE(ended.first().first().toString(), QStringLiteral("idle for 1 s"));
        const ExecutionResult after = exec(Language::Python, QStringLiteral("'x' in globals()"));
        QCOMPARE(after.result.value_or(QString()), QStringLiteral("False"));
    }

    void processesOfAnExecutionAreGoneBeforeItIsBilled_data()
    {
        QTest::addColumn<Language>("language");
        QTest::addColumn<QString>("code");
        QTest::newRow("python") << Language::Python
                                << QStringLiteral("import os, subprocess\np = subprocess.Popen(['sleep', '3131'])\n"
                                                  "os.system('(setsid sleep 3132 &)')\nprint('started')");
        QTest::newRow("javascript") << Language::JavaScript
                                    << QStringLiteral("const { spawn, execSync } = require('node:child_process');\n"
                                                      "spawn('sleep', ['3133'], { detached: true, stdio: 'ignore' }).unref();\n"
                                                      "execSync('(setsid sleep 3134 &)', { stdio: 'ignore' });\nconsole.log('started');");
    }
    void processesOfAnExecutionAreGoneBeforeItIsBilled()
    {
        QFETCH(Language, language);
        QFETCH(QString, code);
        const ExecutionResult r = exec(language, code);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("started\n"));
        QVERIFY(r.cleanupConfirmed);
        QCOMPARE(r.costMicros, kCompletedRunCostMicros);
        // Gone by the time the run is finished (killed and confirmed before it was billed).
        for (const char* needle : {"sleep 3131", "sleep 3132", "sleep 3133", "sleep 3134"})
            QVERIFY2(hostProcessesWith(needle) == 0, needle);
        // ...and the session goes on.
        const ExecutionResult after = exec(language, QStringLiteral("1 + 1"));
        QCOMPARE(after.result.value_or(QString()), QStringLiteral("2"));
    }

    void nothingOutlivesTheOwner()
    {
        // The interpreters name themselves, so the host can find exactly these two.
        QVERIFY(exec(Language::Python, QStringLiteral("import ctypes\nctypes.CDLL(None).prctl(15, b'sessmarkpy', 0, 0, 0)")).status == RunStatus::Success);
        QVERIFY(exec(Language::JavaScript, QStringLiteral("process.title = 'sessmarkjs';")).status == RunStatus::Success);
        QCOMPARE(processesNamed("sessmarkpy"), 1);
        QCOMPARE(hostProcessesWith("sessmarkjs"), 1);
        const int rows = m_ledger->entries().size();
        m_session.reset();
        QCOMPARE(processesNamed("sessmarkpy"), 0);
        QCOMPARE(hostProcessesWith("sessmarkjs"), 0);
        QCOMPARE(m_ledger->entries().size(), rows + 2); // each sandbox's end, at $0
        for (const UsageEntry& e : m_ledger->entries().mid(0, 2)) {
            QCOMPARE(e.source, QStringLiteral("session"));
            QCOMPARE(e.costMicros, 0);
            QVERIFY2(e.reason.contains(QStringLiteral("ended by its owner")), qPrintable(e.reason));
        }
    }

    void variablesAreListed()
    {
        QSignalSpy changed(m_session.get(), &NotebookSession::variablesChanged);
        const ExecutionResult r = exec(Language::Python, QStringLiteral(
            "import numpy as np, pandas as pd\nx = 41\nname = 'abc'\na = np.zeros((3, 4))\n"
            "frame = pd.DataFrame({'v': range(10)})\nbig = list(range(10**6))\ndef f(): pass\n_hidden = 1"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QVERIFY(changed.wait(10000) || changed.size() > 0);
        QMap<QString, SessionVariable> byName;
        for (const SessionVariable& v : m_session->variables())
            byName.insert(v.name, v);
        QCOMPARE(byName.keys(), (QStringList{QStringLiteral("a"), QStringLiteral("big"), QStringLiteral("frame"),
                                             QStringLiteral("name"), QStringLiteral("x")})); // no np, pd, f, _hidden
        QCOMPARE(byName[QStringLiteral("x")].type, QStringLiteral("int"));
        QCOMPARE(byName[QStringLiteral("x")].value, QStringLiteral("41"));
        QCOMPARE(byName[QStringLiteral("a")].type, QStringLiteral("numpy.ndarray"));
        QCOMPARE(byName[QStringLiteral("a")].size, QStringLiteral("3 \u00d7 4"));
        QCOMPARE(byName[QStringLiteral("a")].memory, 96);
        QCOMPARE(byName[QStringLiteral("frame")].type, QStringLiteral("pandas.DataFrame"));
        QCOMPARE(byName[QStringLiteral("frame")].size, QStringLiteral("10 \u00d7 1"));
        QCOMPARE(byName[QStringLiteral("big")].size, QStringLiteral("1000000"));
        QVERIFY(byName[QStringLiteral("big")].value.size() < 120); // never the whole value
        m_session->restart();
        QTRY_VERIFY(m_session->variables().isEmpty());
    }

    void providerWithoutSessionsRunsFresh()
    {
        auto fake = std::make_shared<FakeSandboxProvider>();
        Executor executor(fake, nullptr);
        NotebookSession session(&executor);
        QVERIFY(!session.sessionsSupported());
        const ExecutionResult r = wait(session.execute(Language::Python, QStringLiteral("x = 1"), QStringLiteral("cell")));
        QCOMPARE(r.status, RunStatus::Success);
        QVERIFY(!r.executionCount);
    }
};

QTEST_MAIN(TestNotebookSession)
#include "test_notebook_session.moc"
