// VercelProvider / VercelSandbox against tests/fakes/fake_vercel.py (real commands in bwrap).
#include "FakeProviderConfigs.h"
#include "FakeProviderFixture.h"
#include "TestChecks.h"

#include "core/providers/http/HttpClient.h"
#include "core/providers/http/TarGzWriter.h"
#include "core/providers/vercel/VercelProvider.h"
#include "core/providers/vercel/VercelSandbox.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QRegularExpression>
#include <QJsonDocument>
#include <QtTest>
#include <memory>
#include <vector>

using namespace sandpad;

namespace {
QString makeJwt(const QJsonObject& claims)
{
    auto b64 = [](const QByteArray& b) {
        return QString::fromLatin1(b.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    };
    return b64(R"({"alg":"RS256","typ":"JWT"})") + QLatin1Char('.') +
           b64(QJsonDocument(claims).toJson(QJsonDocument::Compact)) + QStringLiteral(".c2lnbmF0dXJl");
}

const QString kOidc = makeJwt({{QStringLiteral("owner_id"), QStringLiteral("team_fake")},
                               {QStringLiteral("project_id"), QStringLiteral("prj_fake")},
                               {QStringLiteral("exp"), 4102444800.0}});
// The first logged request matching "METHOD path" (a regular expression), or {}.
QJsonObject firstRequest(const QJsonArray& log, const QString& pattern)
{
    const QRegularExpression re(pattern);
    for (const auto& v : log) {
        const QJsonObject e = v.toObject();
        if (re.match(e.value(QLatin1String("method")).toString() + QLatin1Char(' ') + e.value(QLatin1String("path")).toString()).hasMatch())
            return e;
    }
    return {};
}
} // namespace

class TestVercelProvider : public QObject, FakeProviderFixture<VercelProvider, fakeVercelConfig> {
    Q_OBJECT

    // What the fake still holds: live sessions, named sandboxes, snapshots.
    int notDestroyed()
    {
        const QJsonObject all = fake->sandboxes();
        int n = 0;
        for (auto it = all.begin(); it != all.end(); ++it)
            n += it.value().toObject().value(QLatin1String("destroyed")).toBool() ? 0 : 1;
        return n;
    }

private slots:
    void initTestCase()
    {
        startFake(QStringLiteral("fake_vercel.py"), QStringList{QStringLiteral("--oidc-token"), kOidc});
    }
    void init() { fake->reset(); }

    void tarGzRoundTripsThroughTheFake()
    {
        // The fake unpacks with Python's tarfile/gzip: a foreign reader of our writer.
        RunControl control;
        auto sb = create(config(), control);
        const QString deep = sb->workDir() + QStringLiteral("/") + QString(60, QLatin1Char('d')) +
                             QStringLiteral("/") + QString(70, QLatin1Char('e')) + QStringLiteral("/file.txt");
        QByteArray big(300000, '\0');
        for (int i = 0; i < big.size(); ++i)
            big[i] = char((i * 7919) % 251);
        sb->writeFiles({{sb->workDir() + QStringLiteral("/a.txt"), "hello", 0644},
                        {deep, "deep", 0600},
                        {QStringLiteral("/tmp/big.bin"), big, 0755}});
        QCOMPARE(sb->readFile(sb->workDir() + QStringLiteral("/a.txt")).value_or("?"), QByteArray("hello"));
        QCOMPARE(sb->readFile(deep).value_or("?"), QByteArray("deep"));
        QCOMPARE(sb->readFile(QStringLiteral("/tmp/big.bin")).value_or("?"), big);
        QVERIFY(!sb->readFile(sb->workDir() + QStringLiteral("/missing.txt")).has_value());
        QByteArray out;
        const auto outcome = sb->run(pythonCommand(QStringLiteral("import os; print(oct(os.stat('/tmp/big.bin').st_mode & 0o777))")),
                                     [&](OutputStream, const QByteArray& b) { out += b; }, control);
        QCOMPARE(outcome.exitCode.value_or(-1), 0);
        QCOMPARE(out.trimmed(), QByteArray("0o755"));
        QVERIFY(sb->destroy().confirmed);
        QCOMPARE(TarGzWriter::crc32("123456789"), quint32(0xcbf43926));
    }

