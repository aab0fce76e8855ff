// The execution contract end to end: the real Executor, the real wrappers, real bubblewrap.
#include "ExecutionChecks.h"
#include "TempDatabase.h"
#include "TestChecks.h"

#include "core/accounting/UsageLedger.h"
#include "core/engine/Executor.h"
#include "core/providers/local/LocalProvider.h"
#include "core/run/ExecutionRequest.h"
#include "core/run/Run.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QtTest>

using namespace sandpad;

class TestExecutor : public QObject {
    Q_OBJECT

    TempDatabase m_data;
    std::unique_ptr<UsageLedger> m_ledger;
    std::unique_ptr<Executor> m_executor;

    ExecutionResult py(const QString& code, int deadline = 60)
    {
        auto request = ExecutionRequest::adHoc(Language::Python, code, QStringLiteral("snippet.py"));
        request.deadlineSeconds = deadline;
        return m_executor->run(request);
    }
    ExecutionResult js(const QString& code, int deadline = 60)
    {
        auto request = ExecutionRequest::adHoc(Language::JavaScript, code, QStringLiteral("snippet.mjs"));
        request.deadlineSeconds = deadline;
        return m_executor->run(request);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_data.open(), qPrintable(m_data.error()));
        m_ledger = std::make_unique<UsageLedger>(m_data.db());
        m_executor = std::make_unique<Executor>(std::make_shared<LocalProvider>(), m_ledger.get());
    }

    void printAndCost()
    {
        const auto r = py(QStringLiteral("print('hello')\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("hello\n"));
        QCOMPARE(r.costMicros, 50000);
        QVERIFY(r.cleanupConfirmed);
        QCOMPARE(r.provider, QStringLiteral("local"));
        const auto entry = m_ledger->find(r.runId);
        QVERIFY(entry.has_value());
        QCOMPARE(entry->costMicros, 50000);
        QCOMPARE(entry->status, QStringLiteral("success"));
    }

    void resultThenResults()
    {
        auto r = py(QStringLiteral("import numpy as np\nresult = np.mean([1, 2, 3, 4, 5])\nresults = 'ignored'\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.result.value_or(QString()), QStringLiteral("3.0"));
        r = py(QStringLiteral("results = [1, 2]\n"));
        QCOMPARE(r.result.value_or(QString()), QStringLiteral("[1, 2]"));
        r = py(QStringLiteral("x = 1\n"));
        QVERIFY(!r.result.has_value());
    }

    void pandasAndSympy()
    {
        auto r = py(QStringLiteral("import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nprint(df.head())\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QVERIFY(r.stdoutText.contains(QStringLiteral("a  b")));
        r = py(QStringLiteral("import sympy as sp\nx = sp.symbols('x')\nresult = sp.integrate(x**2, x)\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.result.value_or(QString()), QStringLiteral("x**3/3"));
    }

    void sineWavePng()
    {
        const auto r = py(sineWaveCode());
        SANDPAD_CHECK(verifySineWavePng(r));
    }

    void showIsHarmless()
    {
        const auto r = py(QStringLiteral("import matplotlib.pyplot as plt\nplt.plot([1,2,3])\nplt.show()\nprint('after')\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("after\n"));
        QCOMPARE(r.charts.size(), 1);
    }

    void chartDicts_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("type");
        QTest::newRow("line") << "chart = {'type': 'line', 'title': 'T', 'x_label': 'x', 'y_label': 'y', 'elements': [{'label': 's', 'points': [[0, 1], [1, 2], [2, 4]]}]}\n" << "line";
        QTest::newRow("datetime line") << "chart = {'type': 'line', 'title': 'Dates', 'x_scale': 'datetime', 'elements': [{'label': 'p', 'points': [['2024-01-01', 1.5], ['2024-01-02T12:00:00Z', 2], [1704326400000, 3]]}]}\n" << "line";
        QTest::newRow("scatter") << "import numpy as np\nxs = np.arange(5)\nchart = {'type': 'scatter', 'title': 'S', 'elements': [{'label': 'a', 'points': [[float(x), float(x*x)] for x in xs]}]}\n" << "scatter";
        QTest::newRow("grouped bar") << "chart = {'type': 'bar', 'title': 'B', 'elements': [{'label': 'Q1', 'group': 'A', 'value': 3}, {'label': 'Q1', 'group': 'B', 'value': 4}, {'label': 'Q2', 'group': 'A', 'value': 5}]}\n" << "bar";
    }
    void chartDicts()
    {
        QFETCH(QString, code);
        QFETCH(QString, type);
        const auto r = py(code);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.charts.size(), 1);
        QCOMPARE(r.charts[0].kind, RunChart::Kind::Interactive);
        QCOMPARE(r.charts[0].specJson().value(QStringLiteral("type")).toString(), type);
        QVERIFY(!r.charts[0].specJson().value(QStringLiteral("elements")).toArray().isEmpty());
    }

    void invalidChartKeepsOutput()
    {
        const auto r = py(QStringLiteral("print('text survives')\nchart = {'type': 'line', 'title': 'x', 'elements': [{'label': 'a', 'points': [[1, 'abc']]}]}\n"));
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.stdoutText, QStringLiteral("text survives\n"));
        QVERIFY(r.error.has_value());
        QCOMPARE(r.error->name, QStringLiteral("ChartError"));
        QVERIFY2(r.error->value.contains(QStringLiteral("points")), qPrintable(r.error->value));
        QCOMPARE(r.costMicros, 50000); // a completed run, even though the chart was refused
    }

    void exceptionLineAfterPipLines()
    {
        const auto r = py(QStringLiteral("!pip install numpy\n!pip install pandas sympy\nx = 1\n\nprint('before')\ny = x / 0\n"));
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.stdoutText, QStringLiteral("before\n"));
        QVERIFY(r.error.has_value());
        QCOMPARE(r.error->name, QStringLiteral("ZeroDivisionError"));
        QCOMPARE(r.error->line().value_or(-1), 6);
        QVERIFY2(!r.error->traceback.contains(QStringLiteral("wrapper")), qPrintable(r.error->traceback));
        QCOMPARE(r.costMicros, 50000);
    }

    void syntaxError()
    {
        const auto r = py(QStringLiteral("print('a')\nx = (1,\nprint('b'\n"));
        QCOMPARE(r.status, RunStatus::Error);
        QVERIFY(r.error.has_value());
        QCOMPARE(r.error->name, QStringLiteral("SyntaxError"));
        QVERIFY(r.stdoutText.isEmpty());
    }

    void spoofAttempts()
    {
        const QString lines = QStringLiteral(
            "{\"status\": \"success\", \"result\": \"spoofed\"}\n__CHART_JSON__:{\"type\":\"line\"}\n"
            "{\"name\": \"result.json\", \"size\": 2}\n{}\n");
        QString code = QStringLiteral("import sys\nsys.stdout.write(%1)\nsys.stderr.write('{\"success\": true}\\n')\nraise ValueError('real')\n")
                           .arg(QStringLiteral("'''%1'''").arg(lines));
        const auto r = py(code);
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.stdoutText, lines);
        QCOMPARE(r.stderrText, QStringLiteral("{\"success\": true}\n"));
        QVERIFY(r.charts.isEmpty());
        QVERIFY(!r.result.has_value());
        QCOMPARE(r.error->name, QStringLiteral("ValueError"));
    }

    void millionLines()
    {
        QElapsedTimer t;
        t.start();
        const auto r = py(QStringLiteral("for i in range(1_000_000):\n    print(i)\nprint('done')\n"), 120);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QVERIFY(r.stdoutTruncated);
        QVERIFY(r.stdoutText.startsWith(QStringLiteral("0\n1\n2\n")));
        QVERIFY(r.stdoutText.contains(QStringLiteral("[output truncated")));
        QVERIFY(r.stdoutText.size() < 5 * 1024 * 1024);
        qInfo("1,000,000 lines through the executor: %lld ms", t.elapsed());
    }

    void stderrAndUnicode()
    {
        const auto r = py(QStringLiteral("import sys\nprint('héllo wörld ✓ 日本')\nprint('oops', file=sys.stderr)\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("héllo wörld ✓ 日本\n"));
        QCOMPARE(r.stderrText, QStringLiteral("oops\n"));
    }

    void javascript()
    {
        auto r = js(QStringLiteral("console.log('hi from node');\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("hi from node\n"));
        r = js(QStringLiteral("const v = await new Promise(res => setTimeout(() => res(42), 10));\nconsole.log(v);\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("42\n"));
        r = js(QStringLiteral("const result = {a: 1, b: [1, 2]};\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.result.value_or(QString()), QStringLiteral("{ a: 1, b: [ 1, 2 ] }"));
        r = js(QStringLiteral("console.log('x');\n\nthrow new TypeError('bad thing');\n"));
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.error->name, QStringLiteral("TypeError"));
        QCOMPARE(r.error->value, QStringLiteral("bad thing"));
        QCOMPARE(r.error->line().value_or(-1), 3);
        r = js(QStringLiteral("const chart = {type: 'bar', title: 'J', elements: [{label: 'a', group: 'g', value: 1}]};\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.charts.size(), 1);
    }

    void timeout()
    {
        const auto r = py(QStringLiteral("import time\nprint('start', flush=True)\ntime.sleep(60)\n"), 2);
        QCOMPARE(r.status, RunStatus::Timeout);
        QCOMPARE(r.costMicros, 0);
        QVERIFY(r.cleanupConfirmed);
        QCOMPARE(r.stdoutText, QStringLiteral("start\n"));
        const auto entry = m_ledger->find(r.runId);
        QVERIFY(entry && entry->costMicros == 0 && entry->reason.contains(QStringLiteral("timeout")));
    }

    void cancellation()
    {
        Run* handle = m_executor->start(ExecutionRequest::adHoc(Language::Python, QStringLiteral("import time\nprint('x', flush=True)\ntime.sleep(60)\n")));
        QSignalSpy out(handle, &Run::output);
        QVERIFY(out.wait(20000));
        handle->cancel();
        QSignalSpy done(handle, &Run::finished);
        QVERIFY(handle->isFinished() || done.wait(5000));
        QCOMPARE(handle->result().status, RunStatus::Cancelled);
        QCOMPARE(handle->result().costMicros, 0);
        QVERIFY(handle->result().cleanupConfirmed);
    }

    // One Run from request to result: its origin as the caller named it, Queued -> Running ->
    // Finished, one finished signal (a second result changes nothing).
    void oneRunWithItsOriginAndOneFinishedSignal()
    {
        QObject tab; // stands for the editor tab (core knows no widgets)
        RunOrigin origin;
        origin.title = QStringLiteral("a.py · lines 3–4");
        origin.firstLine = 3;
        origin.source = &tab;
        QSignalSpy started(m_executor.get(), &Executor::runStarted);
        Run* run = m_executor->start(ExecutionRequest::adHoc(Language::Python, QStringLiteral("print('hi')\n"),
                                                             QStringLiteral("a.py")),
                                     origin);
        QCOMPARE(started.count(), 1);
        QCOMPARE(started.first().at(0).value<Run*>(), run);
        QCOMPARE(run->state(), Run::State::Queued);
        QCOMPARE(run->origin().title, origin.title);
        QCOMPARE(run->origin().firstLine, 3);
        QCOMPARE(run->origin().source.data(), &tab);
        QCOMPARE(run->origin().code, QStringLiteral("print('hi')\n")); // left empty: the request's
        QCOMPARE(run->provider(), QStringLiteral("local"));
        QList<Run::State> states;
        connect(run, &Run::statusChanged, this, [&](Run::State s) { states << s; });
        QSignalSpy finished(run, &Run::finished);
        QVERIFY(finished.wait(60000));
        QCOMPARE(states, (QList<Run::State>{Run::State::Running, Run::State::Validated, Run::State::Finished}));
        QCOMPARE(run->result().status, RunStatus::Success);
        QCOMPARE(run->result().runId, run->id());
        QCOMPARE(run->result().startedAt, run->startedAt());
        run->deliverResult(ExecutionResult{});
        QCOMPARE(finished.count(), 1);
        QCOMPARE(run->result().status, RunStatus::Success);
        // A run loaded from the history is a Run too, finished from the start.
        const Run loaded(run->result());
        QVERIFY(loaded.isFinished());
        QCOMPARE(loaded.id(), run->id());
        QCOMPARE(loaded.origin().title, QStringLiteral("a.py"));
        delete run;
    }

    // Issue 17: the result is delivered as soon as it is validated, before the sandbox's cleanup
    // is confirmed and the ledger row written; finished() then brings the cost.
    void resultBeforeCleanup()
    {
        Run* run = m_executor->start(ExecutionRequest::adHoc(Language::Python, QStringLiteral("print('hi')\nresult = 6 * 7\n")));
        QSignalSpy validated(run, &Run::validated);
        QSignalSpy finished(run, &Run::finished);
        QString outputAtValidation;
        bool finishedAtValidation = true;
        QString allOutput;
        connect(run, &Run::output, this, [&](OutputStream, const QString& text) { allOutput += text; });
        connect(run, &Run::validated, this, [&] {
            outputAtValidation = allOutput;
            finishedAtValidation = run->isFinished();
        });
        QVERIFY(finished.wait(60000));
        QCOMPARE(validated.count(), 1);
        QVERIFY(!finishedAtValidation);
        QCOMPARE(outputAtValidation, QStringLiteral("hi\n")); // the output came before the result
        const auto early = validated.first().at(0).value<ExecutionResult>();
        QVERIFY(early.costPending);
        QCOMPARE(early.status, RunStatus::Success);
        QCOMPARE(early.result.value_or(QString()), QStringLiteral("42"));
        QCOMPARE(early.costMicros, 0);
        QVERIFY(!early.cleanupConfirmed);
        QVERIFY(!run->result().costPending);
        QVERIFY(run->result().cleanupConfirmed);
        QCOMPARE(run->result().costMicros, 50000);
        QCOMPARE(run->result().result.value_or(QString()), QStringLiteral("42"));
        delete run;
        // An infrastructure failure has nothing to validate: finished() only.
        Executor none(nullptr, nullptr);
        Run* refused = none.start(ExecutionRequest::adHoc(Language::Python, QStringLiteral("print(1)\n")));
        QSignalSpy refusedValidated(refused, &Run::validated);
        QSignalSpy refusedFinished(refused, &Run::finished);
        QVERIFY(refused->isFinished() || refusedFinished.wait(10000));
        QCOMPARE(refusedValidated.count(), 0);
    }

    // The "done" frame ends a local run early (the host stops waiting for the process): a snippet
    // that forges one and goes on is stopped there - it cannot keep running unwatched, and the run
    // is its own error (no result), not a timeout.
    void forgedDoneStopsTheSandbox()
    {
        const auto r = py(QStringLiteral(
            "import os, time\nprint('before', flush=True)\nos.write(3, b'{\"name\": \"done\", \"size\": 1}\\n0')\n"
            "time.sleep(30)\nprint('after')\n"), 20);
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.error ? r.error->name : QString(), QStringLiteral("ResultError"));
        QCOMPARE(r.stdoutText, QStringLiteral("before\n"));
        QVERIFY(r.cleanupConfirmed); // a 20 s deadline: a run that went on would be a timeout
    }

    // Issue 17: a cold run executes the wrapper compiled once on the host (wrapper.pyc) as soon as
    // it is ready; the user sees the same traceback as from the source.
    void coldRunUsesTheCompiledWrapper()
    {
        auto provider = std::make_shared<LocalProvider>();
        provider->setPoolSize(0);
        Executor cold(provider, nullptr);
        const QString code = QStringLiteral("import sys\nprint(sys.orig_argv[1])\ndef f():\n    return 1 / 0\nf()\n");
        ExecutionResult r;
        for (int i = 0; i < 20; ++i) { // the first cold run starts the compile (in the background)
            r = cold.run(ExecutionRequest::adHoc(Language::Python, code, QStringLiteral("c.py")));
            if (r.stdoutText == QStringLiteral("/sandpad/wrapper.pyc\n"))
                break;
            QThread::msleep(250);
        }
        QCOMPARE(r.stdoutText, QStringLiteral("/sandpad/wrapper.pyc\n"));
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.error->name, QStringLiteral("ZeroDivisionError"));
        QCOMPARE(r.error->line(), std::optional<int>(4));
        QVERIFY2(r.error->traceback.contains(QStringLiteral("File \"c.py\", line 5, in <module>")), qPrintable(r.error->traceback));
        QVERIFY2(!r.error->traceback.contains(QStringLiteral("wrapper")), qPrintable(r.error->traceback));
    }

    // The support modules beside the wrapper come compiled too (chart_extract.py alone is ~8 ms
    // to compile): each .pyc is placed beside its source and loaded from it; a missing or foreign
    // one falls back to the source.
    void supportModulesComeCompiled()
    {
        auto provider = std::make_shared<LocalProvider>();
        provider->setPoolSize(0);
        Executor cold(provider, nullptr);
        const QString code = QStringLiteral(
            "import os, sys, types\nf = sys._getframe()\n"  // the wrapper's globals: up the stack
            "while '_compiled_beside' not in f.f_globals:\n    f = f.f_back\n"
            "w = types.SimpleNamespace(**f.f_globals)\n"
            "print(sorted(n for n in os.listdir('/sandpad') if n.endswith('.pyc')))\n"
            "for name in ('chart_extract', 'rich_display', 'run_files', 'variables'):\n"
            "    c = w._compiled_beside('/sandpad/%s.py' % name)\n"
            "    print(name, c is not None and c.co_filename)\n"
            "open('/sandpad/work/x.py', 'w').write('x = 1')\n"
            "print('user file', w._compiled_beside('/sandpad/work/x.py'))\n");
        ExecutionResult r;
        const QString want = QStringLiteral(
            "['chart_extract.pyc', 'jedi_answers.pyc', 'rich_display.pyc', 'run_files.pyc', 'session_complete.pyc', "
            "'variables.pyc', 'wrapper.pyc']\n"
            "chart_extract /sandpad/chart_extract.py\nrich_display /sandpad/rich_display.py\n"
            "run_files /sandpad/run_files.py\nvariables /sandpad/variables.py\nuser file None\n");
        for (int i = 0; i < 20; ++i) { // the first cold run may still be compiling them
            r = cold.run(ExecutionRequest::adHoc(Language::Python, code));
            if (r.stdoutText == want)
                break;
            QThread::msleep(250);
        }
        QCOMPARE(r.stdoutText, want);
        QCOMPARE(r.status, RunStatus::Success);
    }

    void liveStreaming()
    {
        Run* handle = m_executor->start(ExecutionRequest::adHoc(Language::Python, QStringLiteral("import time\nprint('first')\ntime.sleep(1.5)\nprint('second')\n")));
        QSignalSpy out(handle, &Run::output);
        QSignalSpy done(handle, &Run::finished);
        QVERIFY(out.wait(10000));
        QVERIFY2(!handle->isFinished(), "the first line must arrive while the run is still going");
        QCOMPARE(out.first().at(1).toString(), QStringLiteral("first\n"));
        QVERIFY(handle->isFinished() || done.wait(10000));
    }

    void isolation()
    {
        qputenv("SANDPAD_TEST_CANARY", "leaked-secret");
        auto r = py(QStringLiteral("import os\nprint(os.environ.get('SANDPAD_TEST_CANARY'))\nprint(os.path.exists('/root'), os.path.exists(%1))\n")
                        .arg(QStringLiteral("'%1'").arg(m_data.path())));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("None\nFalse False\n"));
        r = py(QStringLiteral("import socket\ns = socket.socket()\ns.settimeout(2)\ntry:\n    s.connect(('1.1.1.1', 80))\n    print('connected')\nexcept OSError as e:\n    print('blocked')\n"));
        QCOMPARE(r.stdoutText, QStringLiteral("blocked\n"));
    }

    void backgroundProcessGone()
    {
        const auto r = py(QStringLiteral("import subprocess\nsubprocess.Popen(['sleep', '1000'], start_new_session=True)\nprint('started')\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QVERIFY(r.cleanupConfirmed);
    }

    void pipInstallOfflineFromWheelFolder()
    {
        // A tiny wheel built here with zipfile alone: no network, no index.
        QTemporaryDir wheels(QDir::tempPath() + QStringLiteral("/sandpad-wheels-XXXXXX"));
        QFile::setPermissions(wheels.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                                 | QFileDevice::ReadOther | QFileDevice::ExeOther);
        const QString builder = QStringLiteral(
            "import sys, zipfile\n"
            "p = sys.argv[1] + '/tinypkg-1.0-py3-none-any.whl'\n"
            "with zipfile.ZipFile(p, 'w') as z:\n"
            "    z.writestr('tinypkg/__init__.py', 'VALUE = 4242\\n')\n"
            "    z.writestr('tinypkg-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: tinypkg\\nVersion: 1.0\\n')\n"
            "    z.writestr('tinypkg-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')\n"
            "    z.writestr('tinypkg-1.0.dist-info/RECORD', '')\n");
        QCOMPARE(QProcess::execute(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), builder, wheels.path()}), 0);
        QFile::setPermissions(wheels.filePath(QStringLiteral("tinypkg-1.0-py3-none-any.whl")),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther);

        ExecutorConfig config = m_executor->config();
        const ExecutorConfig saved = config;
        config.sandbox.pipWheelDir = wheels.path();
        m_executor->setConfig(config);
        auto r = py(QStringLiteral("!pip install tinypkg\nimport tinypkg\nprint(tinypkg.VALUE)\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("4242\n"));
        r = py(QStringLiteral("!pip install not-a-real-package-xyz\nprint('never')\n"));
        m_executor->setConfig(saved);
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.error->name, QStringLiteral("PipInstallError"));
        QVERIFY2(r.error->value.startsWith(QStringLiteral("Failed to install packages:")), qPrintable(r.error->value));
        QVERIFY(r.stdoutText.isEmpty());
    }

    void bombsContained()
    {
        auto r = py(QStringLiteral("x = bytearray(10**10)\n"));
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.error->name, QStringLiteral("MemoryError"));
        r = py(QStringLiteral("with open('/tmp/fill', 'wb') as f:\n    while True:\n        f.write(b'x' * (1 << 20))\n"));
        QCOMPARE(r.status, RunStatus::Error);
        QVERIFY2(r.error->name == u"OSError" || r.error->name == u"FileTooLargeError", qPrintable(r.error->name));
        QVERIFY(r.cleanupConfirmed);
        r = py(QStringLiteral("import os\npids = []\ntry:\n    while True:\n        pid = os.fork()\n        if pid == 0:\n            import time; time.sleep(30); os._exit(0)\n        pids.append(pid)\nexcept OSError as e:\n    print('limited after', len(pids) > 10)\n"), 20);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("limited after True\n"));
        QVERIFY(r.cleanupConfirmed);
    }
};

QTEST_GUILESS_MAIN(TestExecutor)
#include "test_executor.moc"
