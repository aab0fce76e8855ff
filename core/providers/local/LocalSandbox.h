#pragma once

#include "core/runtime/ResultLimits.h"
#include "core/sandbox/Sandbox.h"
#include "core/sandbox/SandboxOptions.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QPair>
#include <atomic>
#include <memory>

namespace sandpad {

class ResultFrameParser;

namespace localsandbox {
class SandboxProcess;
struct InitStatus;
}

// Everything a LocalSandbox needs from its provider.
struct LocalSandboxConfig {
    SandboxOptions options;
    QString bwrap;          // absolute path of bwrap on the host
    QString setpriv;        // absolute path of setpriv (used when running as root)
    QString python;         // interpreter paths as seen inside the sandbox
    QString node;
    QString fontCacheName;  // fontlist-vNNN.json, copied into MPLCONFIGDIR; may be empty
    QByteArray fontCache;
    QByteArray resolvConf;  // /etc/resolv.conf when the network is allowed
};

// One bubblewrap sandbox (see docs/local-sandbox.md): nothing on the host's disk - the program's
// files are kept here and copied into the sandbox's own tmpfs /sandpad when a run starts - one
// bwrap process per run() with sandpad-init as its PID 1, results over fd 3. Used from one thread.
class LocalSandbox : public Sandbox {
public:
    static constexpr int kSandboxUid = 65534;
    static constexpr qint64 kMaxResultBytes = ResultLimits::channelBytes;

    explicit LocalSandbox(const LocalSandboxConfig& config);
    ~LocalSandbox() override;

    QString id() const override;
    QString workDir() const override;
    QString interpreter(Language language) const override;
    QStringList pipArguments() const override;

    void writeFiles(const QList<SandboxFile>& files) override;
    CommandOutcome run(const SandboxCommand& command, const OutputCallback& onOutput,
                       RunControl& control) override;
    std::optional<QByteArray> readFile(const QString& path) override;
    CleanupReport destroy() override;

    // Frames cut because the result channel exceeded kMaxResultBytes, and a protocol error if any.
    QStringList truncatedResults() const { return m_truncated; }
    QString resultChannelError() const { return m_resultError; }
    // The full argv (program first) that run() would start for a command; for tests and docs.
    QStringList commandLine(const SandboxCommand& command) const;
    // The host pid of the last run's PID 1 (tests look at it from outside); -1 before a run.
    int lastPid1() const { return m_lastPid1; }

    // --- Pre-started ("warm") sandboxes, for LocalProvider's pool (docs/local-sandbox.md).
    // The warm command of a language: the wrapper with `--warm`, started before the job is known.
    static SandboxCommand warmCommand(Language language, const QString& interpreter);
    // Starts `command` now (same bwrap policy and limits, except that CPU time and address space
    // are set when the job arrives) with a job socket on fd 6; the files written so far (the
    // wrapper) are placed.
    void prestart(const SandboxCommand& command);
    // Blocks until the wrapper reported ready (its imports done); false when it died, the time
    // ran out or *abort became true (checked every 100 ms).
    bool waitReady(int timeoutMs, const std::atomic<bool>* abort = nullptr);
    enum class Warmth { Starting, Ready, Failed };
    // One look (waiting up to waitMs for the wrapper to say something): the pool polls the
    // sandboxes it is starting with this, under its lock, so waitMs is 0 there.
    Warmth pollReady(int waitMs);
    bool isPrestarted() const;
    bool isReady() const { return m_warmReady; }
    // False once a pre-started process has exited (e.g. killed for memory) before its job.
    bool isWarmAlive() const;
    // The deadline a pooled sandbox is handed out with (the pool starts it before it is known).
    void setDeadlineSeconds(int seconds) { m_config.options.deadlineSeconds = seconds; }
    const SandboxOptions& options() const { return m_config.options; }

private:
    friend class LocalSessionSandbox; // a session is a pre-started sandbox that takes many jobs
    friend class LocalServiceSandbox; // a language service: one that answers lines on its job socket
    bool warmCompatible(const SandboxCommand& command) const;
    // Places W/wrapper.pyc (WrapperBytecode) when the command runs W/wrapper.py; false if not.
    bool placeCompiledWrapper(const SandboxCommand& command);
    // The command with the wrapper's host-compiled bytecode in place of its source, when there is one.
    SandboxCommand withCompiledWrapper(const SandboxCommand& command);
    CommandOutcome runCold(const SandboxCommand& command, const OutputCallback& onOutput,
                           RunControl& control);
    CommandOutcome runWarm(const SandboxCommand& command, const OutputCallback& onOutput,
                           RunControl& control);
    // Both paths: pump the process until it ends (or is stopped), keep what came over the result
    // channel, and say how it ended. Throws when the sandbox was never set up.
    CommandOutcome runToEnd(localsandbox::SandboxProcess& process, const OutputCallback& onOutput,
                            RunControl& control, qint64 timeoutMs);
    // runToEnd (after setUpFromOutside, if asked), then retire the process, also on a throw.
    CommandOutcome runAndRetire(std::unique_ptr<localsandbox::SandboxProcess> process, const OutputCallback& onOutput,
                                RunControl& control, qint64 timeoutMs, bool setUpFirst);
    // What the host sets up from outside before PID 1 starts the program (its cgroup, its
    // network); false when nothing, and PID 1 need not wait.
    bool setUpFromOutsideNeeded() const;
    void setUpFromOutside(localsandbox::SandboxProcess& process);
    bool sendJob(localsandbox::SandboxProcess& process, const SandboxCommand& command, const QByteArray& limits);
    // The job line's limits part, if any. session: the CPU hard limit stays (raised soft limit per
    // execution); addressSpace: set RLIMIT_AS too (once per process).
    QByteArray applyJobLimits(qint64 timeoutMs, bool session = false, bool addressSpace = true);
    // The job's bytes: the files the warm process was not started with, then `line` and a newline.
    QByteArray jobBytes(const QByteArray& line) const;
    // Ends the process of a run (or a never used pre-started one) and confirms it is gone.
    void retire(std::unique_ptr<localsandbox::SandboxProcess> process);

    LocalSandboxConfig m_config;
    QString m_id;
    QList<SandboxFile> m_files;          // what writeFiles placed, in order (latest wins)
    QList<SandboxFile> m_warmFiles;      // what the pre-started process was started with
    SandboxCommand m_warmCommand;
    std::unique_ptr<localsandbox::SandboxProcess> m_warm;
    // The last command's sandbox after its wrapper said "done": killed, its teardown confirmed by destroy().
    std::unique_ptr<localsandbox::SandboxProcess> m_ending;
    bool m_warmReady = false;
    bool m_warmFailed = false;
    QByteArray m_warmLine;               // what the warm wrapper said so far ("ready\n")
    int m_interpreterPid = -1;           // the warm wrapper's host pid, for prlimit at job start
    QMap<QString, QByteArray> m_results;
    QStringList m_truncated;
    QString m_resultError;
    int m_lastPid1 = -1;
    QStringList m_cleanupProblems;       // from runs already retired
    bool m_destroyed = false;
    CleanupReport m_cleanup;
};

} // namespace sandpad
