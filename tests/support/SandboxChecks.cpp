#include "SandboxChecks.h"

#include <QtTest>
#include <future>
#include <thread>
#include <utility>

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

void verifyMainScriptRun(Sandbox& sandbox, RunControl& control, const QString& argument, const QString& outFile)
{
    const ScriptRun run = runMainScript(sandbox, control, argument, outFile);
    QCOMPARE(run.outcome.exitCode.value_or(-1), 3);
    QVERIFY(!run.outcome.timedOut && !run.outcome.cancelled);
    QCOMPARE(run.out, QByteArray("out " + argument.toUtf8() + '\n'));
    QCOMPARE(run.err, QByteArray("err\n"));
    QCOMPARE(sandbox.readFile(sandbox.workDir() + QStringLiteral("/out/") + outFile).value_or("?"), QByteArray("hi there"));
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

CommandOutcome runAndCancelWhen(Sandbox& sandbox, RunControl& control, const SandboxCommand& command,
                                const std::function<bool(const QByteArray&, const QByteArray&)>& when,
                                QByteArray* out, QByteArray* err)
{
    QByteArray stdoutBytes, stderrBytes;
    std::promise<void> reached;
    bool done = false;
    std::thread canceller([&control, ready = reached.get_future()]() mutable {
        ready.wait();
        control.cancel();
    });
    const auto outcome = sandbox.run(command, [&](OutputStream s, const QByteArray& b) {
        (s == OutputStream::Stdout ? stdoutBytes : stderrBytes) += b;
        if (!done && when(stdoutBytes, stderrBytes)) {
            done = true;
            reached.set_value();
        }
    }, control);
    if (!done)
        reached.set_value(); // never reached: let the canceller end; the caller's checks fail
    canceller.join();
    if (out)
        *out = stdoutBytes;
    if (err)
        *err = stderrBytes;
    return outcome;
}

namespace {
// Runs `code` and cancels it from another thread as soon as its first output arrives (the event
// itself, never a guessed delay).
CommandOutcome runAndCancelAtFirstOutput(Sandbox& sandbox, RunControl& control, const QString& code, QByteArray* out)
{
    return runAndCancelWhen(sandbox, control, pythonCommand(code),
                            [](const QByteArray& o, const QByteArray& e) { return !o.isEmpty() || !e.isEmpty(); }, out, nullptr);
}
} // namespace

void verifyOutputIsStreamedBeforeExit(Sandbox& sandbox, RunControl& control)
{
    // The program prints, then would sleep for a minute: the line can only have come while it
    // ran (streamed) if cancelling at it ends the run, cancelled, without the second line.
    QByteArray out;
    const auto outcome = runAndCancelAtFirstOutput(
        sandbox, control, QStringLiteral("import time\nprint('first', flush=True)\ntime.sleep(60)\nprint('second')"), &out);
    QVERIFY2(outcome.cancelled, qPrintable(QStringLiteral("not cancelled; output: ") + QString::fromUtf8(out)));
    QCOMPARE(out, QByteArray("first\n"));
}

void verifyCancellationAbortsTheRun(Sandbox& sandbox, RunControl& control)
{
    // Cancelled once the program is surely running (it said so); it would sleep for a minute.
    QByteArray out;
    const auto outcome = runAndCancelAtFirstOutput(
        sandbox, control, QStringLiteral("import time\nprint('running', flush=True)\ntime.sleep(60)"), &out);
    QVERIFY(outcome.cancelled);
    QVERIFY(!outcome.timedOut);
    QVERIFY(!outcome.exitCode);
}

} // namespace sandpad
