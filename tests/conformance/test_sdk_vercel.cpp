// The fake is held to the real client: the pinned @vercel/sandbox (tests/conformance/sdk, installed
// by packaging/install-sdks.sh) runs the lifecycle Sandpad uses against tests/fakes/fake_vercel.py
// (tests/conformance/sdk/vercel-lifecycle.mjs), then our client runs the same lifecycle, and the
// fake's request logs of the two are compared: same routes in the same order, same body fields,
// same query fields, same headers that matter, same answers.
#include "FakeProviderConfigs.h"
#include "FakeServer.h"

#include "core/providers/vercel/VercelProvider.h"
#include "core/providers/vercel/VercelSandbox.h"
#include "core/sandbox/RunControl.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QtTest>

using namespace sandpad;

namespace {
const QString kSdkDir = QStringLiteral(SANDPAD_SOURCE_DIR "/tests/conformance/sdk");
const QString kRunId = QStringLiteral("conformance-run");
const QByteArray kMain = "import sys, time\nprint('out', flush=True)\ntime.sleep(0.3)\n"
                         "print('err', file=sys.stderr, flush=True)\nopen('out.txt', 'w').write('hi there')\nsys.exit(3)\n";

// One request as the comparison sees it: ids replaced by their kind, the fields that matter.
QString shape(const QJsonObject& e)
{
    QString path = e.value(QLatin1String("path")).toString();
    static const QRegularExpression session(QStringLiteral("/sessions/[^/]+"));
    static const QRegularExpression command(QStringLiteral("/cmd/[^/]+"));
    static const QRegularExpression name(QStringLiteral("^/v2/sandboxes/(?!sessions/)[^/]+$"));
    path.replace(session, QStringLiteral("/sessions/{session}")).replace(command, QStringLiteral("/cmd/{command}"));
    path.replace(name, QStringLiteral("/v2/sandboxes/{name}"));
    QStringList body, query;
    for (const auto& v : e.value(QLatin1String("body_keys")).toArray())
        body << v.toString();
    for (const auto& v : e.value(QLatin1String("query_keys")).toArray())
        query << v.toString();
    const QJsonObject h = e.value(QLatin1String("headers")).toObject();
    return QStringLiteral("%1 %2 -> %3 | query %4 | body %5 | auth %6, content-type %7, x-cwd %8")
        .arg(e.value(QLatin1String("method")).toString(), path)
        .arg(e.value(QLatin1String("status")).toInt())
        .arg(query.join(QLatin1Char(',')), body.join(QLatin1Char(',')),
             h.value(QLatin1String("authorization")).toString(), h.value(QLatin1String("content-type")).toString(),
             h.value(QLatin1String("x-cwd")).toString());
}

QStringList shapes(const QJsonArray& log)
{
    QStringList out;
    for (const auto& v : log)
        out << shape(v.toObject());
    return out;
}

QJsonObject createBody(const QJsonArray& log)
{
    for (const auto& v : log)
        if (v.toObject().value(QLatin1String("path")).toString() == QLatin1String("/v2/sandboxes") &&
            v.toObject().value(QLatin1String("method")).toString() == QLatin1String("POST"))
            return v.toObject().value(QLatin1String("body")).toObject();
    return {};
}
} // namespace

class TestSdkVercel : public QObject {
    Q_OBJECT
    std::unique_ptr<FakeServer> m_fake;
    QJsonArray m_sdkLog;

