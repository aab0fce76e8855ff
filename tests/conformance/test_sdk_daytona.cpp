// The pinned @daytonaio/sdk (tests/conformance/sdk) driven through Sandpad's lifecycle against
// tests/fakes/fake_daytona.py (sdk/daytona-lifecycle.mjs), then Sandpad's own client through the
// same lifecycle: both must succeed, and the fake's request logs must agree (same routes, same
// body fields, the same headers that matter). Where the SDK fails against the fake, the fake is
// wrong.
#include "FakeProviderConfigs.h"
#include "FakeServer.h"

#include "core/providers/daytona/DaytonaProvider.h"
#include "core/providers/daytona/DaytonaSandbox.h"
#include "core/sandbox/RunControl.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>
#include <memory>

using namespace sandpad;

namespace {
const QString kSdkDir = QStringLiteral(SANDPAD_SOURCE_DIR "/tests/conformance/sdk");

// "METHOD path" with the ids of the sandbox, session and command replaced by placeholders.
QString routeOf(const QJsonObject& request)
{
    QString path = request.value(QLatin1String("path")).toString();
    static const QRegularExpression sandbox(QStringLiteral("^(/api/sandbox|/toolbox)/[^/]+"));
    static const QRegularExpression session(QStringLiteral("/process/session/[^/]+"));
    static const QRegularExpression command(QStringLiteral("/command/[^/]+"));
    path.replace(sandbox, QStringLiteral("\\1/{id}"));
    path.replace(session, QStringLiteral("/process/session/{sid}"));
    path.replace(command, QStringLiteral("/command/{cid}"));
    return request.value(QLatin1String("method")).toString() + QLatin1Char(' ') + path;
}

struct Lifecycle {
    QStringList routes;                 // distinct, in first-seen order
    QHash<QString, QJsonObject> first;  // route -> its first request
    QList<QJsonObject> all;
};

Lifecycle lifecycleOf(const QJsonArray& log)
{
    Lifecycle l;
    for (const auto& v : log) {
        const QJsonObject r = v.toObject();
        const QString route = routeOf(r);
        if (!l.first.contains(route)) {
            l.routes << route;
            l.first.insert(route, r);
        }
        l.all << r;
    }
    return l;
}

QString header(const QJsonObject& request, const char* name)
{
    return request.value(QLatin1String("headers")).toObject().value(QLatin1String(name)).toString();
}
} // namespace

