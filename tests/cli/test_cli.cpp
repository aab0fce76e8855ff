// sandpad-run as a user runs it: the real binary, real bwrap, a temporary workspace.
#include "CliDriver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace sandpad;

// Control characters, C1 controls and bidi overrides a snippet writes to take over the user's
// terminal: the title, the clipboard (OSC 52), the screen, a fake status line over the real one.
static const QByteArray kHostileOutput =
    "title\x1b]0;pwned\x07 clip\x1b]52;c;aGVsbG8=\x07 clear\x1b[2J\x1b[H fake\r[success] python on local in 1 ms, cost $0.00\n"
    "c1\xc2\x9b" "31m bidi\xe2\x80\xae" "evil\xe2\x81\xa6x\xe2\x81\xa9 tab\tok crlf\r\n";
static const char kHostileSnippet[] =
    "import sys\n"
    "sys.stdout.buffer.write(bytes.fromhex(HOSTILE))\n"
    "sys.stdout.flush()\n"
    "sys.stderr.write('err\\x1b[1A\\x1b[2K\\n')\n"
    "result = 'res\\x1b[31m'\n";

class TestCli : public QObject {
    Q_OBJECT
    CliDriver m_cli;

    using Run = CliRun;
    Run cli(const QStringList& args, const QByteArray& stdinData = {}) { return m_cli.run(args, stdinData); }
    // sandpad-run on a pseudo-terminal (stdin, stdout and stderr), raw: no CR added to newlines.
    Run ptyCli(const QStringList& args) { return m_cli.runOnTerminal(args); }
    QString hostileFile()
    {
        return file(QStringLiteral("hostile.py"),
                    QByteArray(kHostileSnippet).replace("HOSTILE", '"' + kHostileOutput.toHex() + '"'));
    }

    QString file(const QString& name, const QByteArray& content) { return m_cli.file(name, content); }

private slots:
    void init() { m_cli.setTimeoutMs(CliDriver::kDefaultTimeoutMs); }

    // The helper itself: a sandpad-run that outlives the helper's patience is killed, and the
    // test fails saying so (expected here), instead of reading an exit code from a hung process.
    void hungCliIsKilledAndReported()
    {
        m_cli.setTimeoutMs(1500); // init() restores it
        const QString slow = file(QStringLiteral("hang.py"), "import time\ntime.sleep(30)\n");
        QEXPECT_FAIL("", "sandpad-run sleeps for 30 s: the helper kills it after 1.5 s and fails", Continue);
        const Run r = cli({QStringLiteral("--timeout"), QStringLiteral("60"), slow});
        QCOMPARE(r.exitCode, -1); // no exit code made up for the killed process
        QEXPECT_FAIL("", "the same on a pseudo-terminal", Continue);
        const Run p = ptyCli({QStringLiteral("--timeout"), QStringLiteral("60"), slow});
        QCOMPARE(p.exitCode, -1);
    }

