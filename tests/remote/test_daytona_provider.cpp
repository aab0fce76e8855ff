// DaytonaProvider / DaytonaSandbox against tests/fakes/fake_daytona.py (real commands in bwrap).
#include "FakeServer.h"

#include "providers/ProviderError.h"
#include "providers/RunControl.h"
#include "providers/daytona/DaytonaProvider.h"
#include "providers/daytona/DaytonaSandbox.h"

#include <QElapsedTimer>
#include <QtTest>
#include <memory>
#include <thread>

using namespace sandpad;

class TestDaytonaProvider : public QObject {
    Q_OBJECT

    std::unique_ptr<FakeServer> fake;

    DaytonaConfig config() const
    {
        DaytonaConfig c;
        c.apiUrl = fake->base() + QStringLiteral("/api");
        c.apiKey = QStringLiteral("dtn_test_key_0123456789");
        c.organizationId = QStringLiteral("org_fake");
        c.basePackages = {QStringLiteral("numpy"), QStringLiteral("matplotlib")};
        c.confirmTimeoutMs = 2000;
        return c;
    }

    std::unique_ptr<Sandbox> create(const DaytonaConfig& c, RunControl& control, Language lang = Language::Python)
    {
        DaytonaProvider provider(c);
        SandboxOptions options;
        options.language = lang;
        options.deadlineSeconds = 60;
        return provider.create(options, control);
    }

    static SandboxCommand py(const QString& code, qint64 timeoutMs = 30000)
    {
        SandboxCommand cmd;
        cmd.argv = {QStringLiteral("python3"), QStringLiteral("-c"), code};
        cmd.timeoutMs = timeoutMs;
        return cmd;
    }

private slots:
    void initTestCase()
    {
        fake = std::make_unique<FakeServer>(QStringLiteral("fake_daytona.py"));
        QVERIFY2(fake->started(), "fake_daytona.py did not start");
    }
    void init() { fake->reset(); }

    void shellQuoting()
    {
        SandboxCommand cmd;
        cmd.argv = {QStringLiteral("python3"), QStringLiteral("it's here"), QStringLiteral("$HOME")};
        cmd.cwd = QStringLiteral("/tmp/sand pad");
        cmd.env = {{QStringLiteral("A"), QStringLiteral("x y")}};
        QCOMPARE(DaytonaSandbox::commandLine(cmd),
                 QStringLiteral("cd '/tmp/sand pad' && exec env 'A=x y' python3 'it'\\''s here' '$HOME'"));
    }

    void createRunReadDestroy()
    {
        RunControl control;
        QElapsedTimer clock;
        clock.start();
        auto sb = create(config(), control);
        QCOMPARE(sb->workDir(), QStringLiteral("/tmp/sandpad"));
        sb->writeFiles({{sb->workDir() + QStringLiteral("/main.py"),
                         "import sys, os\nprint('out', sys.argv[1])\nprint('err', file=sys.stderr)\n"
                         "os.makedirs('out', exist_ok=True)\nopen('out/r+1.txt','w').write(os.environ['GREETING'])\n"
                         "sys.exit(3)\n", 0644}});
        SandboxCommand cmd;
        cmd.argv = {sb->interpreter(Language::Python), QStringLiteral("main.py"), QStringLiteral("it's")};
        cmd.cwd = sb->workDir();
        cmd.env = {{QStringLiteral("GREETING"), QStringLiteral("hi there")}};
        QByteArray out, err;
        const auto outcome = sb->run(cmd, [&](OutputStream s, const QByteArray& b) {
            (s == OutputStream::Stdout ? out : err) += b;
        }, control);
        QCOMPARE(outcome.exitCode.value_or(-1), 3);
        QCOMPARE(out, QByteArray("out it's\n"));
        QCOMPARE(err, QByteArray("err\n"));
        QCOMPARE(sb->readFile(sb->workDir() + QStringLiteral("/out/r+1.txt")).value_or("?"), QByteArray("hi there"));
        QVERIFY(!sb->readFile(sb->workDir() + QStringLiteral("/out/none")).has_value());
        const CleanupReport report = sb->destroy();
        QVERIFY2(report.confirmed, qPrintable(report.detail));
        const qint64 clientMs = clock.elapsed();
        QString why;
        QVERIFY2(fake->allCleaned(&why), qPrintable(why));
        QCOMPARE(fake->count(QStringLiteral("^DELETE /api/sandbox/")), 1);
        const int requests = fake->requests().size();
        qInfo("daytona: %d requests for create + base-package check + upload + run (polled) + 2 reads + delete/confirm; "
              "%lld ms total, fake busy %.1f ms", requests, clientMs, fake->serverMs());
    }

