#pragma once

#include "core/providers/local/LocalSandbox.h"
#include "core/sandbox/SessionSandbox.h"

#include <QMutex>
#include <memory>

namespace sandpad {

// A notebook session in the local sandbox (docs/local-sandbox.md, "Sessions"): a pre-started
// LocalSandbox - same bwrap policy, seccomp, PID 1, lifeline and limits as a one-run sandbox -
// whose warm wrapper is sent the job `--session` and then runs one execution per job, each
// answered by "done N" on the job socket. The deadline, a cancel or the memory limit kill the
// whole sandbox (the session then has to be started again); an interrupt is SIGINT to the
// interpreter. After each execution every other process in the sandbox is killed and confirmed
// gone (StrayProcesses). Used from one thread at a time, except interrupt().
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

private:
    void fail(const QString& why); // ends the sandbox and throws ProviderError(Io)

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
};

} // namespace sandpad
