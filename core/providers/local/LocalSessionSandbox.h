#pragma once

#include "core/providers/local/LocalSandbox.h"
#include "core/sandbox/SessionSandbox.h"

#include <QMutex>
#include <memory>

namespace sandpad {

namespace localsandbox {
class MemoryWatchdogThread;
}

// A notebook session in the local sandbox (docs/local-sandbox.md, "Sessions"): a pre-started
// LocalSandbox - same bwrap policy, seccomp, PID 1, lifeline and limits as a one-run sandbox -
// whose warm wrapper is sent the job `--session` and then runs one execution per job, each
// answered by "done N" on the job socket. The deadline, a cancel or the memory limit kill the
// whole sandbox (the session then has to be started again); an interrupt is SIGINT to the
// interpreter. The memory limit is watched for the session's whole life (executions, fetches,
// completion, idle time), on a thread of its own. After each execution, and before the next,
// every other process in the sandbox is killed and confirmed gone (StrayProcesses); when that
// cannot be confirmed the session ends. Used from one thread at a time, except interrupt().
class LocalSessionSandbox : public SessionSandbox {
public:
    // `warm`: pre-started with LocalSandbox::warmCommand for `language` (from the pool or new).
    LocalSessionSandbox(std::unique_ptr<LocalSandbox> warm, Language language);
    ~LocalSessionSandbox() override;

    // Waits for the warm wrapper, sends `--session` with the session runtime, waits for the
    // session's "ready". Throws ProviderError (and ends the sandbox).
    void start(RunControl& control, int timeoutMs = 120000);

    QString id() const override;
    QString workDir() const override;
    QString interpreter(Language language) const override;
    QStringList pipArguments() const override;
    void writeFiles(const QList<SandboxFile>& files) override;
    // The program's command as RuntimeProgram builds it: argv[2] (the manifest) is the job.
    CommandOutcome run(const SandboxCommand& command, const OutputCallback& onOutput, RunControl& control) override;
    std::optional<QByteArray> readFile(const QString& path) override;
    CleanupReport destroy() override;

    void interrupt() override;
    bool isAlive() override;
    CleanupReport endExecution() override;
    QString endReason() const override;
    void setEndedCallback(std::function<void()> ended) override;
    // The job `--fetch\t<request>`; the answer is the frame `fetch.json`, then "fetched" on the
    // job socket. Not an execution: not counted, no files placed, output discarded.
    QByteArray fetch(const QByteArray& request, RunControl& control, int timeoutMs) override;
    static constexpr qint64 kMaxFetchBytes = 4 << 20; // what one answer may be
    static constexpr int kFetchGraceMs = 3000;        // after the interrupt, before the kill
    static constexpr int kGiveWayResendMs = 10;       // RunControl::giveWay's SIGINT, until answered

    // The interpreter's host pid (tests look at it from outside); -1 when not started.
    int interpreterPid() const { return m_interpreterPid; }
    int pid1() const;
    // How many stray processes the last endExecution() killed.
    int lastStrayCount() const { return m_lastStrays; }

    // The whole-life memory watchdog's samples so far (benchmarks); 0 without a limit.
    int watchdogSamples() const;
    qint64 watchdogCostUs() const;

private:
    void fail(const QString& why); // ends the sandbox and throws ProviderError(Io)
    // Kills what is left besides the interpreter; if that cannot be confirmed, ends the whole
    // sandbox (`when` says which moment, for the reason). False when the session ended.
    bool killStrays(const QString& when, CleanupReport& report);
    // Kills the whole sandbox and confirms it (the session is over).
    CleanupReport endSandbox();

    std::unique_ptr<LocalSandbox> m_sandbox;
    Language m_language;
    QMutex m_signalMutex;               // interrupt() from another thread
    int m_interpreterPid = -1;
    int m_interpreterFd = -1;           // pidfd of the interpreter, for SIGINT
    bool m_executing = false;
    bool m_pendingInterrupt = false;    // interrupt() before the job went out: sent with it
    bool m_dead = false;
    bool m_limitsSet = false;           // RLIMIT_AS is set once, at the first execution
    int m_executions = 0;
    int m_lastStrays = 0;
    std::unique_ptr<localsandbox::MemoryWatchdogThread> m_watchdog;
    mutable QMutex m_endMutex;          // m_endReason and m_ended: the watchdog's thread too
    QString m_endReason;
    std::function<void()> m_ended;
};

} // namespace sandpad
