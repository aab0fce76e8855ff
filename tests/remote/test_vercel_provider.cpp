// VercelProvider / VercelSandbox against tests/fakes/fake_vercel.py (real commands in bwrap).
#include "FakeServer.h"

#include "providers/ProviderError.h"
#include "providers/RunControl.h"
#include "providers/http/HttpClient.h"
#include "providers/http/TarGzWriter.h"
#include "providers/vercel/VercelProvider.h"
#include "providers/vercel/VercelSandbox.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QtTest>
#include <memory>
#include <thread>

using namespace sandpad;

namespace {
const QString kToken = QStringLiteral("vercel_test_token_123");

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

class TestVercelProvider : public QObject {
    Q_OBJECT

    std::unique_ptr<FakeServer> fake;

    VercelConfig config() const
    {
        VercelConfig c;
        c.apiUrl = fake->base();
        c.token = kToken;
        c.teamId = QStringLiteral("team_fake");
        c.projectId = QStringLiteral("prj_fake");
        c.basePackages = {QStringLiteral("numpy"), QStringLiteral("matplotlib")};
        c.confirmTimeoutMs = 2000;
        return c;
    }

    std::unique_ptr<Sandbox> create(const VercelConfig& c, RunControl& control, Language lang = Language::Python)
    {
        VercelProvider provider(c);
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
        fake = std::make_unique<FakeServer>(QStringLiteral("fake_vercel.py"),
                                            QStringList{QStringLiteral("--oidc-token"), kOidc});
        QVERIFY2(fake->started(), "fake_vercel.py did not start");
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
        const auto outcome = sb->run(py(QStringLiteral("import os; print(oct(os.stat('/tmp/big.bin').st_mode & 0o777))")),
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
        sb->writeFiles({{sb->workDir() + QStringLiteral("/main.py"),
                         "import sys, os\nprint('out', sys.argv[1])\nprint('err', file=sys.stderr)\n"
                         "os.makedirs('out', exist_ok=True)\nopen('out/r.txt','w').write(os.environ['GREETING'])\n"
                         "sys.exit(3)\n", 0644}});
        SandboxCommand cmd;
        cmd.argv = {sb->interpreter(Language::Python), QStringLiteral("main.py"), QStringLiteral("x y")};
        cmd.cwd = sb->workDir();
        cmd.env = {{QStringLiteral("GREETING"), QStringLiteral("hi there")}};
        QByteArray out, err;
        const auto outcome = sb->run(cmd, [&](OutputStream s, const QByteArray& b) {
            (s == OutputStream::Stdout ? out : err) += b;
        }, control);
        QCOMPARE(outcome.exitCode.value_or(-1), 3);
        QVERIFY(!outcome.timedOut && !outcome.cancelled);
        QCOMPARE(out, QByteArray("out x y\n"));
        QCOMPARE(err, QByteArray("err\n"));
        QCOMPARE(sb->readFile(sb->workDir() + QStringLiteral("/out/r.txt")).value_or("?"), QByteArray("hi there"));
        const CleanupReport report = sb->destroy();
        QVERIFY2(report.confirmed, qPrintable(report.detail));
        QVERIFY(sb->destroy().confirmed); // twice is fine
        const qint64 clientMs = clock.elapsed();
        QString why;
        QVERIFY2(fake->allCleaned(&why), qPrintable(why));
        QCOMPARE(fake->count(QStringLiteral("^POST /v1/sandboxes$")), 1);
        QCOMPARE(fake->count(QStringLiteral("^POST .*/stop$")), 1);
        const int requests = fake->requests().size();
        qInfo("vercel: %d requests for create + base-package check + write + run + read + stop/confirm; "
              "%lld ms total, fake busy %.1f ms", requests, clientMs, fake->serverMs());
        QVERIFY(requests <= 12);
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

    void timeoutKillsTheCommand()
    {
        RunControl control;
        auto sb = create(config(), control);
        QElapsedTimer clock;
        clock.start();
        QByteArray out;
        const auto outcome = sb->run(py(QStringLiteral("import time\nprint('start', flush=True)\ntime.sleep(60)"), 1500),
                                     [&](OutputStream, const QByteArray& b) { out += b; }, control);
        QVERIFY(outcome.timedOut);
        QVERIFY(!outcome.exitCode);
        QVERIFY2(clock.elapsed() < 8000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(out, QByteArray("start\n"));
        QCOMPARE(fake->count(QStringLiteral("^POST /v1/sandboxes/[^/]+/cmd_[^/]+/kill$")), 1);
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
        QCOMPARE(fake->count(QStringLiteral("/kill$")), 1);
        QVERIFY(sb->destroy().confirmed); // cleanup still works after cancel
        QVERIFY(fake->allCleaned());
        // Cancelled before create: nothing is created.
        QVERIFY_THROWS_EXCEPTION(ProviderError, create(config(), control));
        QCOMPARE(fake->count(QStringLiteral("^POST /v1/sandboxes$")), 1);
    }

    void rateLimitIsRetriedHonouringRetryAfter()
    {
        fake->inject({{QStringLiteral("faults"),
                       QJsonArray{QJsonObject{{QStringLiteral("method"), QStringLiteral("POST")},
                                              {QStringLiteral("path"), QStringLiteral("^/v1/sandboxes$")},
                                              {QStringLiteral("status"), 429},
                                              {QStringLiteral("retry_after"), 1},
                                              {QStringLiteral("count"), 1}}}}});
        RunControl control;
        QElapsedTimer clock;
        clock.start();
        auto sb = create(config(), control);
        QVERIFY(clock.elapsed() >= 950);
        QCOMPARE(fake->count(QStringLiteral("^POST /v1/sandboxes$")), 2);
        QVERIFY(sb->destroy().confirmed);
    }

    void persistentServerErrorIsAClearError()
    {
        fake->inject({{QStringLiteral("faults"),
                       QJsonArray{QJsonObject{{QStringLiteral("path"), QStringLiteral("^/v1/sandboxes$")},
                                              {QStringLiteral("status"), 500}, {QStringLiteral("count"), 3}}}}});
        RunControl control;
        QElapsedTimer clock;
        clock.start();
        try {
            create(config(), control);
            QFAIL("create should fail");
        } catch (const ProviderError& e) {
            QCOMPARE(e.kind(), ProviderError::Kind::Unavailable);
            QVERIFY2(e.message().contains(QStringLiteral("service unavailable")), qPrintable(e.message()));
        }
        QCOMPARE(fake->count(QStringLiteral("^POST /v1/sandboxes$")), 3); // first try + two retries
        QVERIFY(clock.elapsed() >= 1100);                                  // ~400 ms + ~800 ms
        for (const auto& r : fake->requests()) // no sandbox was created
            QCOMPARE(r.toObject().value(QLatin1String("status")).toInt(), 500);
    }

    void serverErrorDuringRunIsRetried()
    {
        RunControl control;
        auto sb = create(config(), control);
        fake->inject({{QStringLiteral("faults"),
                       QJsonArray{QJsonObject{{QStringLiteral("path"), QStringLiteral("/cmd$")},
                                              {QStringLiteral("status"), 503}, {QStringLiteral("count"), 1}}}}});
        QByteArray out;
        const auto outcome = sb->run(py(QStringLiteral("print(6*7)")), [&](OutputStream, const QByteArray& b) { out += b; }, control);
        QCOMPARE(outcome.exitCode.value_or(-1), 0);
        QCOMPARE(out, QByteArray("42\n"));
        QVERIFY(sb->destroy().confirmed);
    }

    void droppedLogStreamIsAnInfrastructureError()
    {
        fake->inject({{QStringLiteral("options"),
                       QJsonObject{{QStringLiteral("cut_logs"),
                                    QJsonObject{{QStringLiteral("count"), 1}, {QStringLiteral("after_ms"), 300}}}}}});
        RunControl control;
        auto sb = create(config(), control);
        try {
            sb->run(py(QStringLiteral("import time\nfor i in range(20):\n print(i, flush=True); time.sleep(0.1)")), {}, control);
            QFAIL("a cut stream must not look like a normal end");
        } catch (const ProviderError& e) {
            QCOMPARE(e.kind(), ProviderError::Kind::Unavailable);
            QVERIFY2(e.message().contains(QStringLiteral("log stream dropped")), qPrintable(e.message()));
        }
        QVERIFY(sb->destroy().confirmed);
        QVERIFY(fake->allCleaned());
    }

    void unconfirmedStopIsReported()
    {
        fake->inject({{QStringLiteral("options"), QJsonObject{{QStringLiteral("stop_never_confirms"), true}}}});
        RunControl control;
        auto sb = create(config(), control);
        QElapsedTimer clock;
        clock.start();
        const CleanupReport report = sb->destroy();
        QVERIFY(!report.confirmed);
        QVERIFY2(report.detail.contains(QStringLiteral("not confirmed")) &&
                     report.detail.contains(QStringLiteral("stopping")),
                 qPrintable(report.detail));
        QVERIFY(clock.elapsed() >= 1900 && clock.elapsed() < 6000);
    }

    void slowCreateIsWaitedFor()
    {
        fake->inject({{QStringLiteral("options"), QJsonObject{{QStringLiteral("create_delay"), 1.0}}}});
        RunControl control;
        auto sb = create(config(), control);
        QVERIFY(fake->count(QStringLiteral("^GET /v1/sandboxes/[^/]+$")) >= 1);
        QByteArray out;
        QCOMPARE(sb->run(py(QStringLiteral("print(1)")), [&](OutputStream, const QByteArray& b) { out += b; }, control)
                     .exitCode.value_or(-1), 0);
        QVERIFY(sb->destroy().confirmed);
    }

    void badTokenIsNamedAndRedacted()
    {
        VercelConfig c = config();
        c.token = QStringLiteral("secret_wrong_token_987");
        RunControl control;
        try {
            create(c, control);
            QFAIL("create should fail");
        } catch (const ProviderError& e) {
            QCOMPARE(e.kind(), ProviderError::Kind::Unauthorized);
            QVERIFY2(e.message().contains(QStringLiteral("bad credentials")), qPrintable(e.message()));
            QVERIFY(!e.message().contains(c.token));
        }
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
        sb->run(py(QStringLiteral("pass")), [&](OutputStream s, const QByteArray& b) {
            if (s == OutputStream::Stderr)
                err += b;
        }, control);
        QVERIFY(err.contains("sandpad_no_such_package"));
        QVERIFY(sb->destroy().confirmed);
    }

    void javascriptRuntime()
    {
        RunControl control;
        auto sb = create(config(), control, Language::JavaScript);
        QByteArray out;
        SandboxCommand cmd;
        cmd.argv = {sb->interpreter(Language::JavaScript), QStringLiteral("-e"), QStringLiteral("console.log(1+1)")};
        QCOMPARE(sb->run(cmd, [&](OutputStream, const QByteArray& b) { out += b; }, control).exitCode.value_or(-1), 0);
        QCOMPARE(out, QByteArray("2\n"));
        QVERIFY(sb->destroy().confirmed);
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

    void cleanupTestCase()
    {
        QString why;
        QVERIFY2(fake->allCleaned(&why), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestVercelProvider)
#include "test_vercel_provider.moc"
