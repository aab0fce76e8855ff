// Pre-started (pooled) local sandboxes: every acceptance-style case runs cold and pooled through
// the real Executor and the results must be identical; plus eligibility, limits, isolation between
// runs, pool control and that nothing is left after the provider is gone.
#include "ExecutionChecks.h"
#include "LocalRunFixture.h"
#include "ProcessChecks.h"

#include "core/providers/local/SandboxPool.h"
#include "core/sandbox/RunControl.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace sandpad;

namespace {

struct Case {
    const char* name;
    Language language;
    QString code;
    int deadlineSeconds = 60;
};

} // namespace

class TestSandboxPool : public QObject {
    Q_OBJECT

private:
    LocalRunFixture m_local;

    ExecutionResult runCold(const Case& c)
    {
        return m_local.runCold(LocalRunFixture::request(c.language, c.code, QStringLiteral("snippet"), c.deadlineSeconds));
    }

    // A pooled run, with the pool ready (as a user reading the output between runs sees it).
    ExecutionResult runPooled(const Case& c, bool expectPooled = true)
    {
        return m_local.runPooled(LocalRunFixture::request(c.language, c.code, QStringLiteral("snippet"), c.deadlineSeconds),
                                 expectPooled ? LocalRunFixture::PoolUse::Taken : LocalRunFixture::PoolUse::NotTaken);
    }

private slots:
    void initTestCase()
    {
        if (!m_local.start({Language::JavaScript}))
            QSKIP("bubblewrap is not installed");
    }

    void cleanupTestCase() { m_local.stop(); }

