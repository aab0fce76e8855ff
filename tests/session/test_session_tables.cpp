// What a session shows of its values (issue 13) through the real Executor and the local provider:
// a window of a 10,000,000-row DataFrame fetched on demand (shape, dtypes, labels, pandas' own
// formatting; time not asserted), Series and arrays, a missing or non-table name (a clear
// error), a fetch queued behind a running execution, a value whose own code passes the fetch's
// deadline (interrupted, the session kept), JavaScript variables, and a fresh run's snapshot.
#include "ExecutionChecks.h"
#include "TempDatabase.h"

#include "core/accounting/UsageLedger.h"
#include "core/engine/Executor.h"
#include "core/providers/local/LocalProvider.h"
#include "core/run/ExecutionRequest.h"
#include "core/run/ExecutionResult.h"
#include "core/run/Run.h"
#include "core/session/NotebookSession.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

using namespace sandpad;

namespace {

QString describe(const ExecutionResult& r)
{
    return QStringLiteral("status=%1 reason=%2\nstdout=%3\nstderr=%4\nerror=%5")
        .arg(runStatusName(r.status), r.reason, r.stdoutText.left(600), r.stderrText.left(600),
             r.error ? r.error->name + u':' + r.error->value + u'\n' + r.error->traceback : QStringLiteral("-"));
}

ExecutionResult wait(Run* run) { return waitForResult(run); } // tests/support


TableRequest window(const QString& name, qint64 row = 0, int rows = 5, qint64 column = 0, int columns = 10)
{
    TableRequest r;
    r.name = name;
    r.row = row;
    r.rows = rows;
    r.column = column;
    r.columns = columns;
    return r;
}

const SessionVariable* find(const QList<SessionVariable>& variables, const QString& name)
{
    for (const SessionVariable& v : variables)
        if (v.name == name)
            return &v;
    return nullptr;
}

} // namespace

class TestSessionTables : public QObject {
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

    // Fetches and waits for the answer.
    TableWindow fetch(const TableRequest& request, qint64* elapsedMs = nullptr)
    {
        QElapsedTimer clock;
        clock.start();
        const quint64 id = m_session->fetchTable(request);
        TableWindow answer;
        bool got = false;
        QEventLoop loop;
        connect(m_session.get(), &NotebookSession::tableFetched, &loop, [&](quint64 fetched, const TableWindow& w) {
            if (fetched == id) {
                answer = w;
                got = true;
                loop.quit();
            }
        });
        QTimer::singleShot(120000, &loop, &QEventLoop::quit);
        if (!got)
            loop.exec();
        if (elapsedMs)
            *elapsedMs = clock.elapsed();
        return got ? answer : TableWindow::failed(QStringLiteral("no answer within 120 s"));
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
        config.deadlineSeconds = 120;
        config.sandbox.memoryLimitMb = 2048; // the 10 M-row frame is ~250 MB
        m_executor->setConfig(config);
        m_session = std::make_unique<NotebookSession>(m_executor.get());
    }

    void cleanupTestCase()
    {
        m_session.reset();
        m_executor.reset();
        m_ledger.reset();
        m_provider.reset();
    }

