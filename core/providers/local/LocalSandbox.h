#pragma once

#include "providers/Sandbox.h"
#include "providers/SandboxOptions.h"

#include <QList>
#include <QMap>
#include <QPair>
#include <QTemporaryDir>
#include <atomic>
#include <memory>

namespace sandpad {

class ResultFrameParser;

// Everything a LocalSandbox needs from its provider.
struct LocalSandboxConfig {
    SandboxOptions options;
    QString bwrap;          // absolute path of bwrap on the host
    QString setpriv;        // absolute path of setpriv (used when running as root)
    QString python;         // interpreter paths as seen inside the sandbox
    QString node;
    QString fontCacheFile;  // host fontlist-*.json to bind into MPLCONFIGDIR; may be empty
    QList<QPair<QString, QString>> writableBinds; // host -> sandbox; only for the font-cache build
};

// One bubblewrap sandbox (see docs/local-sandbox.md): a host temp dir bound read-only at
// /sandpad, one bwrap process per run(), results over fd 3. Used from one thread.
class LocalSandbox : public Sandbox {
public:
    static constexpr int kSandboxUid = 65534;
    static constexpr qint64 kMaxResultBytes = 64LL * 1024 * 1024;

    // Throws ProviderError(Io) when the temp dir cannot be made.
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

    // The host folder behind /sandpad (tests use it to plant canaries).
    QString hostWorkDir() const;
    // Frames cut because the result channel exceeded kMaxResultBytes, and a protocol error if any.
    QStringList truncatedResults() const { return m_truncated; }
    QString resultChannelError() const { return m_resultError; }
    // chmod 0700, and under root chown to uid 65534: a folder only the sandbox user can enter.
    static bool restrictToSandboxUser(const QString& path);
    // The full argv (program first) that run() would start for a command; for tests and docs.
    QStringList commandLine(const SandboxCommand& command) const;

    // --- Pre-started ("warm") sandboxes, for LocalProvider's pool (docs/local-sandbox.md).
    // The warm command of a language: the wrapper with `--warm`, started before the job is known.
    static SandboxCommand warmCommand(Language language, const QString& interpreter);
    // Starts `command` now (same bwrap policy and limits, except that CPU time and address space
    // are set when the job arrives) with a job socket on fd 6. The thread that calls this must
    // outlive the process (bwrap's --die-with-parent follows the starting thread).
    void prestart(const SandboxCommand& command);
    // Blocks until the wrapper reported ready (its imports done); false when it died, the time
    // ran out or *abort became true (checked every 100 ms).
    bool waitReady(int timeoutMs, const std::atomic<bool>* abort = nullptr);
    bool isPrestarted() const { return m_warm.pid > 0; }
    bool isReady() const { return m_warm.ready; }
    // False once a pre-started process has exited (e.g. killed for memory) before its job.
    bool isWarmAlive() const;
    // The deadline a pooled sandbox is handed out with (the pool starts it before it is known).
    void setDeadlineSeconds(int seconds) { m_config.options.deadlineSeconds = seconds; }
    const SandboxOptions& options() const { return m_config.options; }

private:
    struct WarmProcess {
        int pid = -1;           // bwrap (or setpriv exec'ing it): our direct child
        int pidFd = -1;         // readable when it exits
        int outFd = -1, errFd = -1, resultFd = -1, infoFd = -1, jobFd = -1;
        int interpreterPid = -1;// the wrapper's host pid, for prlimit at job start
        SandboxCommand command;
        QByteArray info;
        int childPid = -1;      // bwrap's --info-fd child-pid (PID 1 of the namespace)
        int pid1Fd = -1;        // pidfd of it: PID 1 exits only after every process of its namespace
        bool ready = false;
        bool reaped = false;
        int status = 0;
    };
    QString hostPathFor(const QString& sandboxPath) const;
    QStringList bwrapArguments(const SandboxCommand& command) const;
    bool warmCompatible(const SandboxCommand& command) const;
    CommandOutcome runWarm(const SandboxCommand& command, const OutputCallback& onOutput,
                           RunControl& control);
    void readWarmInfo();
    void killWarm();
    void closeWarmFds();
    QByteArray applyJobLimits(qint64 timeoutMs); // the job line's limits part, if any
    // Both run paths, once the sandbox is gone: keep what came over the result channel.
    void takeResults(ResultFrameParser& parser);
    // The outcome of a run that ended by itself (not stopped). Throws when the sandbox was not
    // set up: !setUp, or bwrap/setpriv failed (exit 1 and its message on stderr).
    static CommandOutcome endedOutcome(bool bwrapKilled, int code, const QByteArray& stderrHead, bool setUp);

    WarmProcess m_warm;
    bool m_prestarting = false; // bwrapArguments: limits for a warm start

    LocalSandboxConfig m_config;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_id;
    QString m_fontTarget; // /tmp/mpl/fontlist-vNNN.json when a font cache is bound
    QMap<QString, QByteArray> m_results;
    QStringList m_truncated;
    QString m_resultError;
    QList<int> m_namespaceFds; // pid namespaces of past runs, held open so inodes stay unique
    bool m_destroyed = false;
    CleanupReport m_cleanup;
};

} // namespace sandpad
