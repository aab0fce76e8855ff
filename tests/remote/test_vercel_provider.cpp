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
#include <QJsonDocument>
#include <QtTest>
#include <memory>

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
} // namespace

class TestVercelProvider : public QObject, FakeProviderFixture<VercelProvider, fakeVercelConfig> {
    Q_OBJECT

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
        const ScriptRun run = runMainScript(*sb, control, QStringLiteral("x y"), QStringLiteral("r.txt"));
        QCOMPARE(run.outcome.exitCode.value_or(-1), 3);
        QVERIFY(!run.outcome.timedOut && !run.outcome.cancelled);
        QCOMPARE(run.out, QByteArray("out x y\n"));
        QCOMPARE(run.err, QByteArray("err\n"));
        QCOMPARE(sb->readFile(sb->workDir() + QStringLiteral("/out/r.txt")).value_or("?"), QByteArray("hi there"));
        const CleanupReport report = sb->destroy();
        QVERIFY2(report.confirmed, qPrintable(report.detail));
        QVERIFY(sb->destroy().confirmed); // twice is fine
        const qint64 clientMs = clock.elapsed();
        SANDPAD_CHECK(verifyAllCleaned());
        QCOMPARE(fake->count(QStringLiteral("^POST /v1/sandboxes$")), 1);
        QCOMPARE(fake->count(QStringLiteral("^POST .*/stop$")), 1);
        const int requests = fake->requests().size();
        qInfo("vercel: %d requests for create + base-package check + write + run + read + stop/confirm; "
              "%lld ms total, fake busy %.1f ms", requests, clientMs, fake->serverMs());
        QVERIFY(requests <= 12);
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
        QCOMPARE(fake->count(QStringLiteral("^POST /v1/sandboxes/[^/]+/cmd_[^/]+/kill$")), 1);
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
        QCOMPARE(fake->count(QStringLiteral("^POST /v1/sandboxes$")), 1);
    }

    void rateLimitIsRetriedHonouringRetryAfter() { rateLimitedCreateIsRetriedCase(QStringLiteral("/v1/sandboxes")); }

    void persistentServerErrorIsAClearError()
    {
        fake->injectFault(QStringLiteral("^/v1/sandboxes$"), 500, 3);
        RunControl control;
        QElapsedTimer clock;
        clock.start();
        SANDPAD_CHECK(verifyProviderError([&] { create(config(), control); }, ProviderError::Kind::Unavailable,
                                          QStringLiteral("service unavailable"), "create should fail"));
        QCOMPARE(fake->count(QStringLiteral("^POST /v1/sandboxes$")), 3); // first try + two retries
        QVERIFY(clock.elapsed() >= 1100); // the backoff (~400 + ~800 ms) was waited: a lower bound
        for (const auto& r : fake->requests()) // no sandbox was created
            QCOMPARE(r.toObject().value(QLatin1String("status")).toInt(), 500);
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
        QVERIFY(fake->count(QStringLiteral("^GET /v1/sandboxes/[^/]+$")) >= 1);
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
        const ValidationReport bad = VercelProvider(wrong).validate();
        QVERIFY(!bad.usable());
        QVERIFY2(bad.toText().contains(QStringLiteral("bad credentials")), qPrintable(bad.toText()));
        QVERIFY(!bad.toText().contains(wrong.token));

        VercelConfig unreachable = config();
        unreachable.apiUrl = QStringLiteral("http://127.0.0.1:1");
        const ValidationReport down = VercelProvider(unreachable).validate();
        QVERIFY(!down.usable());
        QVERIFY2(down.toText().contains(QStringLiteral("unavailable")), qPrintable(down.toText()));
    }

    void cleanupTestCase() { verifyAllCleaned(); }
};

QTEST_GUILESS_MAIN(TestVercelProvider)
#include "test_vercel_provider.moc"
