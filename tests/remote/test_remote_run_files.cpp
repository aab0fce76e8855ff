// The run's files on the remote providers (the Vercel and Daytona fakes, the example command
// provider), through the full Executor: the same scratch cwd apart from the wrapper's files,
// artifacts back through out_dir and Sandbox::readFile, input files read-only, stdin, input().
#include "ExecutionChecks.h"
#include "FakeProviderExecutors.h"
#include "TestChecks.h"

#include "core/run/ExecutionRequest.h"

#include <QCryptographicHash>
#include <QtTest>

using namespace sandpad;

class TestRemoteRunFiles : public QObject {
    Q_OBJECT

    FakeProviderExecutors m_remote;

    ExecutionResult run(Language lang, const QString& code, const RunInput& input = {})
    {
        auto request = ExecutionRequest::adHoc(lang, code, QStringLiteral("snippet"));
        request.deadlineSeconds = 60;
        request.input = input;
        return m_remote.executor().run(request);
    }

private slots:
    void initTestCase_data() { FakeProviderExecutors::addProviderRows(); }

    void initTestCase() { SANDPAD_CHECK(m_remote.start(3000)); }

    void scratchCwdAndArtifacts()
    {
        RunInput input;
        input.files = {InputFile{QStringLiteral("in.csv"), QByteArray("a,b\n1,2\n")}};
        const ExecutionResult r = run(Language::Python, QStringLiteral(
            "import os, stat\nprint(os.path.basename(os.getcwd()), sorted(os.listdir('.')), oct(stat.S_IMODE(os.stat('in.csv').st_mode)))\n"
            "rows = open('in.csv').read().splitlines()\nos.makedirs('out')\nopen('out/n.txt', 'w').write(str(len(rows)))\n"), input);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("work ['in.csv'] 0o444\n"));
        QCOMPARE(r.artifacts.size(), 1);
        QCOMPARE(r.artifacts[0].name, QStringLiteral("out/n.txt"));
        QCOMPARE(r.artifacts[0].content, QByteArray("2"));
        QCOMPARE(r.artifacts[0].sha256, QString::fromLatin1(QCryptographicHash::hash("2", QCryptographicHash::Sha256).toHex()));
        QCOMPARE(r.artifacts[0].mimeType, QStringLiteral("text/plain"));
    }

    void javascriptArtifacts()
    {
        const ExecutionResult r = run(Language::JavaScript, QStringLiteral(
            "const fs = require('fs');\nfs.writeFileSync('o.json', '[1]');\nconsole.log(fs.readdirSync('.').join());"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("o.json\n"));
        QCOMPARE(r.artifacts.size(), 1);
        QCOMPARE(r.artifacts[0].content, QByteArray("[1]"));
    }

    void stdinAndNoInput()
    {
        RunInput input;
        input.stdinData = QByteArray("42\n");
        ExecutionResult r = run(Language::Python, QStringLiteral("print(int(input()) + 1)"), input);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("43\n"));
        r = run(Language::Python, QStringLiteral("input()"));
        QCOMPARE(r.status, RunStatus::Error);
        QVERIFY(r.error);
        QCOMPARE(r.error->value, QStringLiteral("this run has no input: give it in the Input box or with --stdin"));
    }
};

QTEST_GUILESS_MAIN(TestRemoteRunFiles)
#include "test_remote_run_files.moc"
