// Nothing paid is lost track of: sandpad-run killed (SIGKILL) mid-run against a provider's fake
// leaves a labelled sandbox and an open record; the next sandpad-run removes it, closes the
// record and says so on stderr. The same for a notebook session's sandbox (`--session`).
#include "FakeProviderConfigs.h"
#include "FakeServer.h"
#include "TestChecks.h"

#include "core/allocations/RemoteAllocations.h"
#include "core/providers/vercel/VercelProvider.h"
#include "core/sandbox/ProviderError.h"
#include "core/storage/Database.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

using namespace sandpad;

class TestOrphanRecords : public QObject {
    Q_OBJECT

    struct Fake {
        std::unique_ptr<FakeServer> server;
        QProcessEnvironment env;
    };

    Fake fakeFor(const QString& provider)
    {
        Fake f;
        f.env = QProcessEnvironment::systemEnvironment();
        f.env.remove(QStringLiteral("SANDPAD_PROVIDER"));
        if (provider == u"daytona") {
            f.server = std::make_unique<FakeServer>(QStringLiteral("fake_daytona.py"));
            const DaytonaConfig c = fakeDaytonaConfig(*f.server);
            f.env.insert(QStringLiteral("DAYTONA_API_URL"), c.apiUrl);
            f.env.insert(QStringLiteral("DAYTONA_API_KEY"), c.apiKey);
            f.env.insert(QStringLiteral("DAYTONA_ORGANIZATION_ID"), c.organizationId);
        } else {
            f.server = std::make_unique<FakeServer>(QStringLiteral("fake_vercel.py"));
            const VercelConfig c = fakeVercelConfig(*f.server);
            f.env.insert(QStringLiteral("VERCEL_API_URL"), c.apiUrl);
            f.env.insert(QStringLiteral("VERCEL_TOKEN"), c.token);
            f.env.insert(QStringLiteral("VERCEL_TEAM_ID"), c.teamId);
            f.env.insert(QStringLiteral("VERCEL_PROJECT_ID"), c.projectId);
        }
        return f;
    }

    int liveSandboxes(FakeServer& fake)
    {
        int n = 0;
        const QJsonObject all = fake.sandboxes();
        // The fake's VMs (the Vercel fake also lists each named sandbox and snapshot it keeps, as
        // "sandbox:…" / "snapshot:…": allCleaned() checks those at the end).
        for (auto it = all.begin(); it != all.end(); ++it)
            if (!it.key().contains(u':'))
                n += it.value().toObject().value(QLatin1String("destroyed")).toBool() ? 0 : 1;
        return n;
    }

