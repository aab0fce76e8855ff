// The full Executor (real wrappers) against each remote provider: the Vercel and Daytona fakes and
// the example command provider. Same snippets as tests/engine, same results expected.
#include "ExecutionChecks.h"
#include "FakeProviderExecutors.h"
#include "TestChecks.h"

#include "core/run/ExecutionRequest.h"
#include "core/run/Run.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QtTest>
#include <sys/resource.h>

using namespace sandpad;

class TestRemoteExecutor : public QObject {
    Q_OBJECT

    FakeProviderExecutors m_remote;

    static QString providerName() { return FakeProviderExecutors::currentProvider(); }
    FakeServer* fake() const { return m_remote.fake(); }
    ExecutionResult run(Language lang, const QString& code, int deadline = 60)
    {
        auto request = ExecutionRequest::adHoc(lang, code, lang == Language::Python ? QStringLiteral("snippet.py")
                                                                                  : QStringLiteral("snippet.mjs"));
        request.deadlineSeconds = deadline;
        return m_remote.executor().run(request);
    }
    ExecutionResult py(const QString& code, int deadline = 60) { return run(Language::Python, code, deadline); }
    // Every sandbox the fake created was stopped/deleted and is gone.
    void verifyCleaned() { m_remote.verifyCleaned(); }

private slots:
    void initTestCase_data() { FakeProviderExecutors::addProviderRows(); }

    void initTestCase()
    {
        SANDPAD_CHECK(m_remote.start(3000, QStringList{QStringLiteral("matplotlib"), QStringLiteral("numpy"),
                                                       QStringLiteral("pandas"), QStringLiteral("sympy")}));
    }

    void init() { m_remote.resetFake(); }

