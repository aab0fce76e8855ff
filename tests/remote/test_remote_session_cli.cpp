// `sandpad-run --session --provider vercel|daytona` against the fakes, as a script drives it: state
// kept in one remote sandbox for both languages, restart, and at EOF the session's sandboxes
// deleted (the fake lists nothing left) and their records closed; a table window fetched from
// the remote session, and --idle moving the remote sandbox's own idle allowance.
#include "FakeProviderConfigs.h"
#include "FakeServer.h"
#include "FakeTimeouts.h"

#include "core/allocations/RemoteAllocations.h"
#include "core/storage/Database.h"

#include <QJsonArray>
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

struct Session {
    int exitCode = -1;
    QByteArray err;
    QList<QJsonObject> lines;
};

// sandpad-run --session against `fake` (the provider's fake), with `input` on its stdin.
Session runSession(const QString& provider, FakeServer& fake, const QTemporaryDir& dir, const QStringList& args,
                   const QByteArray& input)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("SANDPAD_PROVIDER"));
    if (provider == QLatin1String("vercel")) {
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
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SANDPAD_BINARY_DIR "/app/sandpad-run/sandpad-run"),
            QStringList{QStringLiteral("--data-dir"), dir.filePath(QStringLiteral("data")), QStringLiteral("--provider"), provider,
                        QStringLiteral("--session")} + args);
    Session out;
    if (!p.waitForStarted(10000))
        return out;
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(400000))
        return out;
    out.exitCode = p.exitCode();
    out.err = p.readAllStandardError();
    for (const QByteArray& line : p.readAllStandardOutput().split('\n'))
        if (!line.trimmed().isEmpty())
            out.lines << QJsonDocument::fromJson(line).object();
    return out;
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
        QTemporaryDir dir;
        QByteArray input;
        input += request({{QStringLiteral("code"), QStringLiteral("x = 41")}});
        input += request({{QStringLiteral("code"), QStringLiteral("print(x + 1)\nx")}});
        input += request({{QStringLiteral("code"), QStringLiteral("let y = 'js';")}, {QStringLiteral("language"), QStringLiteral("javascript")}});
        input += request({{QStringLiteral("code"), QStringLiteral("y + '!'")}, {QStringLiteral("language"), QStringLiteral("javascript")}});
        input += request({{QStringLiteral("restart"), true}});
        input += request({{QStringLiteral("code"), QStringLiteral("'x' in globals()")}});
        const Session out = runSession(provider, fake, dir, {}, input);
        QCOMPARE(out.exitCode, 0);
        QList<QJsonObject> runs;
        bool restarted = false;
        for (const QJsonObject& o : out.lines) {
            if (o.contains(QStringLiteral("status")))
                runs << o;
            restarted = restarted || o.value(QStringLiteral("restarted")).toBool();
        }
        QVERIFY2(runs.size() == 5, out.err.constData());
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

    void fetchAndIdle_data() { stateRestartAndNothingLeft_data(); }
    void fetchAndIdle()
    {
        QFETCH(QString, provider);
        const bool vercel = provider == QLatin1String("vercel");
        FakeServer fake(vercel ? QStringLiteral("fake_vercel.py") : QStringLiteral("fake_daytona.py"));
        QVERIFY(fake.started());
        QTemporaryDir dir;
        QByteArray input;
        input += request({{QStringLiteral("code"), QStringLiteral("import pandas as pd\ndf = pd.DataFrame({'a': range(5), 'b': list('vwxyz')})")}});
        input += request({{QStringLiteral("fetch"), QStringLiteral("df")}, {QStringLiteral("row"), 1}, {QStringLiteral("rows"), 2}});
        input += request({{QStringLiteral("fetch"), QStringLiteral("nope")}});
        const Session out = runSession(provider, fake, dir, {QStringLiteral("--idle"), QStringLiteral("420")}, input);
        QVERIFY2(out.exitCode == 0, out.err.constData());
        QList<QJsonObject> fetches;
        for (const QJsonObject& line : out.lines)
            if (line.contains(QStringLiteral("fetch")))
                fetches << line;
        QVERIFY2(fetches.size() == 2, out.err.constData());
        QVERIFY2(!fetches[0].contains(QStringLiteral("error")), qPrintable(fetches[0].value(QStringLiteral("error")).toString()));
        QCOMPARE(fetches[0].value(QStringLiteral("shape")).toArray(), (QJsonArray{5, 2}));
        QCOMPARE(fetches[0].value(QStringLiteral("cells")).toArray(),
                 (QJsonArray{QJsonArray{QStringLiteral("1"), QStringLiteral("w")}, QJsonArray{QStringLiteral("2"), QStringLiteral("x")}}));
        QVERIFY(fetches[1].value(QStringLiteral("error")).toString().contains(QStringLiteral("no variable named 'nope'")));
        // --idle 420: 7 min, plus the 2 min margin, is the sandbox's own allowance.
        if (vercel) {
            const qint64 total = vercelTimeoutGrantedMs(fake);
            QVERIFY2(total >= 9 * 60000 && total <= 20 * 60000, qPrintable(QString::number(total)));
        } else {
            QVERIFY(fake.count(QStringLiteral("^POST /api/sandbox/[^/]+/autostop/9$")) >= 1);
            QCOMPARE(fake.count(QStringLiteral("^POST /api/sandbox/[^/]+/autostop/(?!9$)")), 0);
        }
        QString why;
        QVERIFY2(fake.allCleaned(&why), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestRemoteSessionCli)
#include "test_remote_session_cli.moc"