    void createRunReadDestroy()
    {
        RunControl control;
        QElapsedTimer clock;
        clock.start();
        auto sb = create(config(), control);
        QCOMPARE(sb->workDir(), QStringLiteral("/vercel/sandbox/sandpad"));
        SANDPAD_CHECK(verifyMainScriptRun(*sb, control, QStringLiteral("x y"), QStringLiteral("r.txt")));
        const CleanupReport report = sb->destroy();
        QVERIFY2(report.confirmed, qPrintable(report.detail));
        QVERIFY(sb->destroy().confirmed); // twice is fine
        const qint64 clientMs = clock.elapsed();
        SANDPAD_CHECK(verifyAllCleaned()); // no VM, no named sandbox, no snapshot left
        // v2 as the SDK speaks it: one create, the session's routes, delete + a GET that says 404.
        QCOMPARE(fake->count(QStringLiteral("^POST /v2/sandboxes$")), 1);
        QCOMPARE(fake->count(QStringLiteral("^POST /v2/sandboxes/sessions/[^/]+/fs/write$")), 1);
        QCOMPARE(fake->count(QStringLiteral("^POST /v2/sandboxes/sessions/[^/]+/cmd$")), 2); // packages + the run
        QCOMPARE(fake->count(QStringLiteral("^DELETE /v2/sandboxes/[^/]+$")), 1);
        QCOMPARE(fake->count(QStringLiteral("^GET /v2/sandboxes/[^/]+$")), 1);
        QCOMPARE(fake->count(QStringLiteral("/v1/|/stop$|/logs$")), 0);
        const QJsonArray log = fake->requests();
        const QJsonObject create = firstRequest(log, QStringLiteral("^POST /v2/sandboxes$")).value(QLatin1String("body")).toObject();
        QCOMPARE(create.value(QLatin1String("persistent")), QJsonValue(false));
        QCOMPARE(create.value(QLatin1String("networkPolicy")).toObject().value(QLatin1String("mode")).toString(), QStringLiteral("deny-all"));
        QCOMPARE(create.value(QLatin1String("resources")).toObject().value(QLatin1String("vcpus")).toInt(), 1); // 1024 MB
        const QJsonObject tags = create.value(QLatin1String("tags")).toObject();
        QCOMPARE(tags.value(QLatin1String("sandpad-app")).toString(), QStringLiteral("sandpad"));
        QVERIFY(!tags.value(QLatin1String("sandpad-run")).toString().isEmpty());
        const QJsonObject del = firstRequest(log, QStringLiteral("^DELETE "));
        QVERIFY2(del.value(QLatin1String("query")).toString().contains(QStringLiteral("deleteOrphanSnapshots=true")),
                 qPrintable(del.value(QLatin1String("query")).toString()));
        const int requests = log.size();
        qInfo("vercel: %d requests for create + base-package check + write + run + read + delete/confirm; "
              "%lld ms total, fake busy %.1f ms", requests, clientMs, fake->serverMs());
        QCOMPARE(requests, 7);
    }

    void outputIsStreamedBeforeExit() { outputIsStreamedBeforeExitCase(); }

    void timeoutKillsTheCommand()
    {
        RunControl control;
        auto sb = create(config(), control);
        QByteArray out;
        const auto outcome = sb->run(pythonCommand(QStringLiteral("import time\nprint('start', flush=True)\ntime.sleep(60)"), 1500),
                                     [&](OutputStream, const QByteArray& b) { out += b; }, control);
        QVERIFY(outcome.timedOut);
        QVERIFY(!outcome.exitCode);
        QCOMPARE(out, QByteArray("start\n"));
        QCOMPARE(fake->count(QStringLiteral("^POST /v2/sandboxes/sessions/[^/]+/cmd/cmd_[^/]+/kill$")), 1);
        verifyDestroyedAndCleaned(*sb);
    }

    void cancellationAbortsTheRun()
    {
        RunControl control;
        auto sb = create(config(), control);
        SANDPAD_CHECK(verifyCancellationAbortsTheRun(*sb, control));
        QCOMPARE(fake->count(QStringLiteral("/kill$")), 1);
        SANDPAD_CHECK(verifyDestroyedAndCleaned(*sb)); // cleanup still works after cancel
        // Cancelled before create: nothing is created.
        QVERIFY_THROWS_EXCEPTION(ProviderError, create(config(), control));
        QCOMPARE(fake->count(QStringLiteral("^POST /v2/sandboxes$")), 1);
    }

