// The run's files through the real Executor on the local provider, cold and pre-started (pooled):
// a writable scratch cwd apart from the wrapper's files, artifacts (name, size, type, sha256),
// input files placed read-only, stdin, input() without input. docs/runtime-protocol.md,
// "Working directory, input files, stdin, artifacts".
#include "ExecutionChecks.h"
#include "LocalRunFixture.h"

#include <QCryptographicHash>
#include <QTest>

using namespace sandpad;

class TestRunFiles : public QObject {
    Q_OBJECT

    LocalRunFixture m_local;

    ExecutionResult run(bool pooled, Language language, const QString& code, const RunInput& input = {})
    {
        ExecutionRequest request = LocalRunFixture::request(language, code);
        request.input = input;
        return m_local.run(pooled, request);
    }

private slots:
    void initTestCase()
    {
        if (!m_local.start({Language::JavaScript}))
            QSKIP("bubblewrap is not installed");
    }

    void cleanupTestCase() { m_local.stop(); }

    // Relative writes land in a scratch cwd that holds none of the wrapper's files, and come back.
    void pythonWritesComeBack_data() { LocalRunFixture::addPathRows(); }
    void pythonWritesComeBack()
    {
        QFETCH(bool, pooled);
        const ExecutionResult r = run(pooled, Language::Python, QStringLiteral(
            "import os\nprint(os.getcwd(), sorted(os.listdir('.')))\n"
            "open('x.txt', 'w').write('hello')\nos.makedirs('sub')\nopen('sub/d.csv', 'w').write('a,b\\n1,2\\n')\n"
            "f = open('unclosed.txt', 'w')\nf.write('pending')\n"
            "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.savefig('plot.png')\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("/sandpad/work []\n"));
        QCOMPARE(artifactNames(r), (QStringList{QStringLiteral("plot.png"), QStringLiteral("sub/d.csv"),
                                        QStringLiteral("unclosed.txt"), QStringLiteral("x.txt")}));
        const RunArtifact* x = findArtifact(r, QStringLiteral("x.txt"));
        QCOMPARE(x->content, QByteArray("hello"));
        QCOMPARE(x->size, 5);
        QCOMPARE(x->sha256, QString::fromLatin1(QCryptographicHash::hash("hello", QCryptographicHash::Sha256).toHex()));
        QCOMPARE(x->mimeType, QStringLiteral("text/plain"));
        QCOMPARE(findArtifact(r, QStringLiteral("sub/d.csv"))->mimeType, QStringLiteral("text/csv"));
        QCOMPARE(findArtifact(r, QStringLiteral("unclosed.txt"))->content, QByteArray("pending"));
        QCOMPARE(findArtifact(r, QStringLiteral("plot.png"))->mimeType, QStringLiteral("image/png"));
        QVERIFY(findArtifact(r, QStringLiteral("plot.png"))->content.startsWith("\x89PNG"));
        QCOMPARE(r.charts.size(), 1); // the open figure stays a chart as well
    }

    void javascriptWritesComeBack_data() { LocalRunFixture::addPathRows(); }
    void javascriptWritesComeBack()
    {
        QFETCH(bool, pooled);
        const ExecutionResult r = run(pooled, Language::JavaScript, QStringLiteral(
            "const fs = require('fs');\nconsole.log(process.cwd(), fs.readdirSync('.').length);\n"
            "fs.writeFileSync('out.json', JSON.stringify({a: 1}));\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("/sandpad/work 0\n"));
        QCOMPARE(artifactNames(r), QStringList{QStringLiteral("out.json")});
        QCOMPARE(r.artifacts[0].content, QByteArray(R"({"a":1})"));
        QCOMPARE(r.artifacts[0].mimeType, QStringLiteral("application/json"));
    }

    // Input files are in the cwd, read-only; unchanged they are not returned, changed they are.
    void inputFiles_data() { LocalRunFixture::addPathRows(); }
    void inputFiles()
    {
        QFETCH(bool, pooled);
        RunInput input;
        input.files = {InputFile{QStringLiteral("data.csv"), QByteArray("x,y\n1,2\n")},
                       InputFile{QStringLiteral("notes.txt"), QByteArray("keep")}};
        const ExecutionResult r = run(pooled, Language::Python, QStringLiteral(
            "import os, stat\nprint(sorted(os.listdir('.')), oct(stat.S_IMODE(os.stat('data.csv').st_mode)))\n"
            "print(open('data.csv').read().splitlines())\n"
            "try:\n    open('notes.txt', 'a').write('x')\nexcept PermissionError:\n    print('read-only')\n"
            "os.chmod('notes.txt', 0o644)\nopen('notes.txt', 'a').write(' changed')\n"), input);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("['data.csv', 'notes.txt'] 0o444\n['x,y', '1,2']\nread-only\n"));
        QCOMPARE(artifactNames(r), QStringList{QStringLiteral("notes.txt")});
        QCOMPARE(r.artifacts[0].content, QByteArray("keep changed"));
    }

    void javascriptInputFiles_data() { LocalRunFixture::addPathRows(); }
    void javascriptInputFiles()
    {
        QFETCH(bool, pooled);
        RunInput input;
        input.files = {InputFile{QStringLiteral("in.txt"), QByteArray("from the host")}};
        const ExecutionResult r = run(pooled, Language::JavaScript,
                                      QStringLiteral("console.log(require('fs').readFileSync('in.txt', 'utf8'));"), input);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("from the host\n"));
        QVERIFY(r.artifacts.isEmpty());
    }

    void stdinGiven_data() { LocalRunFixture::addPathRows(); }
    void stdinGiven()
    {
        QFETCH(bool, pooled);
        RunInput input;
        input.stdinData = QByteArray("Ada\nrest of it\n");
        const ExecutionResult r = run(pooled, Language::Python, QStringLiteral(
            "import sys\nname = input('Name? ')\nprint('hello', name, sys.stdin.read().split())"), input);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("Name? hello Ada ['rest', 'of', 'it']\n"));
        const ExecutionResult js = run(pooled, Language::JavaScript, QStringLiteral(
            "let got = '';\nprocess.stdin.on('data', (d) => got += d);\nprocess.stdin.on('end', () => console.log(JSON.stringify(got)));"),
            input);
        QVERIFY2(js.status == RunStatus::Success, qPrintable(describeResult(js)));
        QCOMPARE(js.stdoutText, QStringLiteral("\"Ada\\nrest of it\\n\"\n"));
    }

    // No input: input() says so plainly; stdin reads are EOF.
    void noInput_data() { LocalRunFixture::addPathRows(); }
    void noInput()
    {
        QFETCH(bool, pooled);
        const ExecutionResult r = run(pooled, Language::Python, QStringLiteral("import sys\nprint(repr(sys.stdin.read()))\ninput()"));
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.stdoutText, QStringLiteral("''\n"));
        QVERIFY(r.error);
        QCOMPARE(r.error->name, QStringLiteral("EOFError"));
        QCOMPARE(r.error->value, QStringLiteral("this run has no input: give it in the Input box or with --stdin"));
        const ExecutionResult js = run(pooled, Language::JavaScript, QStringLiteral(
            "let n = 0;\nprocess.stdin.on('data', (d) => n += d.length);\nprocess.stdin.on('end', () => console.log('eof', n));"));
        QVERIFY2(js.status == RunStatus::Success, qPrintable(describeResult(js)));
        QCOMPARE(js.stdoutText, QStringLiteral("eof 0\n"));
    }

    // Bad input is refused before any sandbox exists, in words.
    void badInputRefused()
    {
        RunInput input;
        input.files = {InputFile{QStringLiteral("../escape"), QByteArray("x")}};
        ExecutionResult r = run(false, Language::Python, QStringLiteral("print(1)"), input);
        QCOMPARE(r.status, RunStatus::InfrastructureError);
        QVERIFY2(r.reason.contains(QStringLiteral("plain file name")), qPrintable(r.reason));
        QCOMPARE(r.costMicros, 0);
        input.files = {InputFile{QStringLiteral("a"), QByteArray()}, InputFile{QStringLiteral("a"), QByteArray()}};
        r = run(false, Language::Python, QStringLiteral("print(1)"), input);
        QVERIFY2(r.reason.contains(QStringLiteral("two input files")), qPrintable(r.reason));
    }
};

QTEST_GUILESS_MAIN(TestRunFiles)
#include "test_run_files.moc"