    void tenMillionRowFrameOpensAWindow()
    {
        const ExecutionResult made = exec(Language::Python, QStringLiteral(
            "import numpy as np, pandas as pd\n"
            "n = 10_000_000\n"
            "df = pd.DataFrame({'i': np.arange(n), 'x': np.arange(n) / 4, 'when': pd.Timestamp('2024-01-01')})\n"
            "df.index = df.index * 10\n"
            "s = pd.Series([1.5, None, 3.25], name='price')\n"
            "a = np.arange(12).reshape(3, 4)\n"
            "cube = np.zeros((2, 2, 2))\n"
            "words = ['not', 'a', 'table']\n"));
        QVERIFY2(made.status == RunStatus::Success, qPrintable(describe(made)));
        QTRY_VERIFY(find(m_session->variables(), QStringLiteral("df")) != nullptr);
        const QList<SessionVariable> variables = m_session->variables();
        QVERIFY(find(variables, QStringLiteral("df"))->table);
        QCOMPARE(find(variables, QStringLiteral("df"))->size, QStringLiteral("10000000 \u00d7 3"));
        QVERIFY(find(variables, QStringLiteral("s"))->table);
        QVERIFY(find(variables, QStringLiteral("a"))->table);
        QVERIFY(!find(variables, QStringLiteral("cube"))->table);
        QVERIFY(!find(variables, QStringLiteral("words"))->table);

        // A window in the middle: never the whole frame (time printed, not asserted).
        qint64 ms = 0;
        const TableWindow w = fetch(window(QStringLiteral("df"), 5'000'000, 3, 0, 10), &ms);
        qInfo("a 3-row window of the 10,000,000-row frame in %lld ms", ms);
        QVERIFY2(w.ok(), qPrintable(w.error));
        QCOMPARE(w.type, QStringLiteral("pandas.DataFrame"));
        QCOMPARE(w.totalRows, qint64(10'000'000));
        QCOMPARE(w.totalColumns, qint64(3));
        QCOMPARE(w.columns, (QStringList{QStringLiteral("i"), QStringLiteral("x"), QStringLiteral("when")}));
        QCOMPARE(w.dtypes, (QStringList{QStringLiteral("int64"), QStringLiteral("float64"), QStringLiteral("datetime64[ns]")}));
        QCOMPARE(w.index, (QStringList{QStringLiteral("50000000"), QStringLiteral("50000010"), QStringLiteral("50000020")}));
        QCOMPARE(w.cells.size(), 3);
        QCOMPARE(w.cells[0], (QStringList{QStringLiteral("5000000"), QStringLiteral("1250000.00"), QStringLiteral("2024-01-01")}));
        QCOMPARE(w.cells[1][1], QStringLiteral("1250000.25"));

        // Columns from the second, and the last rows: a short window at the end.
        const TableWindow end = fetch(window(QStringLiteral("df"), 9'999'999, 50, 1, 1));
        QVERIFY2(end.ok(), qPrintable(end.error));
        QCOMPARE(end.cells.size(), 1);
        QCOMPARE(end.columns, QStringList{QStringLiteral("x")});
        QCOMPARE(end.cells[0][0], QStringLiteral("2499999.75"));

        const TableWindow series = fetch(window(QStringLiteral("s")));
        QVERIFY2(series.ok(), qPrintable(series.error));
        QCOMPARE(series.dimensions, 1);
        QCOMPARE(series.totalRows, qint64(3));
        QCOMPARE(series.columns, QStringList{QStringLiteral("price")});
        QCOMPARE(series.cells[1][0], QStringLiteral("NaN"));

        const TableWindow array = fetch(window(QStringLiteral("a"), 1, 5, 2, 5));
        QVERIFY2(array.ok(), qPrintable(array.error));
        QCOMPARE(array.totalRows, qint64(3));
        QCOMPARE(array.totalColumns, qint64(4));
        QCOMPARE(array.cells, (QList<QStringList>{{QStringLiteral("6"), QStringLiteral("7")}, {QStringLiteral("10"), QStringLiteral("11")}}));
        QCOMPARE(array.dtypes, (QStringList{QStringLiteral("int64"), QStringLiteral("int64")}));

        // Fetches are not executions: the next execution is number 2, the state unchanged.
        const ExecutionResult next = exec(Language::Python, QStringLiteral("len(df)"));
        QCOMPARE(next.result.value_or(QString()), QStringLiteral("10000000"));
        QCOMPARE(next.executionCount.value_or(-1), 2);
    }