    void rateLimitIsRetriedHonouringRetryAfter()
    {
        rateLimitedCreateIsRetriedCase(QStringLiteral("/v2/sandboxes"));
        // A 429 is refused before anything is made: no lookup for an accepted create.
        QCOMPARE(fake->count(QStringLiteral("^GET /v2/sandboxes$")), 0);
    }

    void longRetryAfterIsReportedNotWaited()
    {
        // The SDK gives up on a Retry-After over 20 s (with-retry.js); so do we, saying when to retry.
        fake->injectFault(QStringLiteral("^/v2/sandboxes$"), 429, 1, QStringLiteral("POST"), 90);
        RunControl control;
        SANDPAD_CHECK(verifyProviderError([&] { create(config(), control); }, ProviderError::Kind::RateLimited,
                                          QStringLiteral("rate limited, try again in 90 s"), "create should fail"));
        QCOMPARE(fake->count(QStringLiteral("^POST /v2/sandboxes$")), 1);
        // The same during a run.
        auto sb = create(config(), control);
        fake->injectFault(QStringLiteral("/cmd$"), 429, 1, QStringLiteral("POST"), 45);
        SANDPAD_CHECK(verifyProviderError([&] { sb->run(pythonCommand(QStringLiteral("print(1)")), {}, control); },
                                          ProviderError::Kind::RateLimited, QStringLiteral("try again in 45 s"),
                                          "the run should fail"));
        SANDPAD_CHECK(verifyDestroyedAndCleaned(*sb));
    }

    void acceptedCreateAnswered5xxLeavesNoDuplicate()
    {
        // The service made the sandbox but answered 500: a blind retry (the SDK's) would make a
        // second one. We look for the run's tag first and use what was made.
        fake->injectOption(QStringLiteral("create_accepted_then_fail"),
                           QJsonObject{{QStringLiteral("count"), 1}, {QStringLiteral("status"), 500}});
        RunControl control;
        auto sb = create(config(), control);
        QCOMPARE(fake->count(QStringLiteral("^POST /v2/sandboxes$")), 1);
        QCOMPARE(fake->count(QStringLiteral("^GET /v2/sandboxes$")), 1); // the tag lookup
        QCOMPARE(notDestroyed(), 2); // one session + its named sandbox: one sandbox
        QByteArray out;
        QCOMPARE(sb->run(pythonCommand(QStringLiteral("print(5)")), [&](OutputStream, const QByteArray& b) { out += b; }, control)
                     .exitCode.value_or(-1), 0);
        QCOMPARE(out, QByteArray("5\n"));
        SANDPAD_CHECK(verifyDestroyedAndCleaned(*sb));
    }

    void persistentServerErrorIsAClearError()
    {
        fake->injectFault(QStringLiteral("^/v2/sandboxes$"), 500, 3, QStringLiteral("POST"));
        const int before = fake->sandboxes().size();
        RunControl control;
        QElapsedTimer clock;
        clock.start();
        SANDPAD_CHECK(verifyProviderError([&] { create(config(), control); }, ProviderError::Kind::Unavailable,
                                          QStringLiteral("service unavailable"), "create should fail"));
        QCOMPARE(fake->count(QStringLiteral("^POST /v2/sandboxes$")), 3); // first try + two retries
        QCOMPARE(fake->count(QStringLiteral("^GET /v2/sandboxes$")), 3);  // each 500 may hide a sandbox
        QVERIFY(clock.elapsed() >= 1100); // the backoff (~400 + ~800 ms) was waited: a lower bound
        QCOMPARE(fake->sandboxes().size(), before); // none was created
    }

    void serverErrorDuringRunIsRetried()
    {
        RunControl control;
        auto sb = create(config(), control);
        fake->injectFault(QStringLiteral("/cmd$"), 503, 1);
        QByteArray out;
        const auto outcome = sb->run(pythonCommand(QStringLiteral("print(6*7)")), [&](OutputStream, const QByteArray& b) { out += b; }, control);
        QCOMPARE(outcome.exitCode.value_or(-1), 0);
        QCOMPARE(out, QByteArray("42\n"));
        QVERIFY(sb->destroy().confirmed);
    }