    void identical_data()
    {
        QTest::addColumn<int>("language");
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("deadline");
        auto py = [](const char* name, const QString& code, int deadline = 60) {
            QTest::newRow(name) << int(Language::Python) << code << deadline;
        };
        auto js = [](const char* name, const QString& code, int deadline = 60) {
            QTest::newRow(name) << int(Language::JavaScript) << code << deadline;
        };
        py("print", QStringLiteral("print(1)"));
        py("result", QStringLiteral("result = 6 * 7"));
        py("results", QStringLiteral("results = [1, 'two', 3.0]"));
        py("pandas", QStringLiteral("import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3.5, 4]})\nprint(df)\nresult = df.describe()"));
        py("sympy", QStringLiteral("import sympy as sp\nx = sp.symbols('x')\nresult = sp.integrate(sp.sin(x) ** 2, x)"));
        py("sine-wave PNG", QStringLiteral(
            "import numpy as np\nimport matplotlib.pyplot as plt\n"
            "x = np.linspace(0, 2 * np.pi, 200)\nplt.plot(x, np.sin(x), label='sin')\n"
            "plt.title('Sine wave')\nplt.legend()\nplt.show()\nprint('done')"));
        // The pre-started sandbox drew a figure at warm-up: nothing of it may show.
        py("figures and fonts start fresh", QStringLiteral(
            "import gc, os\nimport matplotlib\nimport matplotlib.pyplot as plt\nfrom matplotlib import font_manager\n"
            "print(plt.get_fignums(), plt.figure().number, plt.figure().number, gc.isenabled())\n"
            "print(font_manager._get_font.cache_info().currsize, matplotlib.rcParams['font.family'])\n"
            "plt.close('all')\nfig, axes = plt.subplots(2, 2, layout='constrained')\n"
            "for a in axes.flat:\n    a.plot([1, 2, 3], [3, 1, 2], label='l'); a.legend(); a.set_title('t')\n"
            "fig.suptitle('Four')\nplt.figure(dpi=150)\nplt.scatter([1, 2], [2, 1])\n"));
        py("chart dict", QStringLiteral(
            "import numpy as np\nchart = {'type': 'line', 'title': 'T', 'data': {'x': np.arange(3), 'series': [{'name': 's', 'y': np.array([1.5, 2.0, 0.5])}]}}"));
        py("exception with line numbers", QStringLiteral("def f(n):\n    return 1 / n\n\nprint('before')\nf(0)\n"));
        py("syntax error", QStringLiteral("print('a')\nx = (1,\nprint(2\n"));
        py("stderr", QStringLiteral("import sys\nprint('out')\nprint('err', file=sys.stderr)\nsys.stderr.write('more\\n')"));
        py("unicode", QStringLiteral("print('héllo wörld ✓ 漢字 🎉')\nresult = 'ünï'"));
        py("clean namespace", QStringLiteral(
            "print(sorted(k for k in globals() if not k.startswith('__')))\n"
            "print(__name__, __file__)\nimport sys\nprint(sys.argv)\n"
            "try:\n    np\nexcept NameError as e:\n    print('NameError', e)"));
        py("stdin and environment", QStringLiteral(
            "import os, sys\nprint(repr(sys.stdin.read()))\n"
            "print(sorted(k for k in os.environ if k.startswith('SANDPAD')))\n"
            "print(os.getuid(), os.getgid(), os.uname().nodename, os.getcwd())\n"
            "print([l for l in open('/proc/self/status') if l.startswith(('Seccomp:', 'NoNewPrivs:', 'CapEff:'))])\n"
            "print(sorted(os.listdir('/sandpad')), os.path.exists('/tmp/canary'))\n"
            "print(sorted(os.listdir('/proc/self/fd')))\n"
            "import resource\nprint(resource.getrlimit(resource.RLIMIT_NPROC), resource.getrlimit(resource.RLIMIT_NOFILE))"));
        py("input() at EOF", QStringLiteral("name = input('name? ')"));
        py("system exit", QStringLiteral("import sys\nprint('x')\nsys.exit(3)"));
        py("exit handlers", QStringLiteral(
            "import atexit, threading, time\natexit.register(lambda: print('atexit'))\n"
            "f = open('/dev/stdout', 'w')\nf.write('unflushed\\n')\n"
            "def late():\n    time.sleep(0.2)\n    print('thread done')\n"
            "threading.Thread(target=late).start()\nprint('main done')"));
        py("fork loop", QStringLiteral(
            "import os, time\ncount = 0\ntry:\n    while True:\n        if os.fork() == 0:\n"
            "            time.sleep(30)\n            os._exit(0)\n        count += 1\n"
            "except OSError as e:\n    print('stopped by', e.strerror, count <= 256)"));
        py("timeout", QStringLiteral("print('spinning', flush=True)\nwhile True:\n    pass"), 2);
        js("console.log", QStringLiteral("console.log(1)"));
        js("top-level await", QStringLiteral("const v = await new Promise((r) => setTimeout(() => r(5), 10));\nconsole.log('v', v);\nconsole.error('warn');"));
        js("result", QStringLiteral("const result = {a: [1, 2, 3], b: 'x'};"));
        js("thrown error", QStringLiteral("function f() {\n  throw new TypeError('bad ' + 1);\n}\nconsole.log('before');\nf();"));
        js("argv and env", QStringLiteral("console.log(process.argv.slice(1), Object.keys(process.env).filter((k) => k.startsWith('SANDPAD')));"));
        js("timeout", QStringLiteral("console.log('spin');\nwhile (true) {}"), 2);
        js("sloppy script", QStringLiteral(
            "g = 1;\nconsole.log(delete g, this === module.exports, __filename, __dirname, require('node:path').sep);\n"
            "const o = Object.freeze({a: 1});\no.a = 2;\nconsole.log(o.a);\nreturn await Promise.resolve('returned');"));
        js("stack paths", QStringLiteral("console.log(new Error('x').stack);\nconsole.trace('t');\nnull.y;"));
        js("module", QStringLiteral("import { sep } from 'node:path';\nconsole.log(this, sep);\nnew Error().stack;\nx = 1;"));
        js("syntax error on line 1", QStringLiteral("let a = ;"));
    }