    void missingAndNonTableNamesSayWhy()
    {
        const TableWindow missing = fetch(window(QStringLiteral("nothing_here")));
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error.contains(QStringLiteral("no variable named 'nothing_here'")), qPrintable(missing.error));
        const TableWindow list = fetch(window(QStringLiteral("words")));
        QVERIFY2(list.error.contains(QStringLiteral("words is a list")), qPrintable(list.error));
        const TableWindow cube = fetch(window(QStringLiteral("cube")));
        QVERIFY2(cube.error.contains(QStringLiteral("3 dimensions")), qPrintable(cube.error));
        // The session goes on after each.
        QCOMPARE(exec(Language::Python, QStringLiteral("words[0]")).result.value_or(QString()), QStringLiteral("'not'"));
    }

    void aFetchWaitsForTheRunningExecution()
    {
        Run* run = m_session->execute(Language::Python, QStringLiteral(
            "import time\nprint('busy', flush=True)\ntime.sleep(2)\nlate = pd.DataFrame({'v': [7]})\n"), QStringLiteral("cell"));
        QVERIFY(waitForOutput(run, QStringLiteral("busy")));
        QVERIFY(m_session->isRunning());
        const TableWindow w = fetch(window(QStringLiteral("late"))); // asked while it runs: answered after it
        QVERIFY2(w.ok(), qPrintable(w.error));
        QCOMPARE(w.cells, QList<QStringList>{QStringList{QStringLiteral("7")}});
        QCOMPARE(wait(run).status, RunStatus::Success);
    }

    void aValueThatDoesNotAnswerIsInterrupted()
    {
        // A DataFrame subclass whose own code never ends: the fetch runs it inside the sandbox,
        // interrupts it at its deadline and says so; the session and its state stay.
        QCOMPARE(exec(Language::Python, QStringLiteral(
            "class Slow(pd.DataFrame):\n"
            "    @property\n"
            "    def iloc(self):\n"
            "        while True:\n"
            "            pass\n"
            "slow = Slow({'v': [1]})\nkeep = 'kept'\n")).status, RunStatus::Success);
        m_session->setFetchTimeoutMs(1000);
        const TableWindow w = fetch(window(QStringLiteral("slow")));
        m_session->setFetchTimeoutMs(NotebookSession::kDefaultFetchTimeoutMs);
        QVERIFY(!w.ok());
        QVERIFY2(w.error.contains(QStringLiteral("deadline")), qPrintable(w.error));
        const ExecutionResult after = exec(Language::Python, QStringLiteral("keep"));
        QCOMPARE(after.result.value_or(QString()), QStringLiteral("'kept'"));
    }

    void javascriptVariables()
    {
        const ExecutionResult r = exec(Language::JavaScript, QStringLiteral(
            "let count = 3;\nconst names = ['a', 'b'];\nvar big = new Float64Array(1000);\n"
            "function twice(n) { return 2 * n; }\nclass Point { constructor() { this.x = 1; } }\n"
            "const p = new Point();\nconst m = new Map([[1, 2]]);\nconst _hidden = 1;\n"
            "const fs = await import('node:fs');\nlet text = 'hello';\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QTRY_VERIFY(find(m_session->variables(), QStringLiteral("count")) != nullptr);
        const QList<SessionVariable> v = m_session->variables();
        QCOMPARE(find(v, QStringLiteral("count"))->type, QStringLiteral("number"));
        QCOMPARE(find(v, QStringLiteral("count"))->value, QStringLiteral("3"));
        QCOMPARE(find(v, QStringLiteral("names"))->type, QStringLiteral("Array"));
        QCOMPARE(find(v, QStringLiteral("names"))->size, QStringLiteral("2"));
        QCOMPARE(find(v, QStringLiteral("big"))->type, QStringLiteral("Float64Array"));
        QCOMPARE(find(v, QStringLiteral("big"))->memory, qint64(8000));
        QCOMPARE(find(v, QStringLiteral("twice"))->type, QStringLiteral("function"));
        QCOMPARE(find(v, QStringLiteral("Point"))->type, QStringLiteral("class"));
        QCOMPARE(find(v, QStringLiteral("p"))->type, QStringLiteral("Point"));
        QCOMPARE(find(v, QStringLiteral("m"))->size, QStringLiteral("1"));
        QCOMPARE(find(v, QStringLiteral("text"))->value, QStringLiteral("'hello'"));
        QVERIFY(!find(v, QStringLiteral("_hidden")));
        QVERIFY(!find(v, QStringLiteral("fs")));      // a module
        QVERIFY(!find(v, QStringLiteral("require"))); // the session's own globals
        QVERIFY(!find(v, QStringLiteral("module")));
        for (const SessionVariable& one : v)
            QVERIFY2(!one.table, qPrintable(one.name));
        // A later cell's change shows; a fetch of a JavaScript value says why not.
        QCOMPARE(exec(Language::JavaScript, QStringLiteral("count = 4;")).status, RunStatus::Success);
        QTRY_COMPARE(find(m_session->variables(), QStringLiteral("count"))->value, QStringLiteral("4"));
        const TableWindow w = fetch(window(QStringLiteral("names")));
        QVERIFY2(w.error.contains(QStringLiteral("JavaScript values do not open as a table")), qPrintable(w.error));
    }

    void freshRunSnapshot()
    {
        ExecutionRequest request = ExecutionRequest::adHoc(Language::Python, QStringLiteral(
            "import numpy as np\nimport os\ntotal = 42\narr = np.ones((3, 2))\ndef f():\n    pass\n_private = 1\n"),
            QStringLiteral("fresh"));
        const ExecutionResult r = wait(m_executor->start(request));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QVERIFY(!r.executionCount);
        QString error;
        const QList<SessionVariable> v = SessionVariables::parse(r.variables, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(v.size(), 2); // modules, functions and "_" names are not listed
        QCOMPARE(find(v, QStringLiteral("total"))->value, QStringLiteral("42"));
        QCOMPARE(find(v, QStringLiteral("arr"))->size, QStringLiteral("3 \u00d7 2"));
        QCOMPARE(find(v, QStringLiteral("arr"))->memory, qint64(48));
        QVERIFY(find(v, QStringLiteral("arr"))->table);
        // A run that fails still lists what it had bound.
        request = ExecutionRequest::adHoc(Language::Python, QStringLiteral("before = 'yes'\n1 / 0\n"), QStringLiteral("fresh"));
        const ExecutionResult failed = wait(m_executor->start(request));
        QCOMPARE(failed.status, RunStatus::Error);
        QCOMPARE(find(SessionVariables::parse(failed.variables), QStringLiteral("before"))->value, QStringLiteral("'yes'"));
        // JavaScript fresh runs list nothing (no snapshot there).
        const ExecutionResult js = wait(m_executor->start(ExecutionRequest::adHoc(Language::JavaScript, QStringLiteral("let q = 1;"), QStringLiteral("js"))));
        QCOMPARE(js.status, RunStatus::Success);
        QVERIFY(js.variables.isEmpty());
    }
};

QTEST_MAIN(TestSessionTables)
#include "test_session_tables.moc"