    void refusedCommandKeepsTheServicesMessage()
    {
        RunControl control;
        auto sb = create(config(), control);
        fake->injectFault(QStringLiteral("/cmd$"), 402, 1, QStringLiteral("POST"));
        SANDPAD_CHECK(verifyProviderError([&] { sb->run(pythonCommand(QStringLiteral("print(1)")), {}, control); },
                                          ProviderError::Kind::PaymentRequired,
                                          QStringLiteral("(HTTP 402): payment_required: injected fault"), "the run should fail"));
        SANDPAD_CHECK(verifyDestroyedAndCleaned(*sb));
    }

    void droppedLogStreamIsAnInfrastructureError()
    {
        fake->injectOption(QStringLiteral("cut_logs"),
                           QJsonObject{{QStringLiteral("count"), 1}, {QStringLiteral("after_ms"), 300}});
        RunControl control;
        auto sb = create(config(), control);
        SANDPAD_CHECK(verifyProviderError(
            [&] {
                sb->run(pythonCommand(QStringLiteral("import time\nfor i in range(20):\n print(i, flush=True); time.sleep(0.1)")),
                        {}, control);
            },
            ProviderError::Kind::Unavailable, QStringLiteral("log stream dropped"),
            "a cut stream must not look like a normal end"));
        verifyDestroyedAndCleaned(*sb);
    }

    void unconfirmedStopIsReported()
    {
        fake->injectOption(QStringLiteral("stop_never_confirms"), true);
        RunControl control;
        auto sb = create(config(), control);
        QElapsedTimer clock;
        clock.start();
        const CleanupReport report = sb->destroy();
        QVERIFY(!report.confirmed);
        QVERIFY2(report.detail.contains(QStringLiteral("not confirmed")) &&
                     report.detail.contains(QStringLiteral("stopping")),
                 qPrintable(report.detail));
        QVERIFY(clock.elapsed() >= 1900); // the 2 s confirm timeout was waited out (a lower bound)
    }

    void slowCreateIsWaitedFor()
    {
        fake->injectOption(QStringLiteral("create_delay"), 1.0);
        RunControl control;
        auto sb = create(config(), control);
        QVERIFY(fake->count(QStringLiteral("^GET /v2/sandboxes/[^/]+$")) >= 1); // polled while `pending`
        QByteArray out;
        QCOMPARE(sb->run(pythonCommand(QStringLiteral("print(1)")), [&](OutputStream, const QByteArray& b) { out += b; }, control)
                     .exitCode.value_or(-1), 0);
        QVERIFY(sb->destroy().confirmed);
    }

    void badTokenIsNamedAndRedacted()
    {
        VercelConfig c = config();
        c.token = QStringLiteral("secret_wrong_token_987");
        SANDPAD_CHECK(verifyBadCredentialsRefused(c, c.token));
        // Any message that quotes a secret (e.g. an echoing proxy) is scrubbed.
        HttpClient http(QStringLiteral("Vercel"));
        http.addSecret(c.token);
        HttpResponse resp;
        resp.status = 403;
        resp.body = R"({"error":{"code":"forbidden","message":"token secret_wrong_token_987 invalid"}})";
        const QString msg = http.errorFor(resp, QStringLiteral("x")).message();
        QVERIFY(!msg.contains(c.token));
        QVERIFY(msg.contains(QStringLiteral("[redacted]")));
        QVERIFY(!http.redact(QStringLiteral("Authorization: Bearer abc.def")).contains(QStringLiteral("abc.def")));
    }

    void missingBasePackageIsReportedOnStderr()
    {
        VercelConfig c = config();
        c.basePackages = {QStringLiteral("numpy"), QStringLiteral("sandpad_no_such_package")};
        RunControl control;
        auto sb = create(c, control);
        auto* vs = static_cast<VercelSandbox*>(sb.get());
        QVERIFY(vs->packageNote().contains(QStringLiteral("could not be installed")));
        QByteArray err;
        sb->run(pythonCommand(QStringLiteral("pass")), [&](OutputStream s, const QByteArray& b) {
            if (s == OutputStream::Stderr)
                err += b;
        }, control);
        QVERIFY(err.contains("sandpad_no_such_package"));
        QVERIFY(sb->destroy().confirmed);
    }

