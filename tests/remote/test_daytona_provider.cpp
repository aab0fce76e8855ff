// DaytonaProvider / DaytonaSandbox against tests/fakes/fake_daytona.py (real commands in bwrap).
#include "FakeProviderConfigs.h"
#include "FakeProviderFixture.h"
#include "TestChecks.h"

#include "core/providers/daytona/DaytonaProvider.h"
#include "core/providers/daytona/DaytonaSandbox.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QElapsedTimer>
#include <QtTest>
#include <memory>

using namespace sandpad;

class TestDaytonaProvider : public QObject, FakeProviderFixture<DaytonaProvider, fakeDaytonaConfig> {
    Q_OBJECT

private slots:
    void initTestCase() { startFake(QStringLiteral("fake_daytona.py")); }
    void init() { fake->reset(); }

    void shellQuoting()
    {
        SandboxCommand cmd;
        cmd.argv = {QStringLiteral("python3"), QStringLiteral("it's here"), QStringLiteral("$HOME")};
        cmd.cwd = QStringLiteral("/tmp/sand pad");
        cmd.env = {{QStringLiteral("A"), QStringLiteral("x y")}};
        QCOMPARE(DaytonaSandbox::commandLine(cmd),
                 QStringLiteral("(cd '/tmp/sand pad' && env 'A=x y' python3 'it'\\''s here' '$HOME') < /dev/null"));
    }

    void createRunReadDestroy()
    {
        RunControl control;
        QElapsedTimer clock;
        clock.start();
        auto sb = create(config(), control);
        QCOMPARE(sb->workDir(), QStringLiteral("/tmp/sandpad"));
        const ScriptRun run = runMainScript(*sb, control, QStringLiteral("it's"), QStringLiteral("r+1.txt"));
        QCOMPARE(run.outcome.exitCode.value_or(-1), 3);
        QCOMPARE(run.out, QByteArray("out it's\n"));
        QCOMPARE(run.err, QByteArray("err\n"));
        QCOMPARE(sb->readFile(sb->workDir() + QStringLiteral("/out/r+1.txt")).value_or("?"), QByteArray("hi there"));
        QVERIFY(!sb->readFile(sb->workDir() + QStringLiteral("/out/none")).has_value());
        const CleanupReport report = sb->destroy();
        QVERIFY2(report.confirmed, qPrintable(report.detail));
        const qint64 clientMs = clock.elapsed();
        SANDPAD_CHECK(verifyAllCleaned());
        QCOMPARE(fake->count(QStringLiteral("^DELETE /api/sandbox/")), 1);
        const int requests = fake->requests().size();
        qInfo("daytona: %d requests for create + base-package check + upload + run (polled) + 2 reads + delete/confirm; "
              "%lld ms total, fake busy %.1f ms", requests, clientMs, fake->serverMs());
    }

    void outputIsStreamedBeforeExit() { outputIsStreamedBeforeExitCase(); }

    void timeoutDeletesTheSession()
    {
        RunControl control;
        auto sb = create(config(), control);
        const auto outcome = sb->run(pythonCommand(QStringLiteral("import time\ntime.sleep(60)"), 1500), {}, control);
        QVERIFY(outcome.timedOut);
        QCOMPARE(fake->count(QStringLiteral("^DELETE /toolbox/[^/]+/process/session/")), 1);
        verifyDestroyedAndCleaned(*sb);
    }

    void cancellationAbortsTheRun()
    {
        RunControl control;
        auto sb = create(config(), control);
        SANDPAD_CHECK(verifyCancellationAbortsTheRun(*sb, control));
        verifyDestroyedAndCleaned(*sb);
    }

    void rateLimitIsRetried() { rateLimitedCreateIsRetriedCase(QStringLiteral("/api/sandbox")); }

    void persistentServerErrorIsAClearError()
    {
        fake->injectFault(QStringLiteral("/process/session$"), 500, 3);
        RunControl control;
        auto sb = create(config(), control);
        SANDPAD_CHECK(verifyProviderError([&] { sb->run(pythonCommand(QStringLiteral("print(1)")), {}, control); },
                                          ProviderError::Kind::Unavailable, QStringLiteral("service unavailable"),
                                          "run should fail"));
        verifyDestroyedAndCleaned(*sb);
    }

    void droppedConnectionIsAnInfrastructureError()
    {
        RunControl control;
        DaytonaConfig c = config();
        auto sb = create(c, control);
        // The toolbox disappears mid-run (the fake refuses every poll with a connection-level cut is
        // not possible for plain JSON, so a 502 storm stands in for a dropped proxy).
        fake->injectFault(QStringLiteral("/logs$"), 502, 3);
        SANDPAD_CHECK(verifyProviderError(
            [&] { sb->run(pythonCommand(QStringLiteral("import time\ntime.sleep(1)")), {}, control); },
            ProviderError::Kind::Unavailable, QString(), "run should fail"));
        QCOMPARE(fake->count(QStringLiteral("^DELETE /toolbox/[^/]+/process/session/")), 1);
        QVERIFY(sb->destroy().confirmed);
    }

    void unconfirmedDeleteIsReported()
    {
        fake->injectOption(QStringLiteral("stop_never_confirms"), true);
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
        fake->injectOption(QStringLiteral("create_delay"), 1.0);
        RunControl control;
        auto sb = create(config(), control);
        QVERIFY(fake->count(QStringLiteral("^GET /api/sandbox/[^/]+$")) >= 1);
        QVERIFY(sb->destroy().confirmed);
    }

    void badKeyIsNamedAndRedacted()
    {
        DaytonaConfig c = config();
        c.apiKey = QStringLiteral("dtn_wrong_secret_4242");
        verifyBadCredentialsRefused(c, c.apiKey);
    }

    void javascriptAndMissingPackages()
    {
        SANDPAD_CHECK(verifyJavaScriptPrintsTwo(QStringLiteral("console.log([1,2].length)")));

        DaytonaConfig c = config();
        c.basePackages = {QStringLiteral("sandpad_no_such_package")};
        RunControl control;
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

    void cleanupTestCase() { verifyAllCleaned(); }
};

QTEST_GUILESS_MAIN(TestDaytonaProvider)
#include "test_daytona_provider.moc"
