#include "SandboxChecks.h"

#include <QElapsedTimer>
#include <QtTest>
#include <thread>

namespace sandpad {

SandboxCommand pythonCommand(const QString& code, qint64 timeoutMs)
{
    SandboxCommand cmd;
    cmd.argv = {QStringLiteral("python3"), QStringLiteral("-c"), code};
    cmd.timeoutMs = timeoutMs;
    return cmd;
}

ScriptRun runMainScript(Sandbox& sandbox, RunControl& control, const QString& argument, const QString& outFile)
{
    sandbox.writeFiles({{sandbox.workDir() + QStringLiteral("/main.py"),
                         "import sys, os\nprint('out', sys.argv[1])\nprint('err', file=sys.stderr)\n"
                         "os.makedirs('out', exist_ok=True)\nopen('out/" + outFile.toUtf8() +
                             "','w').write(os.environ['GREETING'])\nsys.exit(3)\n",
                         0644}});
    SandboxCommand cmd;
    cmd.argv = {sandbox.interpreter(Language::Python), QStringLiteral("main.py"), argument};
    cmd.cwd = sandbox.workDir();
    cmd.env = {{QStringLiteral("GREETING"), QStringLiteral("hi there")}};
    ScriptRun run;
    run.outcome = sandbox.run(cmd, [&](OutputStream s, const QByteArray& b) {
        (s == OutputStream::Stdout ? run.out : run.err) += b;
    }, control);
    return run;
}

void verifyProviderError(const std::function<void()>& call, ProviderError::Kind kind, const QString& text,
                         const char* whyNot, QString* message)
{
    try {
        call();
    } catch (const ProviderError& e) {
        if (message)
            *message = e.message();
        QCOMPARE(e.kind(), kind);
        if (!text.isEmpty())
            QVERIFY2(e.message().contains(text), qPrintable(e.message()));
        return;
    }
    QFAIL(whyNot);
}

void verifyOutputIsStreamedBeforeExit(Sandbox& sandbox, RunControl& control)
{
    QElapsedTimer clock;
    qint64 firstAt = -1;
    QByteArray out;
    clock.start();
    const auto outcome = sandbox.run(
        pythonCommand(QStringLiteral("import time\nprint('first', flush=True)\ntime.sleep(2)\nprint('second')")),
        [&](OutputStream, const QByteArray& b) {
            if (firstAt < 0)
                firstAt = clock.elapsed();
            out += b;
        }, control);
    const qint64 total = clock.elapsed();
    QCOMPARE(outcome.exitCode.value_or(-1), 0);
    QCOMPARE(out, QByteArray("first\nsecond\n"));
    QVERIFY2(firstAt >= 0 && total - firstAt >= 1500,
             qPrintable(QStringLiteral("first chunk at %1 ms, exit at %2 ms").arg(firstAt).arg(total)));
}

void verifyCancellationAbortsTheRun(Sandbox& sandbox, RunControl& control)
{
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(800));
        control.cancel();
    });
    QElapsedTimer clock;
    clock.start();
    const auto outcome = sandbox.run(pythonCommand(QStringLiteral("import time\ntime.sleep(60)")), {}, control);
    canceller.join();
    QVERIFY(outcome.cancelled);
    QVERIFY(clock.elapsed() < 8000);
}

} // namespace sandpad