    void javascriptRuntime()
    {
        SANDPAD_CHECK(verifyJavaScriptPrintsTwo(QStringLiteral("console.log(1+1)")));
        QVERIFY(fake->requests().at(0).toObject().value(QLatin1String("status")).toInt() == 200);
    }

    void validation()
    {
        auto level = [](const ValidationReport& r, const QString& name) {
            for (const auto& i : r.items)
                if (i.name == name)
                    return int(i.level);
            return -1;
        };
        const ValidationReport ok = VercelProvider(config()).validate();
        QVERIFY2(ok.usable(), qPrintable(ok.toText()));
        QCOMPARE(level(ok, QStringLiteral("API")), int(ValidationItem::Level::Ok));
        QCOMPARE(level(ok, QStringLiteral("runtime")), int(ValidationItem::Level::Ok));

        VercelConfig oidc = config();
        oidc.token.clear();
        oidc.teamId.clear();
        oidc.projectId.clear();
        oidc.oidcToken = kOidc;
        QCOMPARE(oidc.effectiveTeamId(), QStringLiteral("team_fake"));
        QCOMPARE(oidc.effectiveProjectId(), QStringLiteral("prj_fake"));
        const ValidationReport viaOidc = VercelProvider(oidc).validate();
        QVERIFY2(viaOidc.usable(), qPrintable(viaOidc.toText()));
        QVERIFY(viaOidc.toText().contains(QStringLiteral("team team_fake, project prj_fake")));
        QVERIFY(!viaOidc.toText().contains(kOidc));
        RunControl control;
        QVERIFY(create(oidc, control)->destroy().confirmed); // the OIDC token really works

        VercelConfig expired = oidc;
        expired.oidcToken = makeJwt({{QStringLiteral("owner_id"), QStringLiteral("team_fake")},
                                     {QStringLiteral("project_id"), QStringLiteral("prj_fake")},
                                     {QStringLiteral("exp"), 1000000000.0}});
        QVERIFY(VercelProvider(expired).validate().toText().contains(QStringLiteral("expired")));
        QVERIFY(!VercelProvider(expired).validate().usable());

        VercelConfig malformed = oidc;
        malformed.oidcToken = QStringLiteral("not-a-jwt");
        QVERIFY(VercelProvider(malformed).validate().toText().contains(QStringLiteral("not a well-formed JWT")));

        VercelConfig none;
        none.apiUrl = fake->base();
        QCOMPARE(level(VercelProvider(none).validate(), QStringLiteral("credentials")), int(ValidationItem::Level::Error));
        QVERIFY_THROWS_EXCEPTION(ProviderError, create(none, control));

        VercelConfig wrong = config();
        wrong.token = QStringLiteral("wrong_token_5555");
        SANDPAD_CHECK(verifyBadCredentialsFailValidation(wrong, wrong.token));

        VercelConfig unreachable = config();
        unreachable.apiUrl = QStringLiteral("http://127.0.0.1:1");
        const ValidationReport down = VercelProvider(unreachable).validate();
        QVERIFY(!down.usable());
        QVERIFY2(down.toText().contains(QStringLiteral("unavailable")), qPrintable(down.toText()));
    }

    void abortedFailsAtOnce_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<double>("delay");
        QTest::newRow("aborted in the create answer") << QStringLiteral("aborted") << 0.0;
        QTest::newRow("aborted while pending") << QStringLiteral("aborted") << 0.3;
        QTest::newRow("snapshotting") << QStringLiteral("snapshotting") << 0.0;
        QTest::newRow("failed") << QStringLiteral("failed") << 0.3;
    }
    void abortedFailsAtOnce()
    {
        QFETCH(QString, status);
        QFETCH(double, delay);
        fake->injectOption(QStringLiteral("create_status"), status);
        fake->injectOption(QStringLiteral("create_delay"), delay);
        RunControl control;
        QElapsedTimer clock;
        clock.start();
        SANDPAD_CHECK(verifyProviderError([&] { create(config(), control); }, ProviderError::Kind::Unavailable,
                                          QStringLiteral("did not start (status %1").arg(status), "create should fail"));
        QVERIFY(clock.elapsed() < 30000); // not the 60 s ready timeout (a generous upper bound)
        QCOMPARE(fake->count(QStringLiteral("^DELETE /v2/sandboxes/[^/]+$")), 1); // cleaned up
        SANDPAD_CHECK(verifyAllCleaned());
    }