    void outputIsStreamedBeforeExit()
    {
        RunControl control;
        auto sb = create(config(), control);
        QElapsedTimer clock;
        qint64 firstAt = -1;
        QByteArray out;
        clock.start();
        const auto outcome = sb->run(
            py(QStringLiteral("import time\nprint('first', flush=True)\ntime.sleep(2)\nprint('second')")),
            [&](OutputStream, const QByteArray& b) {
                if (firstAt < 0)
                    firstAt = clock.elapsed();
                out += b;
            }, control);
        const qint64 total = clock.elapsed();
        QCOMPARE(outcome.exitCode.value_or(-1), 0);
        QCOMPARE(out, QByteArray("first\nsecond\n"));
        QVERIFY2(firstAt >= 0 && total - firstAt >= 1500,
                 qPrintable(QStringLiteral("first chunk at %1 ms, exit at %2 ms").arg(firstAt).arg(total)));
        QVERIFY(sb->destroy().confirmed);
    }

    void timeoutDeletesTheSession()
    {
        RunControl control;
        auto sb = create(config(), control);
        QElapsedTimer clock;
        clock.start();
        const auto outcome = sb->run(py(QStringLiteral("import time\ntime.sleep(60)"), 1500), {}, control);
        QVERIFY(outcome.timedOut);
        QVERIFY(clock.elapsed() < 8000);
        QCOMPARE(fake->count(QStringLiteral("^DELETE /toolbox/[^/]+/process/session/")), 1);
        QVERIFY(sb->destroy().confirmed);
        QVERIFY(fake->allCleaned());
    }

