// sandpad-run's run files as a user runs them (the real binary, real bwrap, a temporary
// workspace): --input (repeatable, bad files refused), --stdin FILE|-, --artifacts-dir (text and
// --json; never over an existing file), and `artifacts` in --json.
#include "CliDriver.h"
#include "LocalRunFixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringDecoder>
#include <QTest>

using namespace sandpad;

class TestCliRunFiles : public QObject {
    Q_OBJECT
    CliDriver m_cli{{QStringLiteral("--provider"), QStringLiteral("local")}};

    using Result = CliRun;
    Result cli(const QStringList& args, const QByteArray& stdinData = {}) { return m_cli.run(args, stdinData); }
    QString file(const QString& name, const QByteArray& content) { return m_cli.file(name, content); }

    static QByteArray read(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
    }

private slots:
    void initTestCase()
    {
        if (!LocalRunFixture::hasBubblewrap())
            QSKIP("bubblewrap is not installed");
    }

    void inputStdinAndArtifactsInText()
    {
        const QString code = file(QStringLiteral("clean.py"),
            "import os\nrows = open('data.csv').read().split()\nname = input()\n"
            "os.makedirs('out', exist_ok=True)\nopen('out/report.txt', 'w').write(name + ':' + str(len(rows)))\n"
            "print(sorted(os.listdir('.')))\n");
        const QString dir = m_cli.path(QStringLiteral("artifacts"));
        const Result r = cli({QStringLiteral("--input"), file(QStringLiteral("data.csv"), "a\nb\nc\n"), QStringLiteral("--input"),
                              file(QStringLiteral("more.txt"), "m"), QStringLiteral("--stdin"), QStringLiteral("-"),
                              QStringLiteral("--artifacts-dir"), dir, code},
                             "Ada\n");
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("['data.csv', 'more.txt', 'out']\n"));
        QCOMPARE(read(dir + QStringLiteral("/out/report.txt")), QByteArray("Ada:3"));
        QVERIFY(r.err.contains("file out/report.txt saved to "));
        QVERIFY(!QFile::exists(dir + QStringLiteral("/data.csv"))); // an unchanged input is not a result
        // Again into the same folder: the existing file is not overwritten, and it says so.
        const Result again = cli({QStringLiteral("--input"), m_cli.path(QStringLiteral("data.csv")), QStringLiteral("--stdin"),
                                  file(QStringLiteral("in.txt"), "Bob\n"), QStringLiteral("--artifacts-dir"), dir, code});
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.err.contains("exists already (not overwritten)"), again.err.constData());
        QCOMPARE(read(dir + QStringLiteral("/out/report.txt")), QByteArray("Ada:3"));
    }

    void jsonArtifacts()
    {
        const QString code = file(QStringLiteral("w.py"), "open('small.txt', 'w').write('hi')\nopen('big.bin', 'wb').write(b'z' * (2 << 20))\n");
        Result r = cli({QStringLiteral("--json"), code});
        QCOMPARE(r.exitCode, 0);
        QJsonArray artifacts = r.json().value(QStringLiteral("artifacts")).toArray();
        QCOMPARE(artifacts.size(), 2);
        const QJsonObject big = artifacts[0].toObject(), small = artifacts[1].toObject();
        QCOMPARE(small.value(QStringLiteral("name")).toString(), QStringLiteral("small.txt"));
        QCOMPARE(QByteArray::fromBase64(small.value(QStringLiteral("base64")).toString().toLatin1()), QByteArray("hi"));
        QCOMPARE(small.value(QStringLiteral("mime_type")).toString(), QStringLiteral("text/plain"));
        QCOMPARE(small.value(QStringLiteral("sha256")).toString().size(), 64);
        QCOMPARE(big.value(QStringLiteral("size")).toInteger(), 2 << 20);
        QVERIFY(!big.contains(QStringLiteral("base64"))); // over 1 MiB: only with --artifacts-dir
        const QString dir = m_cli.path(QStringLiteral("json-artifacts"));
        r = cli({QStringLiteral("--json"), QStringLiteral("--artifacts-dir"), dir, code});
        artifacts = r.json().value(QStringLiteral("artifacts")).toArray();
        QCOMPARE(artifacts[0].toObject().value(QStringLiteral("path")).toString(), QDir(dir).absoluteFilePath(QStringLiteral("big.bin")));
        QCOMPARE(read(dir + QStringLiteral("/big.bin")).size(), 2 << 20);
    }

    // Issue 26: names that are not UTF-8. --json is strict JSON (valid UTF-8, no lone surrogate)
    // and names them losslessly, escaped (docs/runtime-protocol.md, "Artifacts"); --artifacts-dir
    // writes two files whose names differ only there as two files (before: both as U+FFFD, the
    // second "exists already").
    void namesThatAreNotUtf8()
    {
        const QString code = file(QStringLiteral("names.py"), "open(b'caf\\xe9.txt', 'w').write('1')\n"
                                                               "open('caf\\ufffd.txt', 'w').write('2')\n");
        const QString dir = m_cli.path(QStringLiteral("names-out"));
        const Result r = cli({QStringLiteral("--json"), QStringLiteral("--artifacts-dir"), dir, code});
        QCOMPARE(r.exitCode, 0);
        QStringDecoder utf8(QStringDecoder::Utf8);
        utf8.decode(r.out);
        QVERIFY2(!utf8.hasError(), r.out.constData());
        QVERIFY2(!r.out.contains("\\ud"), r.out.constData()); // no escaped lone surrogate either
        const QJsonArray artifacts = r.json().value(QStringLiteral("artifacts")).toArray();
        QCOMPARE(artifacts.size(), 2);
        QCOMPARE(artifacts[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("caf\\xe9.txt"));
        QCOMPARE(artifacts[1].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("caf\uFFFD.txt"));
        QCOMPARE(read(dir + QStringLiteral("/caf\\xe9.txt")), QByteArray("1"));
        QCOMPARE(read(dir + QStringLiteral("/caf\uFFFD.txt")), QByteArray("2"));
        QVERIFY2(!r.err.contains("exists already"), r.err.constData());
    }

    void badInputIsAUsageError()
    {
        const QString code = file(QStringLiteral("p.py"), "print(1)\n");
        Result r = cli({QStringLiteral("--input"), m_cli.path(QStringLiteral("nope.csv")), code});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--input " + m_cli.path(QStringLiteral("nope.csv")).toUtf8() + " does not exist"), r.err.constData());
        r = cli({QStringLiteral("--input"), m_cli.root(), code});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("is not a regular file"));
        r = cli({QStringLiteral("--stdin"), QStringLiteral("-"), QStringLiteral("-")}, "print(1)\n");
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("both want standard input"));
        // No --stdin: input() says the run has none.
        r = cli({QStringLiteral("--json"), file(QStringLiteral("i.py"), "input()\n")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("value")).toString(),
                 QStringLiteral("this run has no input: give it in the Input box or with --stdin"));
    }
};

QTEST_GUILESS_MAIN(TestCliRunFiles)
#include "test_cli_run_files.moc"