    void printWithRequestCountAndOverhead()
    {
        // This process's CPU time over the run = what the client itself costs (the fakes and the
        // sandboxed programs are other processes).
        auto cpuMs = [] {
            rusage u{};
            getrusage(RUSAGE_SELF, &u);
            return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000.0 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1000.0;
        };
        py(QStringLiteral("print('warm-up')\n")); // first-use costs (TLS-free QNAM setup, resources)
        if (FakeServer* f = fake())
            f->reset();
        const double cpu0 = cpuMs();
        QElapsedTimer clock;
        clock.start();
        const auto r = py(QStringLiteral("print('hello')\n"));
        const qint64 total = clock.elapsed();
        const double cpu = cpuMs() - cpu0;
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("hello\n"));
        QCOMPARE(r.costMicros, 50000);
        QVERIFY(r.cleanupConfirmed);
        QCOMPARE(r.provider, providerName());
        verifyCleaned();
        if (FakeServer* f = fake()) {
            const QJsonArray log = f->requests();
            // Sequential requests: what the fake spent (incl. the command itself) vs the run's wall time.
            const double busy = f->serverMs();
            qInfo("%s print: %d requests, run %lld ms wall, fake busy %.0f ms, client CPU %.1f ms",
                  qPrintable(providerName()), int(log.size()), total, busy, cpu);
            QStringList steps;
            for (const auto& v : log) {
                const QJsonObject e = v.toObject();
                steps << e.value(QLatin1String("method")).toString() + QLatin1Char(' ') +
                             e.value(QLatin1String("path")).toString().section(QLatin1Char('/'), -2);
            }
            qInfo("%s requests: %s", qPrintable(providerName()), qPrintable(steps.join(QStringLiteral(", "))));
            QVERIFY(log.size() <= 16);
        } else {
            qInfo("%s print: run %lld ms wall, client CPU %.1f ms", qPrintable(providerName()), total, cpu);
        }
    }

    void resultValue()
    {
        const auto r = py(QStringLiteral("import numpy as np\nresult = np.mean([1, 2, 3, 4, 5])\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.result.value_or(QString()), QStringLiteral("3.0"));
    }

    void sineWavePng()
    {
        const auto r = py(sineWaveCode());
        SANDPAD_CHECK(verifySineWavePng(r));
        verifyCleaned();
    }

    void chartDicts()
    {
        auto r = py(QStringLiteral("chart = {'type': 'line', 'title': 'T', 'elements': [{'label': 's', 'points': [[0, 1], [1, 2]]}]}\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.charts.size(), 1);
        QCOMPARE(r.charts[0].specJson().value(QStringLiteral("type")).toString(), QStringLiteral("line"));
        r = py(QStringLiteral("chart = {'type': 'bar', 'title': 'B', 'elements': [{'label': 'Q1', 'group': 'A', 'value': 3}, "
                              "{'label': 'Q2', 'group': 'A', 'value': 5}]}\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.charts[0].specJson().value(QStringLiteral("type")).toString(), QStringLiteral("bar"));
    }

    void userException()
    {
        const auto r = py(QStringLiteral("print('before')\nx = 1 / 0\n"));
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.stdoutText, QStringLiteral("before\n"));
        QVERIFY(r.error.has_value());
        QCOMPARE(r.error->name, QStringLiteral("ZeroDivisionError"));
        QCOMPARE(r.error->line().value_or(-1), 2);
        QCOMPARE(r.costMicros, 50000);
        verifyCleaned();
    }

    void javascript()
    {
        auto r = run(Language::JavaScript, QStringLiteral("console.log('hi from node');\nconst result = {a: 1};\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("hi from node\n"));
        QCOMPARE(r.result.value_or(QString()), QStringLiteral("{ a: 1 }"));
        r = run(Language::JavaScript, QStringLiteral("throw new TypeError('bad thing');\n"));
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.error->name, QStringLiteral("TypeError"));
    }

    void timeout()
    {
        const auto r = py(QStringLiteral("import time\nprint('start', flush=True)\ntime.sleep(60)\n"), 3);
        QCOMPARE(r.status, RunStatus::Timeout);
        QCOMPARE(r.costMicros, 0);
        QVERIFY(r.cleanupConfirmed);
        QCOMPARE(r.stdoutText, QStringLiteral("start\n"));
        verifyCleaned();
    }

    void cancellation()
    {
        Run* handle = m_remote.executor().start(
            ExecutionRequest::adHoc(Language::Python, QStringLiteral("import time\nprint('x', flush=True)\ntime.sleep(60)\n")));
        QSignalSpy out(handle, &Run::output);
        QSignalSpy done(handle, &Run::finished);
        QVERIFY(out.wait(20000)); // the output arrived live, then we cancel
        handle->cancel();
        QVERIFY(done.count() > 0 || done.wait(15000));
        const ExecutionResult r = handle->result();
        QCOMPARE(r.status, RunStatus::Cancelled);
        QCOMPARE(r.costMicros, 0);
        QVERIFY(r.cleanupConfirmed);
        verifyCleaned();
    }

    void faultsEndCleanly()
    {
        FakeServer* f = fake();
        if (!f)
            QSKIP("no fault injection for the command provider");
        // A dropped log stream (Vercel) / a failing toolbox (Daytona): infrastructure error, $0,
        // and the sandbox still deleted.
        if (providerName() == QLatin1String("vercel"))
            f->injectOption(QStringLiteral("cut_logs"),
                            QJsonObject{{QStringLiteral("count"), 1}, {QStringLiteral("after_ms"), 200}});
        else
            f->injectFault(QStringLiteral("/logs$"), 500, 3);
        auto r = py(QStringLiteral("import time\nfor i in range(10):\n    print(i, flush=True)\n    time.sleep(0.1)\n"));
        QCOMPARE(r.status, RunStatus::InfrastructureError);
        QCOMPARE(r.costMicros, 0);
        QVERIFY2(r.reason.contains(QStringLiteral("log stream dropped")) || r.reason.contains(QStringLiteral("service unavailable")),
                 qPrintable(r.reason));
        QVERIFY(r.cleanupConfirmed);
        verifyCleaned();

        // A stop/delete that never confirms: reported, $0.
        f->reset();
        f->injectOption(QStringLiteral("stop_never_confirms"), true);
        r = py(QStringLiteral("print(1)\n"));
        QCOMPARE(r.status, RunStatus::InfrastructureError);
        QVERIFY(!r.cleanupConfirmed);
        QCOMPARE(r.costMicros, 0);
        QVERIFY2(r.reason.contains(QStringLiteral("not confirmed")), qPrintable(r.reason));
        f->reset();

        // Rate limited at create, then accepted: a normal run.
        f->injectFault(QStringLiteral("^(/v2|/api)/sandbox(es)?$"), 429, 1, QStringLiteral("POST"), 1);
        r = py(QStringLiteral("print(2)\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(f->count(QStringLiteral("^POST (/v2|/api)/sandbox(es)?$")), 2);

        // Persistent 500 at create: a clear error, nothing created.
        f->reset();
        f->injectFault(QStringLiteral("^(/v2|/api)/sandbox(es)?$"), 500, 3, QStringLiteral("POST"));
        r = py(QStringLiteral("print(3)\n"));
        QCOMPARE(r.status, RunStatus::InfrastructureError);
        QVERIFY2(r.reason.contains(QStringLiteral("service unavailable")), qPrintable(r.reason));
        QCOMPARE(r.costMicros, 0);
    }
};

QTEST_GUILESS_MAIN(TestRemoteExecutor)
#include "test_remote_executor.moc"
