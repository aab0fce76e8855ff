// DaytonaProvider / DaytonaSandbox against tests/fakes/fake_daytona.py (real commands in bwrap).
#include "FakeProviderConfigs.h"
#include "FakeProviderFixture.h"
#include "TestChecks.h"

#include "TempDatabase.h"

#include "core/accounting/UsageLedger.h"
#include "core/allocations/OrphanReconciler.h"
#include "core/allocations/RemoteAllocations.h"
#include "core/engine/Executor.h"
#include "core/providers/daytona/DaytonaProvider.h"
#include "core/providers/daytona/DaytonaSandbox.h"
#include "core/providers/http/HttpClient.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <memory>

using namespace sandpad;

class TestDaytonaProvider : public QObject, FakeProviderFixture<DaytonaProvider, fakeDaytonaConfig> {
    Q_OBJECT

    // Sandboxes the fake holds that were never deleted.
    int liveSandboxes()
    {
        int n = 0;
        const QJsonObject all = fake->sandboxes();
        for (auto it = all.begin(); it != all.end(); ++it)
            n += it.value().toObject().value(QLatin1String("destroyed")).toBool() ? 0 : 1;
        return n;
    }

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
        SANDPAD_CHECK(verifyMainScriptRun(*sb, control, QStringLiteral("it's"), QStringLiteral("r+1.txt")));
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
        SANDPAD_CHECK(verifyBadCredentialsFailValidation(wrong, wrong.apiKey));