class TestSdkDaytona : public QObject {
    Q_OBJECT
    std::unique_ptr<FakeServer> m_fake;
    Lifecycle m_sdk;

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(kSdkDir + QStringLiteral("/node_modules/@daytonaio/sdk/package.json")),
                 "the pinned SDKs are not installed: run bash packaging/install-sdks.sh (make test does)");
        m_fake = std::make_unique<FakeServer>(QStringLiteral("fake_daytona.py"));
        QVERIFY(m_fake->started());
    }

    // The SDK's lifecycle passes against the fake.
    void sdkLifecycleAgainstTheFake()
    {
        m_fake->reset();
        const DaytonaConfig c = fakeDaytonaConfig(*m_fake);
        QProcess node;
        node.setWorkingDirectory(kSdkDir);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DAYTONA_API_URL"), c.apiUrl);
        env.insert(QStringLiteral("DAYTONA_API_KEY"), c.apiKey);
        env.insert(QStringLiteral("DAYTONA_USE_DEPRECATED_POLLING"), QStringLiteral("true"));
        env.remove(QStringLiteral("DAYTONA_ORGANIZATION_ID"));
        node.setProcessEnvironment(env);
        node.start(QStringLiteral("node"), {QStringLiteral("daytona-lifecycle.mjs")});
        QVERIFY2(node.waitForStarted(), qPrintable(node.errorString()));
        QVERIFY(node.waitForFinished(120000));
        const QByteArray out = node.readAllStandardOutput();
        const QByteArray err = node.readAllStandardError();
        QVERIFY2(node.exitCode() == 0, (out + err).constData());
        const QJsonObject result = QJsonDocument::fromJson(out.trimmed().split('\n').last()).object();
        QCOMPARE(result.value(QLatin1String("exitCode")).toInt(-1), 0);
        QCOMPARE(result.value(QLatin1String("stdout")).toString(), QStringLiteral("hello from sdk\n"));
        QCOMPARE(result.value(QLatin1String("stderr")).toString(), QStringLiteral("err\n"));
        QCOMPARE(result.value(QLatin1String("missing")).toString(), QStringLiteral("not found"));
        QVERIFY(result.value(QLatin1String("gone")).toBool());
        QString why;
        QVERIFY2(m_fake->allCleaned(&why), qPrintable(why));
        m_sdk = lifecycleOf(m_fake->requests());
        qInfo("SDK lifecycle: %s", qPrintable(m_sdk.routes.join(QStringLiteral(", "))));
    }

    // Sandpad's client through the same lifecycle sends what the SDK sends.
    void clientMatchesTheSdk()
    {
        QVERIFY2(!m_sdk.routes.isEmpty(), "the SDK's lifecycle did not run");
        m_fake->reset();
        DaytonaConfig c = fakeDaytonaConfig(*m_fake);
        c.basePackages = {}; // the SDK's lifecycle has no package check
        DaytonaProvider provider(c);
        SandboxOptions options;
        options.runId = QStringLiteral("client-lifecycle");
        options.deadlineSeconds = 60;
        RunControl control;
        auto sb = provider.create(options, control);
        sb->writeFiles({{QStringLiteral("/tmp/sandpad/main.py"),
                         "import sys\nprint('hello from', sys.argv[1])\nprint('err', file=sys.stderr)\n", 0644}});
        SandboxCommand cmd;
        cmd.argv = {QStringLiteral("python3"), QStringLiteral("main.py"), QStringLiteral("sandpad")};
        cmd.cwd = QStringLiteral("/tmp/sandpad");
        QByteArray out;
        QCOMPARE(sb->run(cmd, [&](OutputStream s, const QByteArray& b) { if (s == OutputStream::Stdout) out += b; }, control)
                     .exitCode.value_or(-1), 0);
        QCOMPARE(out, QByteArray("hello from sandpad\n"));
        QVERIFY(sb->readFile(QStringLiteral("/tmp/sandpad/main.py")).has_value());
        QVERIFY(!sb->readFile(QStringLiteral("/tmp/sandpad/none")).has_value());
        // A notebook session's calls (RemoteSessionSandbox): auto-stop raised to 32 min, activity refreshed.
        auto* daytona = dynamic_cast<DaytonaSandbox*>(sb.get());
        QVERIFY(daytona);
        daytona->keepAlive(32 * 60 * 1000);
        QVERIFY(sb->destroy().confirmed);
        const Lifecycle ours = lifecycleOf(m_fake->requests());
        qInfo("client lifecycle: %s", qPrintable(ours.routes.join(QStringLiteral(", "))));

        // Same routes (each side may poll a different number of times).
        QStringList sdkRoutes = m_sdk.routes, ourRoutes = ours.routes;
        sdkRoutes.sort();
        ourRoutes.sort();
        QCOMPARE(ourRoutes, sdkRoutes);
        // Same body fields on each route.
        for (const QString& route : std::as_const(m_sdk.routes)) {
            const QJsonValue sdkFields = m_sdk.first.value(route).value(QLatin1String("body_fields"));
            const QJsonValue ourFields = ours.first.value(route).value(QLatin1String("body_fields"));
            QVERIFY2(sdkFields == ourFields,
                     qPrintable(QStringLiteral("%1: SDK sends %2, Sandpad %3")
                                    .arg(route, QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("f"), sdkFields}}).toJson(QJsonDocument::Compact)),
                                         QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("f"), ourFields}}).toJson(QJsonDocument::Compact)))));
        }
        // The headers that matter, on every request.
        const QString sdkVersion = header(m_sdk.all.first(), "x-daytona-sdk-version");
        QVERIFY(!sdkVersion.isEmpty());
        for (const QJsonObject& r : std::as_const(ours.all)) {
            const QString route = routeOf(r);
            const QJsonObject sdk = m_sdk.first.value(route);
            QVERIFY2(!header(r, "authorization").isEmpty(), qPrintable(route));
            QCOMPARE(header(r, "authorization"), header(sdk, "authorization")); // same length: the same key
            QCOMPARE(header(r, "x-daytona-sdk-version"), sdkVersion);
            QVERIFY2(!header(r, "x-daytona-source").isEmpty(), qPrintable(route));
            QVERIFY2(header(r, "x-daytona-organization-id").isEmpty(), qPrintable(route)); // API key: its own org
            QCOMPARE(header(r, "content-type").section(QLatin1Char(';'), 0, 0),
                     header(sdk, "content-type").section(QLatin1Char(';'), 0, 0));
        }
        QString why;
        QVERIFY2(m_fake->allCleaned(&why), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestSdkDaytona)
#include "test_sdk_daytona.moc"