    void identical()
    {
        QFETCH(int, language);
        QFETCH(QString, code);
        QFETCH(int, deadline);
        const Case c{QTest::currentDataTag(), Language(language), code, deadline};
        const ExecutionResult cold = runCold(c);
        const ExecutionResult warm = runPooled(c);
        const QString both = QStringLiteral("\n--- cold:\n%1\n--- pooled:\n%2").arg(describeResult(cold), describeResult(warm));
        QVERIFY2(cold.status != RunStatus::InfrastructureError, qPrintable(both));
        QVERIFY2(cold.status == warm.status, qPrintable(both));
        QVERIFY2(cold.reason == warm.reason, qPrintable(both));
        QVERIFY2(cold.stdoutText == warm.stdoutText, qPrintable(both));
        QVERIFY2(cold.stderrText == warm.stderrText, qPrintable(both));
        QVERIFY2(cold.result == warm.result, qPrintable(both));
        QCOMPARE(cold.error.has_value(), warm.error.has_value());
        if (cold.error) {
            QCOMPARE(warm.error->name, cold.error->name);
            QCOMPARE(warm.error->value, cold.error->value);
            QCOMPARE(warm.error->traceback, cold.error->traceback);
        }
        QCOMPARE(warm.exitCode, cold.exitCode);
        QCOMPARE(warm.cleanupConfirmed, cold.cleanupConfirmed);
        QCOMPARE(warm.charts.size(), cold.charts.size());
        for (qsizetype i = 0; i < cold.charts.size(); ++i) {
            QCOMPARE(warm.charts[i].kind, cold.charts[i].kind);
            QCOMPARE(warm.charts[i].specJson(), cold.charts[i].specJson());
            if (cold.charts[i].kind == RunChart::Kind::Png) {
                QVERIFY(!cold.charts[i].png.isEmpty());
                const QImage a = QImage::fromData(cold.charts[i].png);
                const QImage b = QImage::fromData(warm.charts[i].png);
                QVERIFY(!a.isNull());
                QCOMPARE(b, a); // decoded pixels
                QCOMPARE(warm.charts[i].png, cold.charts[i].png); // and the bytes
            }
        }
        // The figure's interactive chart is extracted on both paths (chart_extract.py is placed
        // when the sandbox is pre-started, and the box-plot hook installed at warm-up).
        if (QByteArray(QTest::currentDataTag()) == "sine-wave PNG") {
            QVERIFY2(!warm.charts.isEmpty() && !(warm.charts[0].spec == nullptr), qPrintable(both));
            QCOMPARE(warm.charts[0].specJson().value("type").toString(), QStringLiteral("line"));
        }
        if (QByteArray(QTest::currentDataTag()) == "figures and fonts start fresh") {
            QCOMPARE(warm.charts.size(), 2);
            QCOMPARE(warm.charts[0].specJson().value("type").toString(), QStringLiteral("composite_chart"));
            QCOMPARE(warm.charts[1].specJson().value("type").toString(), QStringLiteral("scatter"));
        }
    }

    // What the rows above only compare, checked: a snippet without import/export runs as a sloppy
    // script on both paths (js_program.mjs is placed when the sandbox is pre-started).
    void javascriptAsNodeRunsIt()
    {
        const Case c{"sloppy", Language::JavaScript, QStringLiteral(
            "g = 1;\nconsole.log(delete g, this === module.exports, __filename, __dirname);\n"
            "console.log(new Error('x').stack);\nreturn 6 * 7;")};
        for (const ExecutionResult& r : {runCold(c), runPooled(c)}) {
            QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
            QCOMPARE(r.stdoutText, QStringLiteral("true true /sandpad/work/snippet /sandpad/work\nError: x\n    at Object.<anonymous> (snippet:3:13)\n"));
            QCOMPARE(r.result.value_or(QString()), QStringLiteral("42"));
        }
    }

