// `sandpad-run --session --provider vercel|daytona` against the fakes, as a script drives it: state
// kept in one remote sandbox for both languages, restart, and at EOF the session's sandboxes
// deleted (the fake lists nothing left) and their records closed.
#include "FakeProviderConfigs.h"
#include "FakeServer.h"

#include "core/allocations/RemoteAllocations.h"
#include "core/storage/Database.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace sandpad;

namespace {

QByteArray request(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

} // namespace

class TestRemoteSessionCli : public QObject {
    Q_OBJECT

private slots:
    void stateRestartAndNothingLeft_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::newRow("vercel") << QStringLiteral("vercel");
        QTest::newRow("daytona") << QStringLiteral("daytona");
    }
    void stateRestartAndNothingLeft()
    {
        QFETCH(QString, provider);
        const bool vercel = provider == QLatin1String("vercel");
        FakeServer fake(vercel ? QStringLiteral("fake_vercel.py") : QStringLiteral("fake_daytona.py"));
        QVERIFY(fake.started());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("SANDPAD_PROVIDER"));
        if (vercel) {
            const VercelConfig c = fakeVercelConfig(fake);
            env.insert(QStringLiteral("VERCEL_API_URL"), c.apiUrl);
            env.insert(QStringLiteral("VERCEL_TOKEN"), c.token);
            env.insert(QStringLiteral("VERCEL_TEAM_ID"), c.teamId);
            env.insert(QStringLiteral("VERCEL_PROJECT_ID"), c.projectId);
        } else {
            const DaytonaConfig c = fakeDaytonaConfig(fake);
            env.insert(QStringLiteral("DAYTONA_API_URL"), c.apiUrl);
            env.insert(QStringLiteral("DAYTONA_API_KEY"), c.apiKey);
            env.insert(QStringLiteral("DAYTONA_ORGANIZATION_ID"), c.organizationId);
        }
        QTemporaryDir dir;
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        QByteArray input;
        input += request({{QStringLiteral("code"), QStringLiteral("x = 41")}});
        input += request({{QStringLiteral("code"), QStringLiteral("print(x + 1)\nx")}});
        input += request({{QStringLiteral("code"), QStringLiteral("let y = 'js';")}, {QStringLiteral("language"), QStringLiteral("javascript")}});
        input += request({{QStringLiteral("code"), QStringLiteral("y + '!'")}, {QStringLiteral("language"), QStringLiteral("javascript")}});
        input += request({{QStringLiteral("restart"), true}});
        input += request({{QStringLiteral("code"), QStringLiteral("'x' in globals()")}});
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SANDPAD_BINARY_DIR "/app/sandpad-run/sandpad-run"),
                {QStringLiteral("--data-dir"), dir.filePath(QStringLiteral("data")), QStringLiteral("--provider"), provider,
                 QStringLiteral("--session")});
        QVERIFY(p.waitForStarted(10000));
        p.write(input);
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(400000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 0);
        QList<QJsonObject> runs;
        bool restarted = false;
        for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.contains(QStringLiteral("status")))
                runs << o;
            restarted = restarted || o.value(QStringLiteral("restarted")).toBool();
        }
        QVERIFY2(runs.size() == 5, err.constData());
        QCOMPARE(runs[1].value(QStringLiteral("stdout")).toString(), QStringLiteral("42\n"));
        QCOMPARE(runs[1].value(QStringLiteral("result")).toString(), QStringLiteral("41"));
        QCOMPARE(runs[1].value(QStringLiteral("execution_count")).toInt(), 2);
        QCOMPARE(runs[1].value(QStringLiteral("cost_usd")).toDouble(), 0.05);
        QCOMPARE(runs[3].value(QStringLiteral("result")).toString(), QStringLiteral("'js!'"));
        QCOMPARE(runs[4].value(QStringLiteral("result")).toString(), QStringLiteral("False"));
        QCOMPARE(runs[4].value(QStringLiteral("execution_count")).toInt(), 1);
        QVERIFY(restarted);
        // Three session sandboxes (Python, JavaScript, Python after the restart), all gone.
        QCOMPARE(fake.count(vercel ? QStringLiteral("^POST /v2/sandboxes$") : QStringLiteral("^POST /api/sandbox$")), 3);
        QString why;
        QVERIFY2(fake.allCleaned(&why), qPrintable(why));
        Database db(dir.filePath(QStringLiteral("data")));
        QVERIFY(db.open());
        QVERIFY(RemoteAllocations(db).open().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRemoteSessionCli)
#include "test_remote_session_cli.moc"