    void faultOnEveryStepEndsCleanly_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("count");
        QTest::addColumn<bool>("fails");
        const QList<QPair<QString, QString>> steps{
            {QStringLiteral("POST"), QStringLiteral("^/v2/sandboxes$")},
            {QStringLiteral("POST"), QStringLiteral("/fs/write$")},
            {QStringLiteral("POST"), QStringLiteral("/cmd$")},
            {QStringLiteral("POST"), QStringLiteral("/fs/read$")},
            {QStringLiteral("DELETE"), QStringLiteral("^/v2/sandboxes/[^/]+$")},
            {QStringLiteral("GET"), QStringLiteral("^/v2/sandboxes/[^/]+$")}};
        for (const auto& [method, path] : steps)
            for (int status : {429, 503}) {
                QTest::addRow("%s %s once %d", qPrintable(method), qPrintable(path), status)
                    << method << path << status << 1 << false;
                // Refused every time: a clear error. (A delete refused every time leaves the sandbox
                // for the orphan check; that case is unconfirmedStopIsReported.)
                if (method != QLatin1String("DELETE") && method != QLatin1String("GET"))
                    QTest::addRow("%s %s always %d", qPrintable(method), qPrintable(path), status)
                        << method << path << status << 3 << true;
            }
    }
    void faultOnEveryStepEndsCleanly()
    {
        QFETCH(QString, method);
        QFETCH(QString, path);
        QFETCH(int, status);
        QFETCH(int, count);
        QFETCH(bool, fails);
        fake->injectFault(path, status, count, method, status == 429 ? 1 : 0);
        RunControl control;
        QString error;
        CleanupReport cleanup{true, {}};
        try {
            auto sb = create(config(), control);
            const ScriptRun run = runMainScript(*sb, control, QStringLiteral("a"), QStringLiteral("f.txt"));
            QCOMPARE(run.outcome.exitCode.value_or(-1), 3);
            QCOMPARE(run.out, QByteArray("out a\n"));
            QCOMPARE(sb->readFile(sb->workDir() + QStringLiteral("/out/f.txt")).value_or("?"), QByteArray("hi there"));
            cleanup = sb->destroy();
        } catch (const ProviderError& e) {
            error = e.message();
        }
        if (fails) {
            QVERIFY2(error.contains(status == 429 ? QStringLiteral("rate limited") : QStringLiteral("service unavailable")),
                     qPrintable(error));
        } else {
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
        QVERIFY2(cleanup.confirmed, qPrintable(cleanup.detail));
        SANDPAD_CHECK(verifyAllCleaned());
    }

    void networkPolicyFollowsTheSetting()
    {
        // deny-all reaches the service, and the fake enforces it: the sandbox cannot reach even
        // the fake's own port on the host, which it can with allow-all (the network setting on).
        const QString code = QStringLiteral(
            "import socket\ntry:\n    socket.create_connection(('127.0.0.1', %1), timeout=5)\n    print('connected')\n"
            "except OSError:\n    print('refused')\n").arg(fake->port());
        for (bool allow : {false, true}) {
            fake->reset();
            SandboxOptions options;
            options.allowNetwork = allow;
            options.deadlineSeconds = 60;
            options.runId = QStringLiteral("net-%1").arg(allow);
            RunControl control;
            auto sb = VercelProvider(config()).create(options, control);
            const QJsonObject body = firstRequest(fake->requests(), QStringLiteral("^POST /v2/sandboxes$")).value(QLatin1String("body")).toObject();
            QCOMPARE(body.value(QLatin1String("networkPolicy")).toObject().value(QLatin1String("mode")).toString(),
                     allow ? QStringLiteral("allow-all") : QStringLiteral("deny-all"));
            QCOMPARE(body.value(QLatin1String("tags")).toObject().value(QLatin1String("sandpad-run")).toString(), options.runId);
            QByteArray out;
            QCOMPARE(sb->run(pythonCommand(code), [&](OutputStream, const QByteArray& b) { out += b; }, control).exitCode.value_or(-1), 0);
            QCOMPARE(out, allow ? QByteArray("connected\n") : QByteArray("refused\n"));
            SANDPAD_CHECK(verifyDestroyedAndCleaned(*sb));
        }
    }

    void memorySettingMapsToVcpus()
    {
        QCOMPARE(VercelConfig::vcpusFor(512), 1);
        QCOMPARE(VercelConfig::vcpusFor(2048), 1);
        QCOMPARE(VercelConfig::vcpusFor(2049), 2);
        QCOMPARE(VercelConfig::vcpusFor(5000), 4); // 3 is not offered: 1 or even
        QCOMPARE(VercelConfig::vcpusFor(65536), 8);
        SandboxOptions options;
        options.memoryLimitMb = 6000;
        options.runId = QStringLiteral("mem");
        RunControl control;
        auto sb = VercelProvider(config()).create(options, control);
        const QJsonObject body = firstRequest(fake->requests(), QStringLiteral("^POST /v2/sandboxes$")).value(QLatin1String("body")).toObject();
        QCOMPARE(body.value(QLatin1String("resources")).toObject().value(QLatin1String("vcpus")).toInt(), 4);
        SANDPAD_CHECK(verifyDestroyedAndCleaned(*sb));
        VercelConfig c = config();
        c.memoryMb = 6000;
        const QString text = VercelProvider(c).validate().toText();
        QVERIFY2(text.contains(QStringLiteral("each run gets 4 vCPUs and 8 GB (memory setting 6000 MB")), qPrintable(text));
    }

    void listAndRemoveAppSandboxes()
    {
        // Three sandboxes left by runs that did not finish; the list answers two per page.
        fake->injectOption(QStringLiteral("list_page_size"), 2);
        VercelProvider provider(config());
        std::vector<std::unique_ptr<Sandbox>> left;
        RunControl control;
        for (const QString& run : {QStringLiteral("r1"), QStringLiteral("r2"), QStringLiteral("r3")}) {
            SandboxOptions options;
            options.runId = run;
            options.language = Language::JavaScript; // no base-package check
            left.push_back(provider.create(options, control));
        }
        QList<RemoteProvider::Listing> listed = provider.listAppSandboxes();
        // (An earlier case's delete that never confirms may still be listed: not one of these runs.)
        listed.removeIf([](const RemoteProvider::Listing& l) { return !l.runId.startsWith(QLatin1Char('r')); });
        QCOMPARE(listed.size(), 3);
        QStringList runs;
        for (const auto& l : listed) {
            runs << l.runId;
            QCOMPARE(l.state, QStringLiteral("running"));
        }
        runs.sort();
        QCOMPARE(runs, (QStringList{QStringLiteral("r1"), QStringLiteral("r2"), QStringLiteral("r3")}));
        QCOMPARE(fake->count(QStringLiteral("^GET /v2/sandboxes$")), 2); // followed pagination.next
        for (const auto& l : listed) {
            const CleanupReport r = provider.removeAppSandbox(l.id);
            QVERIFY2(r.confirmed, qPrintable(r.detail));
        }
        for (const auto& l : provider.listAppSandboxes())
            QVERIFY2(!l.runId.startsWith(QLatin1Char('r')), qPrintable(l.runId));
        SANDPAD_CHECK(verifyAllCleaned());
        // Removing one already gone is confirmed too.
        QVERIFY(provider.removeAppSandbox(listed.first().id).confirmed);
        for (auto& sb : left)
            QVERIFY(sb->destroy().confirmed); // their own cleanup: already gone
    }

    void validationChecksTheProject()
    {
        VercelConfig c = config();
        c.projectId = QStringLiteral("prj_someone_else");
        const ValidationReport r = VercelProvider(c).validate();
        QVERIFY(!r.usable());
        QVERIFY2(r.toText().contains(QStringLiteral("Project not found")), qPrintable(r.toText()));
        QCOMPARE(fake->count(QStringLiteral("^GET /v2/sandboxes$")), 1);
        const QJsonObject probe = firstRequest(fake->requests(), QStringLiteral("^GET /v2/sandboxes$"));
        QVERIFY2(probe.value(QLatin1String("query")).toString().contains(QStringLiteral("limit=1")),
                 qPrintable(probe.value(QLatin1String("query")).toString()));
    }

    void cleanupTestCase() { verifyAllCleaned(); }
};

QTEST_GUILESS_MAIN(TestVercelProvider)
#include "test_vercel_provider.moc"
