// A cold run whose PID 1 reports "exec" late: the program (the Python wrapper) can finish and send
// its "done" frame before PID 1 has said it started the program, and the host then kills the
// sandbox at once. What the program printed must still reach the user (it was held back as
// possible bubblewrap set-up output and dropped, while the run was billed as a success).
#include "ExecutionChecks.h"

#include "core/engine/Executor.h"
#include "core/providers/local/LocalProvider.h"
#include "core/providers/local/SandboxLaunch.h"

#include <QFile>
#include <QFileInfo>
#include <QtTest>

using namespace sandpad;

class TestLateInit : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists("/usr/bin/bwrap"))
            QSKIP("bubblewrap is not installed");
        QFile late(QStringLiteral(SANDPAD_LATE_INIT));
        QVERIFY2(late.open(QIODevice::ReadOnly), SANDPAD_LATE_INIT);
        localsandbox::SandboxLaunch::replaceInitProgram(late.readAll());
    }

    void cleanupTestCase() { localsandbox::SandboxLaunch::replaceInitProgram({}); }

    void outputOfAProgramFasterThanItsInit()
    {
        auto provider = std::make_shared<LocalProvider>();
        provider->setPoolSize(0); // cold: PID 1 reports while the program runs
        Executor cold(provider, nullptr);
        const ExecutionResult r = cold.run(ExecutionRequest::adHoc(
            Language::Python, QStringLiteral("import sys\nprint('to stdout')\nprint('to stderr', file=sys.stderr)\n")));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("to stdout\n"));
        QCOMPARE(r.stderrText, QStringLiteral("to stderr\n"));
    }

    // JavaScript has no "done" frame: its run ends when node exits, after PID 1's report.
    void javascriptToo()
    {
        auto provider = std::make_shared<LocalProvider>();
        provider->setPoolSize(0);
        Executor cold(provider, nullptr);
        const ExecutionResult r = cold.run(ExecutionRequest::adHoc(Language::JavaScript, QStringLiteral("console.log('js')\n")));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("js\n"));
    }
};

QTEST_GUILESS_MAIN(TestLateInit)
#include "test_late_init.moc"
