// The run's files on the remote providers (the Vercel and Daytona fakes, the example command
// provider), through the full Executor: the same scratch cwd apart from the wrapper's files,
// artifacts back through out_dir and Sandbox::readFile, input files read-only, stdin, input().
#include "FakeProviderConfigs.h"
#include "FakeServer.h"
#include "TempDatabase.h"

#include "core/accounting/UsageLedger.h"
#include "core/engine/Executor.h"
#include "core/providers/command/CommandProvider.h"
#include "core/providers/daytona/DaytonaProvider.h"
#include "core/providers/vercel/VercelProvider.h"
#include "core/run/ExecutionRequest.h"

#include <QCryptographicHash>
#include <QtTest>

using namespace sandpad;

namespace {

QString describe(const ExecutionResult& r)
{
    return QStringLiteral("status=%1 reason=%2\nstdout=%3\nstderr=%4\nerror=%5")
        .arg(runStatusName(r.status), r.reason, r.stdoutText.left(1500), r.stderrText.left(800),
             r.error ? r.error->name + u':' + r.error->value + u'\n' + r.error->traceback : QStringLiteral("-"));
}

} // namespace

class TestRemoteRunFiles : public QObject {
    Q_OBJECT

    TempDatabase m_data;
    std::unique_ptr<UsageLedger> m_ledger;
    std::unique_ptr<FakeServer> m_vercel, m_daytona;
    QMap<QString, std::shared_ptr<Executor>> m_executors;

    ExecutionResult run(Language lang, const QString& code, const RunInput& input = {})
    {
        QFETCH_GLOBAL(QString, provider);
        auto request = ExecutionRequest::adHoc(lang, code, QStringLiteral("snippet"));
        request.deadlineSeconds = 60;
        request.input = input;
        return m_executors.value(provider)->run(request);
    }

private slots:
    void initTestCase_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::newRow("vercel") << QStringLiteral("vercel");
        QTest::newRow("daytona") << QStringLiteral("daytona");
        QTest::newRow("command") << QStringLiteral("command");
    }

    void initTestCase()
    {
        QVERIFY2(m_data.open(), qPrintable(m_data.error()));
        m_ledger = std::make_unique<UsageLedger>(m_data.db());
        m_vercel = std::make_unique<FakeServer>(QStringLiteral("fake_vercel.py"));
        m_daytona = std::make_unique<FakeServer>(QStringLiteral("fake_daytona.py"));
        QVERIFY(m_vercel->started() && m_daytona->started());
        VercelConfig v = fakeVercelConfig(*m_vercel);
        v.confirmTimeoutMs = 3000;
        DaytonaConfig d = fakeDaytonaConfig(*m_daytona);
        d.confirmTimeoutMs = 3000;
        CommandProviderConfig c;
        c.program = QStringLiteral(SANDPAD_SOURCE_DIR "/resources/runtime/command-provider-example.py");
        m_executors.insert(QStringLiteral("vercel"), std::make_shared<Executor>(std::make_shared<VercelProvider>(v), m_ledger.get()));
        m_executors.insert(QStringLiteral("daytona"), std::make_shared<Executor>(std::make_shared<DaytonaProvider>(d), m_ledger.get()));
        m_executors.insert(QStringLiteral("command"), std::make_shared<Executor>(std::make_shared<CommandProvider>(c), m_ledger.get()));
    }

    void scratchCwdAndArtifacts()
    {
        RunInput input;
        input.files = {InputFile{QStringLiteral("in.csv"), QByteArray("a,b\n1,2\n")}};
        const ExecutionResult r = run(Language::Python, QStringLiteral(
            "import os, stat\nprint(os.path.basename(os.getcwd()), sorted(os.listdir('.')), oct(stat.S_IMODE(os.stat('in.csv').st_mode)))\n"
            "rows = open('in.csv').read().splitlines()\nos.makedirs('out')\nopen('out/n.txt', 'w').write(str(len(rows)))\n"), input);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
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
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("o.json\n"));
        QCOMPARE(r.artifacts.size(), 1);
        QCOMPARE(r.artifacts[0].content, QByteArray("[1]"));
    }

    void stdinAndNoInput()
    {
        RunInput input;
        input.stdinData = QByteArray("42\n");
        ExecutionResult r = run(Language::Python, QStringLiteral("print(int(input()) + 1)"), input);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("43\n"));
        r = run(Language::Python, QStringLiteral("input()"));
        QCOMPARE(r.status, RunStatus::Error);
        QVERIFY(r.error);
        QCOMPARE(r.error->value, QStringLiteral("this run has no input: give it in the Input box or with --stdin"));
    }
};

QTEST_GUILESS_MAIN(TestRemoteRunFiles)
#include "test_remote_run_files.moc"