        // As the SDK with an API key: no organization header (the key's own is used).
        DaytonaConfig otherOrg = config();
        otherOrg.organizationId = QStringLiteral("org_other");
        QVERIFY(DaytonaProvider(otherOrg).validate().usable());
        for (const auto& r : fake->requests())
            QVERIFY(!r.toObject().value(QLatin1String("headers")).toObject().contains(QLatin1String("x-daytona-organization-id")));
    }

    // The daemon's session is one shell that sources each command: the command must give it back
    // (no `exec`), and its stdin must not be the held-open FIFO. Two runs in one sandbox both end
    // with their exit codes; a program that reads stdin sees end of file at once.
    void sessionCommandsReturnToTheShell()
    {
        RunControl control;
        auto sb = create(config(), control);
        for (int i = 0; i < 2; ++i) {
            QByteArray out;
            const auto outcome = sb->run(pythonCommand(QStringLiteral("import sys\nprint(len(sys.stdin.read()))"), 15000),
                                         [&](OutputStream, const QByteArray& b) { out += b; }, control);
            QVERIFY2(!outcome.timedOut, qPrintable(outcome.detail));
            QCOMPARE(outcome.exitCode.value_or(-1), 0);
            QCOMPARE(out, QByteArray("0\n"));
        }
        // Every session is deleted after its run, not only on a timeout.
        QCOMPARE(fake->count(QStringLiteral("^POST /toolbox/[^/]+/process/session$")), 2);
        QCOMPARE(fake->count(QStringLiteral("^DELETE /toolbox/[^/]+/process/session/")), 2);
        verifyDestroyedAndCleaned(*sb);
    }

    // The fake is held to the daemon: a session is one shell, so a command that `exec`s replaces
    // it (no exit code, later execs fail), and a runAsync command's stdin is held open.
    void fakeSessionIsOneShell()
    {
        RunControl control;
        auto sb = create(config(), control);
        HttpClient http(QStringLiteral("raw"));
        auto call = [&](const QByteArray& method, const QString& path, const QJsonObject& body = {}) {
            HttpRequest rq = DaytonaSandbox::apiRequest(config(), method, QString(), HttpRequest::Retry::Never,
                                                        body.isEmpty() ? nullptr : &body);
            rq.url = QUrl(fake->base() + QStringLiteral("/toolbox/") + sb->id() + path);
            const HttpResponse r = http.send(rq);
            return std::make_pair(r.status, QJsonDocument::fromJson(r.body).object());
        };
        auto exec = [&](const QString& session, const QString& command) {
            return call("POST", QStringLiteral("/process/session/%1/exec").arg(session),
                        {{QStringLiteral("command"), command}, {QStringLiteral("runAsync"), true}});
        };
        QCOMPARE(call("POST", QStringLiteral("/process/session"), {{QStringLiteral("sessionId"), QStringLiteral("s1")}}).first, 201);
        // State persists between a session's commands: it is one shell.
        const QString first = exec(QStringLiteral("s1"), QStringLiteral("cd /tmp && X=kept")).second.value(QLatin1String("cmdId")).toString();
        QVERIFY(QTest::qWaitFor([&] {
            return call("GET", QStringLiteral("/process/session/s1/command/") + first).second.contains(QLatin1String("exitCode"));
        }, 10000));
        const QString second = exec(QStringLiteral("s1"), QStringLiteral("echo $X $(pwd)")).second.value(QLatin1String("cmdId")).toString();
        QVERIFY(QTest::qWaitFor([&] {
            return call("GET", QStringLiteral("/process/session/s1/command/") + second).second.contains(QLatin1String("exitCode"));
        }, 10000));
        QCOMPARE(call("GET", QStringLiteral("/process/session/s1/command/%1/logs").arg(second)).second.value(QLatin1String("stdout")).toString(),
                 QStringLiteral("kept /tmp\n"));
        // `exec` replaces the session's shell: no exit code ever, and the next exec fails.
        const QString replaced = exec(QStringLiteral("s1"), QStringLiteral("exec true")).second.value(QLatin1String("cmdId")).toString();
        QVERIFY(QTest::qWaitFor([&] { return exec(QStringLiteral("s1"), QStringLiteral("true")).first == 500; }, 10000));
        QVERIFY(!call("GET", QStringLiteral("/process/session/s1/command/") + replaced).second.contains(QLatin1String("exitCode")));
        // A runAsync command reading stdin waits on the held-open FIFO; from /dev/null it ends.
        QCOMPARE(call("POST", QStringLiteral("/process/session"), {{QStringLiteral("sessionId"), QStringLiteral("s2")}}).first, 201);
        QCOMPARE(call("POST", QStringLiteral("/process/session"), {{QStringLiteral("sessionId"), QStringLiteral("s3")}}).first, 201);
        const QString held = exec(QStringLiteral("s2"), QStringLiteral("cat")).second.value(QLatin1String("cmdId")).toString();
        const QString freed = exec(QStringLiteral("s3"), QStringLiteral("cat < /dev/null")).second.value(QLatin1String("cmdId")).toString();
        QVERIFY(QTest::qWaitFor([&] {
            return call("GET", QStringLiteral("/process/session/s3/command/") + freed).second.contains(QLatin1String("exitCode"));
        }, 10000));
        QVERIFY(!call("GET", QStringLiteral("/process/session/s2/command/") + held).second.contains(QLatin1String("exitCode")));
        // The removed upload route answers like any unknown route.
        QCOMPARE(call("POST", QStringLiteral("/files/upload?path=/tmp/x")).first, 404);
        verifyDestroyedAndCleaned(*sb);
    }

    // The toolbox routes the current SDK uses: one bulk-upload for all files, bulk-download to
    // read; never the removed /files/upload.
    void filesGoThroughTheBulkRoutes()
    {
        RunControl control;
        auto sb = create(config(), control);
        sb->writeFiles({{sb->workDir() + QStringLiteral("/a.txt"), "A", 0644},
                        {sb->workDir() + QStringLiteral("/sub/b b.txt"), QByteArray("B\0B", 3), 0644}});
        QCOMPARE(fake->count(QStringLiteral("^POST /toolbox/[^/]+/files/bulk-upload$")), 1);
        QCOMPARE(fake->count(QStringLiteral("/files/upload")), 0);
        QCOMPARE(sb->readFile(sb->workDir() + QStringLiteral("/a.txt")).value_or("?"), QByteArray("A"));
        QCOMPARE(sb->readFile(sb->workDir() + QStringLiteral("/sub/b b.txt")).value_or("?"), QByteArray("B\0B", 3));
        QVERIFY(!sb->readFile(sb->workDir() + QStringLiteral("/none")).has_value());
        QCOMPARE(fake->count(QStringLiteral("^POST /toolbox/[^/]+/files/bulk-download$")), 3);
        QCOMPARE(fake->count(QStringLiteral("^GET /toolbox/[^/]+/files/download")), 0);
        verifyDestroyedAndCleaned(*sb);
    }

    void missingToolboxProxyUrlIsAskedFor()
    {
        fake->injectOption(QStringLiteral("no_toolbox_proxy_url"), true);
        RunControl control;
        auto sb = create(config(), control);
        QCOMPARE(fake->count(QStringLiteral("^GET /api/sandbox/[^/]+/toolbox-proxy-url$")), 1);
        QCOMPARE(sb->run(pythonCommand(QStringLiteral("print(1)")), {}, control).exitCode.value_or(-1), 0);
        verifyDestroyedAndCleaned(*sb);
    }

    // Labels name the app and the run; the memory setting becomes whole GiB; the network is blocked.
    void createCarriesLabelsAndMemory()
    {
        DaytonaProvider provider(config());
        SandboxOptions options;
        options.runId = QStringLiteral("run-labels-1");
        options.memoryLimitMb = 1500;
        RunControl control;
        auto sb = provider.create(options, control);
        const QJsonObject info = fake->sandboxes().value(sb->id()).toObject().value(QLatin1String("info")).toObject();
        const QJsonObject labels = info.value(QLatin1String("labels")).toObject();
        QCOMPARE(labels.value(QLatin1String("sandpad-app")).toString(), QStringLiteral("sandpad"));
        QCOMPARE(labels.value(QLatin1String("sandpad-run")).toString(), QStringLiteral("run-labels-1"));
        QCOMPARE(info.value(QLatin1String("memory")).toInt(), 2);
        QCOMPARE(info.value(QLatin1String("networkBlockAll")).toBool(), true);
        QCOMPARE(DaytonaConfig::memoryGiB(512), 1);
        QCOMPARE(DaytonaConfig::memoryGiB(4096), 4);
        // Listed by the app label, with its run, and removed with confirmation.
        auto ofThisRun = [&] {
            QList<RemoteProvider::Listing> mine;
            for (const auto& l : provider.listAppSandboxes())
                if (l.runId == options.runId)
                    mine << l;
            return mine;
        };
        const auto listed = ofThisRun();
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed.first().id, sb->id());
        const CleanupReport removed = provider.removeAppSandbox(sb->id());
        QVERIFY2(removed.confirmed, qPrintable(removed.detail));
        QVERIFY(ofThisRun().isEmpty());
        QVERIFY(fake->allCleaned());
        QVERIFY(provider.validate().toText().contains(QStringLiteral("GiB of memory")));
    }

    // The service made the sandbox but answered 500: the client finds it by its run label
    // instead of creating a second one.
    void acceptedCreateAnswered500MakesNoDuplicate()
    {
        fake->injectOption(QStringLiteral("create_accepted_then_500"), QJsonObject{{QStringLiteral("count"), 1}});
        RunControl control;
        auto sb = create(config(), control);
        QCOMPARE(fake->count(QStringLiteral("^POST /api/sandbox$")), 1);
        QCOMPARE(fake->count(QStringLiteral("^GET /api/sandbox$")), 1); // the lookup by label
        QCOMPARE(liveSandboxes(), 1);
        QCOMPARE(sb->run(pythonCommand(QStringLiteral("print(1)")), {}, control).exitCode.value_or(-1), 0);
        verifyDestroyedAndCleaned(*sb);
    }

    // A 500 that made nothing: the lookup finds none, so creating again is safe.
    void refusedCreateIsSentAgainAfterTheLookup()
    {
        fake->injectFault(QStringLiteral("^/api/sandbox$"), 503, 1, QStringLiteral("POST"));
        RunControl control;
        auto sb = create(config(), control);
        QCOMPARE(fake->count(QStringLiteral("^POST /api/sandbox$")), 2);
        QCOMPARE(fake->count(QStringLiteral("^GET /api/sandbox$")), 1);
        QCOMPARE(liveSandboxes(), 1);
        verifyDestroyedAndCleaned(*sb);
    }

    // A command is never run twice: a 5xx on exec is an error at once.
    void execIsNeverRetried()
    {
        RunControl control;
        auto sb = create(config(), control);
        fake->injectFault(QStringLiteral("/exec$"), 500, 1);
        SANDPAD_CHECK(verifyProviderError([&] { sb->run(pythonCommand(QStringLiteral("print(1)")), {}, control); },
                                          ProviderError::Kind::Unavailable, QStringLiteral("service unavailable"),
                                          "run should fail"));
        QCOMPARE(fake->count(QStringLiteral("^POST /toolbox/[^/]+/process/session/[^/]+/exec$")), 1);
        QCOMPARE(fake->count(QStringLiteral("^DELETE /toolbox/[^/]+/process/session/")), 1);
        verifyDestroyedAndCleaned(*sb);
    }

    // A Retry-After over 20 s is not waited out.
    void longRetryAfterFailsAtOnce()
    {
        fake->injectFault(QStringLiteral("^/api/sandbox$"), 429, 1, QStringLiteral("POST"), 45);
        RunControl control;
        QElapsedTimer clock;
        clock.start();
        SANDPAD_CHECK(verifyProviderError([&] { create(config(), control); }, ProviderError::Kind::RateLimited,
                                          QStringLiteral("rate limited by Daytona, try again in 45 s"),
                                          "create should fail"));
        QCOMPARE(fake->count(QStringLiteral("^POST /api/sandbox$")), 1);
        QCOMPARE(liveSandboxes(), 0);
    }

    void stuckPendingBuildEndsClearlyAndIsRemoved()
    {
        fake->injectOption(QStringLiteral("stuck_state"), QStringLiteral("pending_build"));
        DaytonaConfig c = config();
        c.readyTimeoutMs = 1500;
        RunControl control;
        SANDPAD_CHECK(verifyProviderError([&] { create(c, control); }, ProviderError::Kind::Unavailable,
                                          QStringLiteral("still state pending_build"), "create should fail"));
        QCOMPARE(fake->count(QStringLiteral("^DELETE /api/sandbox/")), 1);
        QVERIFY(fake->allCleaned());
    }

    void buildFailedGivesItsReason()
    {
        fake->injectOption(QStringLiteral("fail_state"),
                           QJsonObject{{QStringLiteral("state"), QStringLiteral("build_failed")},
                                       {QStringLiteral("reason"), QStringLiteral("snapshot layer missing")}});
        RunControl control;
        SANDPAD_CHECK(verifyProviderError([&] { create(config(), control); }, ProviderError::Kind::Unavailable,
                                          QStringLiteral("build_failed: snapshot layer missing"), "create should fail"));
        QVERIFY(fake->allCleaned());
    }

    // A logs answer cut mid-body is read again (a GET); cut every time, the run fails clearly.
    void cutLogAnswerIsReadAgain()
    {
        RunControl control;
        auto sb = create(config(), control);
        fake->injectOption(QStringLiteral("cut_logs"), QJsonObject{{QStringLiteral("count"), 1}});
        QByteArray out;
        QCOMPARE(sb->run(pythonCommand(QStringLiteral("print('whole')")), [&](OutputStream, const QByteArray& b) { out += b; },
                         control).exitCode.value_or(-1), 0);
        QCOMPARE(out, QByteArray("whole\n"));
        fake->injectOption(QStringLiteral("cut_logs"), QJsonObject{{QStringLiteral("count"), 100}});
        SANDPAD_CHECK(verifyProviderError([&] { sb->run(pythonCommand(QStringLiteral("print(2)")), {}, control); },
                                          ProviderError::Kind::Unavailable, QStringLiteral("dropped"),
                                          "run should fail"));
        verifyDestroyedAndCleaned(*sb);
    }

    // Through the Executor (real wrapper), every fault ends with a clear message, $0, nothing left
    // on the service, and the run's record closed.
    void faultsThroughTheExecutorCostNothingAndLeaveNothing()
    {
        TempDatabase data;
        QVERIFY2(data.open(), qPrintable(data.error()));
        UsageLedger ledger(data.db());
        RemoteAllocations allocations(data.db());
        DaytonaConfig c = config();
        c.basePackages = {};
        c.readyTimeoutMs = 1500;
        auto provider = std::make_shared<DaytonaProvider>(c);
        Executor executor(provider, &ledger);
        executor.setAllocations(&allocations);
        auto run = [&](const QString& code) {
            return executor.run(ExecutionRequest::adHoc(Language::Python, code, QStringLiteral("fault.py")));
        };
        struct Case {
            const char* what;
            std::function<void()> inject;
            QString reason; // empty: the run succeeds
        };
        const QList<Case> cases = {
            {"stuck in pending_build",
             [&] { fake->injectOption(QStringLiteral("stuck_state"), QStringLiteral("pending_build")); },
             QStringLiteral("still state pending_build")},
            {"build_failed",
             [&] { fake->injectOption(QStringLiteral("fail_state"),
                                      QJsonObject{{QStringLiteral("state"), QStringLiteral("build_failed")},
                                                  {QStringLiteral("reason"), QStringLiteral("no such snapshot")}}); },
             QStringLiteral("no such snapshot")},
            {"Retry-After 60 s",
             [&] { fake->injectFault(QStringLiteral("^/api/sandbox$"), 429, 1, QStringLiteral("POST"), 60); },
             QStringLiteral("try again in 60 s")},
            {"5xx on exec", [&] { fake->injectFault(QStringLiteral("/exec$"), 503, 1); },
             QStringLiteral("service unavailable")},
            {"5xx on upload, three times", [&] { fake->injectFault(QStringLiteral("/bulk-upload$"), 500, 3); },
             QStringLiteral("service unavailable")},
            {"5xx on the session", [&] { fake->injectFault(QStringLiteral("/process/session$"), 502, 3); },
             QStringLiteral("service unavailable")},
            {"create accepted, answered 500",
             [&] { fake->injectOption(QStringLiteral("create_accepted_then_500"), QJsonObject{{QStringLiteral("count"), 1}}); },
             QString()},
            {"5xx on every poll once",
             [&] { fake->injectFault(QStringLiteral("/command/[^/]+$"), 500, 1); }, QString()},
        };
        for (const Case& k : cases) {
            fake->reset();
            k.inject();
            const ExecutionResult r = run(QStringLiteral("print('fault')\n"));
            const QString where = QStringLiteral("%1: %2 / %3").arg(QLatin1String(k.what), runStatusName(r.status), r.reason);
            if (k.reason.isEmpty()) {
                QVERIFY2(r.status == RunStatus::Success, qPrintable(where));
                QCOMPARE(fake->count(QStringLiteral("^DELETE /api/sandbox/")), 1);
            } else {
                QVERIFY2(r.status == RunStatus::InfrastructureError, qPrintable(where));
                QVERIFY2(r.reason.contains(k.reason), qPrintable(where));
                QCOMPARE(r.costMicros, 0);
            }
            QVERIFY2(liveSandboxes() == 0, qPrintable(where));
            // A create that failed leaves its record for the reconciler, which finds nothing left.
            const ReconcileReport reconciled = OrphanReconciler(allocations, *provider).run();
            QVERIFY2(reconciled.removed == 0 && reconciled.problems.isEmpty(), qPrintable(where + reconciled.message()));
            QVERIFY2(allocations.open().isEmpty(), qPrintable(where));
        }
    }

    void cleanupTestCase() { verifyAllCleaned(); }
};

QTEST_GUILESS_MAIN(TestDaytonaProvider)
#include "test_daytona_provider.moc"