    void verifyNothingLeft()
    {
        QString why;
        QVERIFY2(m_fake->allCleaned(&why), qPrintable(why));
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(kSdkDir + QStringLiteral("/node_modules/@vercel/sandbox/package.json")),
                 "the pinned SDKs are not installed: run packaging/install-sdks.sh");
        m_fake = std::make_unique<FakeServer>(QStringLiteral("fake_vercel.py"));
        QVERIFY(m_fake->started());
    }

    // The SDK against the fake: where it fails, the fake is wrong.
    void sdkLifecycle()
    {
        const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
        QVERIFY2(!node.isEmpty(), "node is not installed");
        m_fake->reset();
        QProcess p;
        p.setWorkingDirectory(kSdkDir);
        p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p.start(node, {kSdkDir + QStringLiteral("/vercel-lifecycle.mjs"), m_fake->base(), kRunId});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray outText = p.readAllStandardOutput();
        const QJsonObject seen = QJsonDocument::fromJson(outText.trimmed().split('\n').last()).object();
        QVERIFY2(seen.value(QLatin1String("ok")).toBool(), qPrintable(seen.value(QLatin1String("error")).toString() + QString::fromUtf8(outText)));
        QCOMPARE(seen.value(QLatin1String("persistent")), QJsonValue(false));
        QCOMPARE(seen.value(QLatin1String("status")).toString(), QStringLiteral("running"));
        QCOMPARE(seen.value(QLatin1String("exitCode")).toInt(), 3);
        QCOMPARE(seen.value(QLatin1String("stdout")).toString(), QStringLiteral("out\n"));
        QCOMPARE(seen.value(QLatin1String("stderr")).toString(), QStringLiteral("err\n"));
        // Streamed as it came: stdout, then (after the program's pause) stderr, in two pieces.
        const QJsonArray streamed = seen.value(QLatin1String("streamed")).toArray();
        QCOMPARE(streamed.size(), 2);
        QCOMPARE(streamed[0].toObject().value(QLatin1String("stream")).toString(), QStringLiteral("stdout"));
        QCOMPARE(seen.value(QLatin1String("file")).toString(), QStringLiteral("hi there"));
        QVERIFY(seen.value(QLatin1String("missing")).isNull());
        QCOMPARE(seen.value(QLatin1String("listed")).toArray().size(), 1);
        QCOMPARE(seen.value(QLatin1String("listed")).toArray()[0].toObject().value(QLatin1String("tags")).toObject()
                     .value(QLatin1String("sandpad-run")).toString(), kRunId);
        QVERIFY(seen.value(QLatin1String("detached")).toBool());
        QVERIFY2(seen.value(QLatin1String("gone")).toBool(), qPrintable(seen.value(QLatin1String("goneMessage")).toString()));
        m_sdkLog = m_fake->requests();
        verifyNothingLeft();
    }

    // Our client through the same lifecycle: the same requests.
    void clientMatchesTheSdk()
    {
        QVERIFY2(!m_sdkLog.isEmpty(), "sdkLifecycle did not run");
        m_fake->reset();
        VercelConfig c = fakeVercelConfig(*m_fake);
        c.basePackages = {}; // the SDK checks none
        c.confirmTimeoutMs = 3000;
        VercelProvider provider(c);
        SandboxOptions options;
        options.deadlineSeconds = 60; // timeout 180000 ms, as the script asks
        options.runId = kRunId;
        RunControl control;
        auto sb = provider.create(options, control);
        sb->writeFiles({{sb->workDir() + QStringLiteral("/main.py"), kMain, 0644}});
        SandboxCommand cmd;
        cmd.argv = {sb->interpreter(Language::Python), QStringLiteral("main.py")};
        cmd.cwd = sb->workDir();
        cmd.timeoutMs = 60000;
        QByteArray out, err;
        const CommandOutcome outcome = sb->run(cmd, [&](OutputStream s, const QByteArray& b) {
            (s == OutputStream::Stdout ? out : err) += b;
        }, control);
        QCOMPARE(outcome.exitCode.value_or(-1), 3);
        QCOMPARE(out, QByteArray("out\n"));
        QCOMPARE(err, QByteArray("err\n"));
        QCOMPARE(sb->readFile(sb->workDir() + QStringLiteral("/out.txt")).value_or("?"), QByteArray("hi there"));
        QVERIFY(!sb->readFile(sb->workDir() + QStringLiteral("/missing.txt")).has_value());
        // A notebook session's calls (RemoteSessionSandbox): its host detached, the timeout extended.
        auto* vercel = dynamic_cast<VercelSandbox*>(sb.get());
        QVERIFY(vercel);
        SandboxCommand detached;
        detached.argv = {QStringLiteral("sleep"), QStringLiteral("30")};
        detached.cwd = QStringLiteral("/vercel/sandbox");
        vercel->startDetached(detached);
        vercel->keepAlive(vercel->remainingTimeoutMs() + 300000); // more than is left: one extension
        const auto listed = provider.listAppSandboxes();
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed[0].runId, kRunId);
        const CleanupReport cleanup = sb->destroy();
        QVERIFY2(cleanup.confirmed, qPrintable(cleanup.detail));
        verifyNothingLeft();

        const QJsonArray ours = m_fake->requests();
        const QStringList sdk = shapes(m_sdkLog), client = shapes(ours);
        if (sdk != client)
            qWarning("SDK:\n  %s\nSandpad:\n  %s", qPrintable(sdk.join(QStringLiteral("\n  "))),
                     qPrintable(client.join(QStringLiteral("\n  "))));
        QCOMPARE(client, sdk);
        // The create bodies are the same down to their values (the SDK script asks what we ask).
        QCOMPARE(createBody(ours), createBody(m_sdkLog));
        qInfo("Vercel lifecycle: %d requests, the same as @vercel/sandbox 3.5.0", int(ours.size()));
    }
};

QTEST_GUILESS_MAIN(TestSdkVercel)
#include "test_sdk_vercel.moc"