    void cpuLimitCountsFromTheJob()
    {
        // The warm imports used CPU; the limit the code gets is that plus the cold limit.
        const QString code = QStringLiteral(
            "import resource\nsoft, hard = resource.getrlimit(resource.RLIMIT_CPU)\n"
            "u = resource.getrusage(resource.RUSAGE_SELF)\nused = u.ru_utime + u.ru_stime\n"
            "print(soft - used, hard - soft)");
        const Case c{"cpu", Language::Python, code, 10};
        const ExecutionResult cold = runCold(c);
        const ExecutionResult warm = runPooled(c);
        QCOMPARE(cold.status, RunStatus::Success);
        QCOMPARE(warm.status, RunStatus::Success);
        const QStringList a = cold.stdoutText.split(u' ');
        const QStringList b = warm.stdoutText.split(u' ');
        QCOMPARE(b.value(1).trimmed(), a.value(1).trimmed());
        const double coldLeft = a.value(0).toDouble(), warmLeft = b.value(0).toDouble();
        QVERIFY2(warmLeft > coldLeft - 1.5 && warmLeft < coldLeft + 1.5,
                 qPrintable(QStringLiteral("cold %1 s left, pooled %2 s left").arg(coldLeft).arg(warmLeft)));
    }

    void nothingSurvivesIntoTheNextRun()
    {
        const Case write{"write", Language::Python,
                         QStringLiteral("open('/tmp/canary', 'w').write('x')\nimport numpy\nnumpy.canary = 1\nprint('ok')")};
        QCOMPARE(runPooled(write).stdoutText, QStringLiteral("ok\n"));
        const Case check{"check", Language::Python,
                         QStringLiteral("import os, numpy\nprint(os.path.exists('/tmp/canary'), hasattr(numpy, 'canary'))")};
        QCOMPARE(runPooled(check).stdoutText, QStringLiteral("False False\n"));
    }

