// `sandpad-run --session` as a script drives it: the real binary, real bwrap, a temporary
// workspace; JSON requests on stdin, one JSON line per request on stdout.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Output {
    int exitCode = -1;
    QList<QJsonObject> lines;
    QByteArray err;
};

Output runCli(const QTemporaryDir& data, const QStringList& args, const QByteArray& input)
{
    QProcess p;
    p.start(QStringLiteral(SANDPAD_BINARY_DIR "/app/sandpad-run/sandpad-run"),
            QStringList{QStringLiteral("--data-dir"), data.path(), QStringLiteral("--provider"), QStringLiteral("local")} + args);
    Output out;
    if (!p.waitForStarted(10000))
        return out;
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(240000)) {
        p.kill();
        p.waitForFinished();
    }
    out.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    out.err = p.readAllStandardError();
    for (const QByteArray& line : p.readAllStandardOutput().split('\n'))
        if (!line.trimmed().isEmpty())
            out.lines << QJsonDocument::fromJson(line).object();
    return out;
}

QByteArray request(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

} // namespace

class TestSessionCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty())
            QSKIP("bubblewrap is not installed");
    }

    void stateRestartAndBadLines()
    {
        QTemporaryDir data;
        QByteArray input;
        input += request({{QStringLiteral("code"), QStringLiteral("x = 41")}});
        input += request({{QStringLiteral("code"), QStringLiteral("print(x + 1)\nx")}});
        input += request({{QStringLiteral("code"), QStringLiteral("let y = 'js';")}, {QStringLiteral("language"), QStringLiteral("javascript")}});
        input += request({{QStringLiteral("code"), QStringLiteral("y + '!'")}, {QStringLiteral("language"), QStringLiteral("javascript")}});
        input += "this is not json\n";
        input += request({{QStringLiteral("code"), QStringLiteral("1")}, {QStringLiteral("language"), QStringLiteral("cobol")}});
        input += request({{QStringLiteral("restart"), true}});
        input += request({{QStringLiteral("code"), QStringLiteral("'x' in globals()")}});
        const Output out = runCli(data, {QStringLiteral("--session")}, input);
        QCOMPARE(out.exitCode, 0);
        QList<QJsonObject> runs, errors;
        bool restarted = false;
        for (const QJsonObject& line : out.lines) {
            if (line.contains(QStringLiteral("status")))
                runs << line;
            else if (line.contains(QStringLiteral("error")))
                errors << line;
            restarted = restarted || line.value(QStringLiteral("restarted")).toBool();
        }
        QCOMPARE(runs.size(), 5);
        QCOMPARE(runs[1].value(QStringLiteral("stdout")).toString(), QStringLiteral("42\n"));
        QCOMPARE(runs[1].value(QStringLiteral("result")).toString(), QStringLiteral("41"));
        QCOMPARE(runs[1].value(QStringLiteral("execution_count")).toInt(), 2);
        QCOMPARE(runs[1].value(QStringLiteral("cost_usd")).toDouble(), 0.05);
        QCOMPARE(runs[3].value(QStringLiteral("result")).toString(), QStringLiteral("'js!'"));
        QCOMPARE(runs[4].value(QStringLiteral("result")).toString(), QStringLiteral("False"));
        QCOMPARE(runs[4].value(QStringLiteral("execution_count")).toInt(), 1);
        QVERIFY(restarted);
        QCOMPARE(errors.size(), 2);
        QVERIFY(errors[0].value(QStringLiteral("error")).toString().contains(QStringLiteral("line 5 is not a JSON object")));
        QVERIFY(errors[1].value(QStringLiteral("error")).toString().contains(QStringLiteral("unknown language")));

        // Every execution has its row, and each session sandbox's end one of its own at $0.
        QProcess usage;
        usage.start(QStringLiteral(SANDPAD_BINARY_DIR "/app/sandpad-run/sandpad-run"),
                    {QStringLiteral("--data-dir"), data.path(), QStringLiteral("--usage"), QStringLiteral("--json")});
        QVERIFY(usage.waitForFinished(30000));
        const QJsonArray rows = QJsonDocument::fromJson(usage.readAllStandardOutput()).object().value(QStringLiteral("runs")).toArray();
        int sessionEnds = 0;
        for (const QJsonValue& row : rows)
            if (row.toObject().value(QStringLiteral("source")).toString() == QStringLiteral("session"))
                ++sessionEnds;
        QCOMPARE(rows.size(), 5 + 3); // python (restarted), javascript and the second python at EOF
        QCOMPARE(sessionEnds, 3);
    }

    void variablesAndTableWindows()
    {
        QTemporaryDir data;
        QByteArray input;
        input += request({{QStringLiteral("code"), QStringLiteral("import pandas as pd\ndf = pd.DataFrame({'a': range(5), 'b': list('vwxyz')})")}});
        input += request({{QStringLiteral("variables"), true}});
        input += request({{QStringLiteral("fetch"), QStringLiteral("df")}, {QStringLiteral("row"), 1}, {QStringLiteral("rows"), 2}});
        input += request({{QStringLiteral("fetch"), QStringLiteral("nope")}});
        input += request({{QStringLiteral("code"), QStringLiteral("let n = [1, 2, 3];")}, {QStringLiteral("language"), QStringLiteral("javascript")}});
        input += request({{QStringLiteral("variables"), true}});
        const Output out = runCli(data, {QStringLiteral("--session")}, input);
        QCOMPARE(out.exitCode, 0);
        QList<QJsonObject> listings, fetches;
        for (const QJsonObject& line : out.lines) {
            if (line.contains(QStringLiteral("variables")))
                listings << line;
            if (line.contains(QStringLiteral("fetch")))
                fetches << line;
        }
        QCOMPARE(listings.size(), 2);
        const QJsonObject df = listings[0].value(QStringLiteral("variables")).toArray().at(0).toObject();
        QCOMPARE(df.value(QStringLiteral("name")).toString(), QStringLiteral("df"));
        QCOMPARE(df.value(QStringLiteral("type")).toString(), QStringLiteral("pandas.DataFrame"));
        QVERIFY(df.value(QStringLiteral("table")).toBool());
        QCOMPARE(fetches.size(), 2);
        const QJsonObject w = fetches[0];
        QCOMPARE(w.value(QStringLiteral("shape")).toArray(), (QJsonArray{5, 2}));
        QCOMPARE(w.value(QStringLiteral("dtypes")).toArray(), (QJsonArray{QStringLiteral("int64"), QStringLiteral("object")}));
        QCOMPARE(w.value(QStringLiteral("index")).toArray(), (QJsonArray{QStringLiteral("1"), QStringLiteral("2")}));
        QCOMPARE(w.value(QStringLiteral("cells")).toArray(),
                 (QJsonArray{QJsonArray{QStringLiteral("1"), QStringLiteral("w")}, QJsonArray{QStringLiteral("2"), QStringLiteral("x")}}));
        QVERIFY(fetches[1].value(QStringLiteral("error")).toString().contains(QStringLiteral("no variable named 'nope'")));
        const QJsonObject n = listings[1].value(QStringLiteral("variables")).toArray().at(0).toObject();
        QCOMPARE(n.value(QStringLiteral("name")).toString(), QStringLiteral("n"));
        QCOMPARE(n.value(QStringLiteral("type")).toString(), QStringLiteral("Array"));
        QCOMPARE(n.value(QStringLiteral("size")).toString(), QStringLiteral("3"));
        QCOMPARE(n.value(QStringLiteral("value")).toString(), QStringLiteral("[ 1, 2, 3 ]"));
    }

    void usageErrors()
    {
        QTemporaryDir data;
        QCOMPARE(runCli(data, {QStringLiteral("--session"), QStringLiteral("a.py")}, {}).exitCode, 2);
        QCOMPARE(runCli(data, {QStringLiteral("--idle"), QStringLiteral("5")}, {}).exitCode, 2);
    }
};

QTEST_MAIN(TestSessionCli)
#include "test_session_cli.moc"