    // sandpad-run on `provider` with `args`, in the workspace at `dir` (data/, config/).
    void startCliWith(QProcess& p, const Fake& fake, const QTemporaryDir& dir, const QString& provider, const QStringList& args)
    {
        QProcessEnvironment env = fake.env;
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SANDPAD_BINARY_DIR "/app/sandpad-run/sandpad-run"),
                QStringList{QStringLiteral("--data-dir"), dir.filePath(QStringLiteral("data")), QStringLiteral("--provider"),
                            provider} + args);
        QVERIFY2(p.waitForStarted(), qPrintable(p.errorString()));
    }

    // sandpad-run on `provider` running `file` (at most 120 s).
    void startCli(QProcess& p, const Fake& fake, const QTemporaryDir& dir, const QString& provider, const QString& file)
    {
        startCliWith(p, fake, dir, provider, {QStringLiteral("--timeout"), QStringLiteral("120"), dir.filePath(file)});
    }

    // The killed sandpad-run left its sandbox running and its record open.
    void verifyLeftBehind(FakeServer& fake, const QTemporaryDir& dir, const QString& provider)
    {
        QCOMPARE(liveSandboxes(fake), 1);
        Database db(dir.filePath(QStringLiteral("data")));
        QVERIFY(db.open());
        QCOMPARE(RemoteAllocations(db).open(provider).size(), 1);
    }

    // The next sandpad-run (short.py) succeeds, removes the sandbox left behind and says so on
    // stderr, and closes its record; *out gets what it printed.
    void verifyNextRunReconciles(const Fake& fake, const QTemporaryDir& dir, const QString& provider, QByteArray* out)
    {
        QProcess second;
        startCli(second, fake, dir, provider, QStringLiteral("short.py"));
        QVERIFY(second.waitForFinished(120000));
        const QByteArray err = second.readAllStandardError();
        QCOMPARE(second.exitCode(), 0);
        *out = second.readAllStandardOutput();
        QVERIFY2(err.contains("removed 1 ") && err.contains(" sandbox left by a run that did not finish"), err.constData());
        QString why;
        QVERIFY2(fake.server->allCleaned(&why), qPrintable(why));
        Database db(dir.filePath(QStringLiteral("data")));
        QVERIFY(db.open());
        QVERIFY(RemoteAllocations(db).open().isEmpty());
    }

    void write(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
    {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }

private slots:
    void killedRunIsReconciledAtTheNextStart_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::newRow("daytona") << QStringLiteral("daytona");
        QTest::newRow("vercel") << QStringLiteral("vercel");
    }

    void killedRunIsReconciledAtTheNextStart()
    {
        QFETCH(QString, provider);
        Fake fake = fakeFor(provider);
        QVERIFY(fake.server->started());
        if (provider == u"vercel") {
            try {
                VercelProvider(fakeVercelConfig(*fake.server)).listAppSandboxes();
            } catch (const ProviderError& e) {
                if (e.message().contains(QStringLiteral("not implemented")))
                    QSKIP("Vercel's listAppSandboxes/removeAppSandbox are not implemented yet");
            }
        }
        QTemporaryDir dir;
        write(dir, QStringLiteral("long.py"), "import time\nprint('started', flush=True)\ntime.sleep(120)\n");
        write(dir, QStringLiteral("short.py"), "print('after')\n");

        QProcess first;
        startCli(first, fake, dir, provider, QStringLiteral("long.py"));
        QByteArray out;
        QVERIFY2(QTest::qWaitFor([&] {
                     out += first.readAllStandardOutput();
                     return out.contains("started") || first.state() == QProcess::NotRunning;
                 }, 90000),
                 "the long run never printed");
        QVERIFY2(out.contains("started"), (out + first.readAllStandardError()).constData());
        first.kill(); // SIGKILL: no cleanup of any kind
        QVERIFY(first.waitForFinished(10000));
        SANDPAD_CHECK(verifyLeftBehind(*fake.server, dir, provider));
        QByteArray secondOut;
        SANDPAD_CHECK(verifyNextRunReconciles(fake, dir, provider, &secondOut));
        QVERIFY(secondOut.contains("after"));
    }

    void killedSessionIsReconciledAtTheNextStart_data() { killedRunIsReconciledAtTheNextStart_data(); }

    // A notebook session's sandbox (`sandpad-run --session`) is recorded while the session lives:
    // sandpad-run SIGKILLed between executions leaves it and its open row, and the next start
    // removes it.
    void killedSessionIsReconciledAtTheNextStart()
    {
        QFETCH(QString, provider);
        Fake fake = fakeFor(provider);
        QVERIFY(fake.server->started());
        QTemporaryDir dir;
        write(dir, QStringLiteral("short.py"), "print('after')\n");
        QProcess first;
        SANDPAD_CHECK(startCliWith(first, fake, dir, provider, {QStringLiteral("--session")}));
        first.write("{\"code\": \"x = 41\"}\n");
        QByteArray out;
        QVERIFY2(QTest::qWaitFor([&] {
                     out += first.readAllStandardOutput();
                     return out.contains("execution_count") || first.state() == QProcess::NotRunning;
                 }, 120000),
                 "the session never answered");
        QVERIFY2(out.contains("\"execution_count\":1") || out.contains("\"execution_count\": 1"),
                 (out + first.readAllStandardError()).constData());
        first.kill(); // SIGKILL between executions: the session's sandbox is left
        QVERIFY(first.waitForFinished(10000));
        SANDPAD_CHECK(verifyLeftBehind(*fake.server, dir, provider));
        QByteArray secondOut;
        SANDPAD_CHECK(verifyNextRunReconciles(fake, dir, provider, &secondOut));
    }
};

QTEST_GUILESS_MAIN(TestOrphanRecords)
#include "test_orphan_records.moc"