    void jsonSchemaAndExitCodes()
    {
        auto r = cli({QStringLiteral("--json"), file(QStringLiteral("ok.py"), "print('hi')\nresult = 6 * 7\n")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = r.json();
        for (const char* key : {"run_id", "status", "provider", "language", "stdout", "stderr", "result", "error", "charts",
                                "exit_code", "duration_ms", "cost_usd", "cleanup_confirmed", "message"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o[QStringLiteral("status")].toString(), QStringLiteral("success"));
        QCOMPARE(o[QStringLiteral("stdout")].toString(), QStringLiteral("hi\n"));
        QCOMPARE(o[QStringLiteral("result")].toString(), QStringLiteral("42"));
        QCOMPARE(o[QStringLiteral("cost_usd")].toDouble(), 0.05);
        QCOMPARE(o[QStringLiteral("provider")].toString(), QStringLiteral("local"));
        QVERIFY(o[QStringLiteral("cleanup_confirmed")].toBool());
        QVERIFY(o[QStringLiteral("message")].toString().startsWith(QStringLiteral("hi\n")));

        r = cli({QStringLiteral("--json"), file(QStringLiteral("bad.py"), "1/0\n")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json()[QStringLiteral("error")].toObject()[QStringLiteral("name")].toString(), QStringLiteral("ZeroDivisionError"));

        r = cli({QStringLiteral("--json"), QStringLiteral("--timeout"), QStringLiteral("1"),
                 file(QStringLiteral("slow.py"), "import time\ntime.sleep(30)\n")});
        QCOMPARE(r.exitCode, 124);
        QCOMPARE(r.json()[QStringLiteral("status")].toString(), QStringLiteral("timeout"));
        QCOMPARE(r.json()[QStringLiteral("cost_usd")].toDouble(), 0.0);

        r = cli({QStringLiteral("--json"), QStringLiteral("--provider"), QStringLiteral("none"), file(QStringLiteral("n.py"), "print(1)\n")});
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.json()[QStringLiteral("status")].toString(), QStringLiteral("infrastructure_error"));
        QVERIFY(r.json()[QStringLiteral("message")].toString().contains(QStringLiteral("no sandbox provider")));
    }

    // The process ends right after its run: every time, cleanly. (A worker thread closing its
    // database connection while the process exited corrupted the heap now and then: 1 run in 4 to 100 here.)
    void exitsCleanlyEveryTime()
    {
        const QString ok = file(QStringLiteral("again.py"), "print('hi')\n");
        for (int i = 0; i < 40; ++i) {
            const auto r = cli({QStringLiteral("--json"), ok});
            QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("run %1: exit %2: %3").arg(i).arg(r.exitCode)
                                                     .arg(QString::fromUtf8(r.err.right(300)))));
        }
    }
    void usageErrors()
    {
        QCOMPARE(cli({QStringLiteral("--provider"), QStringLiteral("bogus"), QStringLiteral("-")}, "print(1)").exitCode, 2);
        QCOMPARE(cli({QStringLiteral("--timeout"), QStringLiteral("900"), QStringLiteral("-")}, "print(1)").exitCode, 2);
        QCOMPARE(cli({QStringLiteral("--document"), QStringLiteral("x"), file(QStringLiteral("a.py"), "print(1)")}).exitCode, 2);
        QCOMPARE(cli({file(QStringLiteral("a.txt"), "print(1)")}).exitCode, 2);
        QCOMPARE(cli({}).exitCode, 2);
    }

    void stdinAndJavaScriptAndLiveText()
    {
        auto r = cli({QStringLiteral("-")}, "print('from stdin')\n");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("from stdin\n"));
        QVERIFY2(r.err.contains("[success] python on local"), r.err.constData());
        QVERIFY(r.err.contains("$0.05"));
        r = cli({QStringLiteral("--language"), QStringLiteral("javascript"), QStringLiteral("-")}, "console.log(1 + 1)\n");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("2\n"));
    }

    void chartsSavedAsFiles()
    {
        const QString charts = m_cli.path(QStringLiteral("charts"));
        QDir().mkpath(charts);
        auto r = cli({QStringLiteral("--charts-dir"), charts,
                      file(QStringLiteral("plot.py"), "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\n")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("chart 1 saved to"), r.err.constData());
        QCOMPARE(QDir(charts).entryList({QStringLiteral("*.png")}).size(), 1);
    }

    // On a terminal every control character but newline and tab is shown escaped; the real status
    // line comes last, intact.
    void terminalShowsControlsEscaped()
    {
        const auto r = ptyCli({hostileFile()});
        QCOMPARE(r.exitCode, 0);
        for (const QByteArray& raw : {QByteArray("\x1b"), QByteArray("\x07"), QByteArray("\r["), QByteArray("\xc2\x9b"),
                                     QByteArray("\xe2\x80\xae"), QByteArray("\xe2\x81\xa6"), QByteArray("\xe2\x81\xa9")})
            QVERIFY2(!r.out.contains(raw), qPrintable("raw " + raw.toHex() + " in: " + r.out));
        for (const char* shown : {R"(title\x1b]0;pwned\x07 clip\x1b]52;c;aGVsbG8=\x07 clear\x1b[2J\x1b[H fake\x0d[success])",
                                  R"(c1\u009b31m bidi\u202eevil\u2066x\u2069 tab)", "\tok crlf\r\n",
                                  R"(err\x1b[1A\x1b[2K)", R"(res\x1b[31m)"})
            QVERIFY2(r.out.contains(shown), qPrintable(QByteArray("missing ") + shown + " in: " + r.out));
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QVERIFY2(lines.last().startsWith("[success] python on local in "), r.out.constData());
        QVERIFY2(lines.last().endsWith(", cost $0.05"), r.out.constData());
    }
    // Into pipes, and as JSON even on a terminal, the bytes stay exactly what the snippet wrote.
    void pipesAndJsonKeepBytes()
    {
        auto r = cli({hostileFile()});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, kHostileOutput + "res\x1b[31m\n");
        QVERIFY2(r.err.startsWith("err\x1b[1A\x1b[2K\n"), r.err.constData());

        r = ptyCli({QStringLiteral("--json"), hostileFile()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("\xe2\x80\xae"), r.out.constData()); // JSON leaves it as it is
        const QJsonObject o = r.json();
        QCOMPARE(o[QStringLiteral("stdout")].toString().toUtf8(), kHostileOutput);
        QCOMPARE(o[QStringLiteral("result")].toString(), QStringLiteral("res\x1b[31m"));
    }

    // The result channel is the snippet's to write: a result naming 20,000 charts is refused
    // (it wrote 20,000 files), with the limit in the message.
    void tooManyChartsWriteNoFiles()
    {
        const QString charts = m_cli.path(QStringLiteral("many-charts"));
        QDir().mkpath(charts);
        const QByteArray code =
            "import json, os\n"
            "png = b'\\x89PNG\\r\\n\\x1a\\n'\n"
            "def frame(name, data):\n"
            "    os.write(3, json.dumps({'name': name, 'size': len(data)}).encode() + b'\\n' + data)\n"
            "frame('a.png', png)\n"
            "frame('result.json', json.dumps({'status': 'success', 'charts': [{'kind': 'png', 'file': 'a.png'}] * 20000}).encode())\n"
            "os._exit(0)\n";
        const auto r = cli({QStringLiteral("--charts-dir"), charts, file(QStringLiteral("many.py"), code)});
        QVERIFY2(r.err.contains("The result is too large: 20,000 charts; the limit is 100 per run"), r.err.constData());
        QCOMPARE(QDir(charts).entryList(QDir::Files).size(), 0);
    }

    // --json writes its charts one by one; the object is the same.
    void jsonCharts()
    {
        const auto r = cli({QStringLiteral("--json"), file(QStringLiteral("charts.py"),
                            "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\n"
                            "chart = {'type': 'line', 'title': 't', 'elements': [{'label': 'a', 'points': [[0, 1], [1, 2]]}]}\n")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray charts = r.json()[QStringLiteral("charts")].toArray();
        QCOMPARE(charts.size(), 2);
        QCOMPARE(charts[0].toObject()[QStringLiteral("format")].toString(), QStringLiteral("png"));
        QVERIFY(QByteArray::fromBase64(charts[0].toObject()[QStringLiteral("base64")].toString().toLatin1()).startsWith("\x89PNG"));
        QCOMPARE(charts[1].toObject()[QStringLiteral("elements")].toArray()[0].toObject()[QStringLiteral("points")].toArray().size(), 2);
        QCOMPARE(r.json()[QStringLiteral("status")].toString(), QStringLiteral("success"));
    }

    void validateAndUsage()
    {
        auto r = cli({QStringLiteral("--validate"), QStringLiteral("--json")});
        const QJsonObject report = r.json();
        QCOMPARE(report[QStringLiteral("provider")].toString(), QStringLiteral("local"));
        QVERIFY(report[QStringLiteral("items")].toArray().size() >= 3);
        QVERIFY2(r.out.contains("yfinance"), r.out.constData());
        // Two paid runs of its own (the other cases' runs, when they ran first, count too).
        QCOMPARE(cli({file(QStringLiteral("u1.py"), "print(1)\n")}).exitCode, 0);
        QCOMPARE(cli({file(QStringLiteral("u2.py"), "1/0\n")}).exitCode, 1);
        r = cli({QStringLiteral("--usage"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject usage = r.json();
        QVERIFY(usage[QStringLiteral("runs")].toArray().size() >= 2);
        QVERIFY(usage[QStringLiteral("total_usd")].toDouble() >= 0.10);
        QVERIFY(!usage[QStringLiteral("credits_enabled")].toBool());
    }

    void documentsRunTheirStoredRevisions()
    {
        auto r = cli({QStringLiteral("--save"), file(QStringLiteral("v1.py"), "print('version one')\n"), QStringLiteral("--title"),
                      QStringLiteral("doc.py"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QString documentId = r.json()[QStringLiteral("document_id")].toString();
        const QString rev1 = r.json()[QStringLiteral("revision_id")].toString();
        QVERIFY(!documentId.isEmpty() && !rev1.isEmpty());
        r = cli({QStringLiteral("--save"), file(QStringLiteral("v2.py"), "print('version two')\n"), QStringLiteral("--document"),
                 documentId, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QString rev2 = r.json()[QStringLiteral("revision_id")].toString();
        QVERIFY(rev2 != rev1);

        r = cli({QStringLiteral("--document"), documentId, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json()[QStringLiteral("stdout")].toString(), QStringLiteral("version two\n"));
        QCOMPARE(r.json()[QStringLiteral("document_id")].toString(), documentId);
        QCOMPARE(r.json()[QStringLiteral("revision_id")].toString(), rev2);
        r = cli({QStringLiteral("--document"), documentId, QStringLiteral("--revision"), rev1, QStringLiteral("--json")});
        QCOMPARE(r.json()[QStringLiteral("stdout")].toString(), QStringLiteral("version one\n"));
        QCOMPARE(r.json()[QStringLiteral("revision_id")].toString(), rev1);

        r = cli({QStringLiteral("--list-documents"), QStringLiteral("--json")});
        const QJsonObject doc = r.array().first().toObject();
        QCOMPARE(doc[QStringLiteral("id")].toString(), documentId);
        QCOMPARE(doc[QStringLiteral("revision_count")].toInt(), 2);
        QCOMPARE(doc[QStringLiteral("head_revision_id")].toString(), rev2);
        QCOMPARE(doc[QStringLiteral("language")].toString(), QStringLiteral("python"));
        r = cli({QStringLiteral("--list-revisions"), documentId, QStringLiteral("--json")});
        QCOMPARE(r.array().size(), 2);
        for (const char* key : {"id", "parent_id", "sha256", "size", "created_at"})
            QVERIFY(r.array().first().toObject().contains(QLatin1String(key)));

        // A revision of another document is refused, recorded at $0.
        r = cli({QStringLiteral("--save"), file(QStringLiteral("o.py"), "print('other')\n"), QStringLiteral("--json")});
        const QString otherDoc = r.json()[QStringLiteral("document_id")].toString();
        r = cli({QStringLiteral("--document"), otherDoc, QStringLiteral("--revision"), rev1, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.json()[QStringLiteral("cost_usd")].toDouble(), 0.0);
        QVERIFY2(r.json()[QStringLiteral("message")].toString().contains(QStringLiteral("does not belong")),
                 qPrintable(r.json()[QStringLiteral("message")].toString()));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