    void cancellationAbortsTheRun()
    {
        RunControl control;
        auto sb = create(config(), control);
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(800));
            control.cancel();
        });
        QElapsedTimer clock;
        clock.start();
        const auto outcome = sb->run(py(QStringLiteral("import time\ntime.sleep(60)")), {}, control);
        canceller.join();
        QVERIFY(outcome.cancelled);
        QVERIFY(clock.elapsed() < 8000);
        QVERIFY(sb->destroy().confirmed);
        QVERIFY(fake->allCleaned());
    }

    void rateLimitIsRetried()
    {
        fake->inject({{QStringLiteral("faults"),
                       QJsonArray{QJsonObject{{QStringLiteral("method"), QStringLiteral("POST")},
                                              {QStringLiteral("path"), QStringLiteral("^/api/sandbox$")},
                                              {QStringLiteral("status"), 429},
                                              {QStringLiteral("retry_after"), 1},
                                              {QStringLiteral("count"), 1}}}}});
        RunControl control;
        QElapsedTimer clock;
        clock.start();
        auto sb = create(config(), control);
        QVERIFY(clock.elapsed() >= 950); // Retry-After-sandbox-create: 1
        QCOMPARE(fake->count(QStringLiteral("^POST /api/sandbox$")), 2);
        QVERIFY(sb->destroy().confirmed);
    }

    void persistentServerErrorIsAClearError()
    {
        fake->inject({{QStringLiteral("faults"),
                       QJsonArray{QJsonObject{{QStringLiteral("path"), QStringLiteral("/process/session$")},
                                              {QStringLiteral("status"), 500}, {QStringLiteral("count"), 3}}}}});
        RunControl control;
        auto sb = create(config(), control);
        try {
            sb->run(py(QStringLiteral("print(1)")), {}, control);
            QFAIL("run should fail");
        } catch (const ProviderError& e) {
            QCOMPARE(e.kind(), ProviderError::Kind::Unavailable);
            QVERIFY2(e.message().contains(QStringLiteral("service unavailable")), qPrintable(e.message()));
        }
        QVERIFY(sb->destroy().confirmed);
        QVERIFY(fake->allCleaned());
    }

    void droppedConnectionIsAnInfrastructureError()
    {
        RunControl control;
        DaytonaConfig c = config();
        auto sb = create(c, control);
        // The toolbox disappears mid-run (the fake refuses every poll with a connection-level cut is
        // not possible for plain JSON, so a 502 storm stands in for a dropped proxy).
        fake->inject({{QStringLiteral("faults"),
                       QJsonArray{QJsonObject{{QStringLiteral("path"), QStringLiteral("/logs$")},
                                              {QStringLiteral("status"), 502}, {QStringLiteral("count"), 3}}}}});
        try {
            sb->run(py(QStringLiteral("import time\ntime.sleep(1)")), {}, control);
            QFAIL("run should fail");
        } catch (const ProviderError& e) {
            QCOMPARE(e.kind(), ProviderError::Kind::Unavailable);
        }
        QCOMPARE(fake->count(QStringLiteral("^DELETE /toolbox/[^/]+/process/session/")), 1);
        QVERIFY(sb->destroy().confirmed);
    }

    void unconfirmedDeleteIsReported()
    {
        fake->inject({{QStringLiteral("options"), QJsonObject{{QStringLiteral("stop_never_confirms"), true}}}});
        RunControl control;
        auto sb = create(config(), control);
        const CleanupReport report = sb->destroy();
        QVERIFY(!report.confirmed);
        QVERIFY2(report.detail.contains(QStringLiteral("not confirmed")) &&
                     report.detail.contains(QStringLiteral("destroying")),
                 qPrintable(report.detail));
    }

    void slowCreateIsWaitedFor()
    {
        fake->inject({{QStringLiteral("options"), QJsonObject{{QStringLiteral("create_delay"), 1.0}}}});
        RunControl control;
        auto sb = create(config(), control);
        QVERIFY(fake->count(QStringLiteral("^GET /api/sandbox/[^/]+$")) >= 1);
        QVERIFY(sb->destroy().confirmed);
    }

    void badKeyIsNamedAndRedacted()
    {
        DaytonaConfig c = config();
        c.apiKey = QStringLiteral("dtn_wrong_secret_4242");
        RunControl control;
        try {
            create(c, control);
            QFAIL("create should fail");
        } catch (const ProviderError& e) {
            QCOMPARE(e.kind(), ProviderError::Kind::Unauthorized);
            QVERIFY2(e.message().contains(QStringLiteral("bad credentials")), qPrintable(e.message()));
            QVERIFY(!e.message().contains(c.apiKey));
        }
    }

    void javascriptAndMissingPackages()
    {
        RunControl control;
        auto js = create(config(), control, Language::JavaScript);
        SandboxCommand cmd;
        cmd.argv = {js->interpreter(Language::JavaScript), QStringLiteral("-e"), QStringLiteral("console.log([1,2].length)")};
        QByteArray out;
        QCOMPARE(js->run(cmd, [&](OutputStream, const QByteArray& b) { out += b; }, control).exitCode.value_or(-1), 0);
        QCOMPARE(out, QByteArray("2\n"));
        QVERIFY(js->destroy().confirmed);

        DaytonaConfig c = config();
        c.basePackages = {QStringLiteral("sandpad_no_such_package")};
        auto sb = create(c, control);
        QVERIFY(static_cast<DaytonaSandbox*>(sb.get())->packageNote().contains(QStringLiteral("could not be installed")));
        QVERIFY(sb->destroy().confirmed);
    }

    void validation()
    {
        const ValidationReport ok = DaytonaProvider(config()).validate();
        QVERIFY2(ok.usable(), qPrintable(ok.toText()));
        QVERIFY(ok.toText().contains(QStringLiteral("API key accepted")));
        QCOMPARE(fake->count(QStringLiteral("^GET /api/sandbox$")), 1);

        DaytonaConfig none;
        none.apiUrl = config().apiUrl;
        QVERIFY(!DaytonaProvider(none).validate().usable());
        QVERIFY(DaytonaProvider(none).validate().toText().contains(QStringLiteral("DAYTONA_API_KEY")));

        DaytonaConfig wrong = config();
        wrong.apiKey = QStringLiteral("dtn_wrong_secret_4242");
        const ValidationReport bad = DaytonaProvider(wrong).validate();
        QVERIFY(!bad.usable());
        QVERIFY2(bad.toText().contains(QStringLiteral("bad credentials")), qPrintable(bad.toText()));
        QVERIFY(!bad.toText().contains(wrong.apiKey));

        DaytonaConfig otherOrg = config();
        otherOrg.organizationId = QStringLiteral("org_other");
        QVERIFY(!DaytonaProvider(otherOrg).validate().usable());
    }

    void cleanupTestCase()
    {
        QString why;
        QVERIFY2(fake->allCleaned(&why), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestDaytonaProvider)
#include "test_daytona_provider.moc"