    void pipRunsTakeTheColdPath()
    {
        const Case c{"pip", Language::Python, QStringLiteral("!pip install sandpad-no-such-package\nprint(1)")};
        const ExecutionResult r = runPooled(c, /*expectPooled=*/false);
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.error->name, QStringLiteral("PipInstallError"));
    }

    void otherOptionsTakeTheColdPathAndRetarget()
    {
        ExecutorConfig config = m_local.pooled().config();
        const ExecutorConfig original = config;
        config.sandbox.memoryLimitMb = 768;
        m_local.pooled().setConfig(config);
        const Case c{"mem", Language::Python,
                     QStringLiteral("import resource\nprint(resource.getrlimit(resource.RLIMIT_AS)[0] >= 768 << 20)")};
        const int before = m_local.pooledProvider().pooledCreates();
        ExecutionResult r = m_local.pooled().run(ExecutionRequest::adHoc(Language::Python, c.code));
        QCOMPARE(m_local.pooledProvider().pooledCreates(), before); // cold: the pool had other options
        QCOMPARE(r.stdoutText, QStringLiteral("True\n"));
        r = runPooled(c); // the pool follows the new options
        QCOMPARE(r.stdoutText, QStringLiteral("True\n"));
        m_local.pooled().setConfig(original);
        m_local.pooled().run(ExecutionRequest::adHoc(Language::Python, QStringLiteral("pass"))); // retarget back
    }

    void poolControl()
    {
        // A pool not started, off, or short of memory starts nothing; drain empties it.
        int built = 0;
        qint64 memory = 100LL << 20;
        {
            SandboxPool pool([&](Language, const SandboxOptions&) { ++built; return nullptr; },
                             [&] { return memory; });
            RunControl control;
            SandboxOptions options;
            QVERIFY(!pool.take(options, control));
            pool.start();
            // Something must not happen: no event to wait on. The pool's thread decides at once
            // when it starts; 300 ms is its chance to do it wrongly (a pass proves less under load).
            QTest::qWait(300);
            QCOMPARE(built, 0); // under 512 MB available: no refill
            pool.setSize(0);
            memory = 8LL << 30;
            pool.start();
            QTest::qWait(300); // as above: a chance to do what it must not
            QCOMPARE(built, 0); // size 0: off
        }
        auto provider = std::make_shared<LocalProvider>();
        provider->startPool();
        provider->warmLanguage(Language::JavaScript);
        QVERIFY(provider->pool().waitUntilFull(120000));
        QCOMPARE(provider->pool().counts(Language::Python).ready, 1);
        QCOMPARE(provider->pool().counts(Language::JavaScript).ready, 1);
        provider->drainPool();
        QVERIFY(provider->pool().counts(Language::Python).ready == 0 ||
                provider->pool().counts(Language::Python).warming == 0);
        QVERIFY(provider->pool().waitUntilFull(120000)); // refilled
        provider->setPoolSize(0);
        QCOMPARE(provider->pool().counts(Language::Python).ready, 0);
    }

    // Runs back to back, faster than the pool refills (Run All, Shift+Enter through cells): each
    // takes a pre-started sandbox, ready or still importing (woken, it imports what the run needs
    // itself); the pool grows for the next burst and shrinks back when the takes stop.
    void aBurstIsServedPrestartedAndGrowsThePool()
    {
        auto provider = std::make_shared<LocalProvider>();
        provider->pool().setShrinkAfter(std::chrono::hours(1)); // no shrinking during the burst
        provider->startPool();
        QVERIFY(provider->pool().waitUntilFull(120000));
        Executor executor(provider, nullptr);
        const int before = provider->pooledCreates();
        const QString sine = QStringLiteral(
            "import numpy as np\nimport matplotlib.pyplot as plt\nx = np.linspace(0, 6, 50)\n"
            "plt.plot(x, np.sin(x))\nplt.show()\nprint(len(plt.get_fignums()))");
        for (int i = 0; i < 6; ++i) {
            const bool chart = i % 3 == 2;
            const ExecutionResult r = executor.run(ExecutionRequest::adHoc(
                Language::Python, chart ? sine : QStringLiteral("print(%1)").arg(i)));
            QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
            QCOMPARE(r.stdoutText, chart ? QStringLiteral("1\n") : QStringLiteral("%1\n").arg(i));
            if (chart)
                QCOMPARE(r.charts.size(), 1);
        }
        QCOMPARE(provider->pooledCreates() - before, 6);
        QVERIFY2(provider->pool().target(Language::Python) > 1, "the burst did not grow the pool");
        provider->pool().setShrinkAfter(std::chrono::milliseconds(300)); // the takes have stopped
        QTRY_COMPARE_WITH_TIMEOUT(provider->pool().target(Language::Python), 1, 20000);
        QVERIFY(provider->pool().waitUntilFull(120000));
        QCOMPARE(provider->pool().counts(Language::Python).ready, 1);
    }

    // Only languages in use are kept warm: JavaScript once a tab (or a take) asks for it.
    void languagesAreWarmedByUse()
    {
        auto provider = std::make_shared<LocalProvider>();
        provider->startPool();
        QVERIFY(provider->pool().waitUntilFull(120000));
        QCOMPARE(provider->pool().counts(Language::JavaScript).ready + provider->pool().counts(Language::JavaScript).warming, 0);
        provider->warmLanguage(Language::JavaScript);
        QVERIFY(provider->pool().waitUntilFull(120000));
        QCOMPARE(provider->pool().counts(Language::JavaScript).ready, 1);
    }

    void noProcessLeftWhenTheProviderIsGone()
    {
        QVERIFY(m_local.pooledProvider().pool().waitUntilFull(120000)); // its refills are not ours
        const QList<int> before = childProcessesOf(::getpid());
        auto provider = std::make_shared<LocalProvider>();
        provider->startPool();
        provider->warmLanguage(Language::JavaScript);
        QVERIFY(provider->pool().waitUntilFull(120000));
        QList<int> started;
        for (int pid : childProcessesOf(::getpid()))
            if (!before.contains(pid))
                started << pid;
        QVERIFY2(started.size() >= 2, "expected a bwrap per language");
        provider.reset();
        for (int pid : started)
            QVERIFY2(::kill(pid, 0) != 0, qPrintable(QStringLiteral("pid %1 still exists").arg(pid)));
        for (int pid : childProcessesOf(::getpid()))
            QVERIFY2(before.contains(pid), qPrintable(QStringLiteral("child %1 left").arg(pid)));
    }
};

QTEST_GUILESS_MAIN(TestSandboxPool)
#include "test_sandbox_pool.moc"
