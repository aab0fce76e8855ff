#pragma once

#include "core/providers/http/RemoteSandbox.h"
#include "core/sandbox/SessionSandbox.h"

#include <QHash>
#include <QMutex>
#include <memory>
#include <thread>
#include <vector>

namespace sandpad {

// A notebook session on Vercel or Daytona (docs/runtime-protocol.md, "Remote sessions"): one
// remote sandbox kept alive, in which resources/runtime/session_host.py runs detached and keeps
// the session's interpreter (session.py / session.mjs, as locally). Each execution is an ordinary
// streamed remote command, the relay, which hands the host its stdout/stderr and exits with the
// execution's status once every process the execution started is confirmed gone. An interrupt
// is a relay of its own, sent from a thread of its own, naming its execution (the host keeps one
// that comes before its execution's relay); the deadline or a cancel kill the relay and end the
// whole session (the sandbox is deleted and confirmed gone). A table fetch is a relay too. The
// sandbox's own timeout is moved as needed (RemoteSandbox::keepAlive): ahead of each execution's
// deadline, and after it by the idle setting plus a margin; when the service stopped it anyway,
// the execution says so and the next one starts a new session. The session host is Python: an
// image without python3 cannot keep a session (NoSessionError). Used from one thread at a time
// (an execution's or a fetch's), but interrupt().
class RemoteSessionSandbox : public SessionSandbox {
public:
    // Before each execution the sandbox must have this much time left beyond its deadline; after
    // it, the time the session may sit idle (setIdleSeconds(), NotebookSession's idle end) plus
    // kIdleMarginMs.
    static constexpr qint64 kExecutionMarginMs = 120 * 1000;
    static constexpr qint64 kIdleMarginMs = 2 * 60 * 1000;
    static constexpr int kDefaultIdleSeconds = 30 * 60;
    // A fetch: the host interrupts the value's code at its timeout and kills the interpreter this
    // much later; the relay's own deadline is a little beyond. What one answer may be.
    static constexpr int kFetchGraceMs = 3000;
    static constexpr qint64 kMaxFetchBytes = 4 << 20;

    RemoteSessionSandbox(std::unique_ptr<RemoteSandbox> sandbox, Language language);
    ~RemoteSessionSandbox() override;

    // Places the runtime, starts the host detached and waits until the interpreter is ready.
    // Throws ProviderError (the sandbox is then deleted).
    void start(RunControl& control, int readySeconds = 120);

    QString id() const override { return m_sandbox->id(); }
    QString workDir() const override { return m_sandbox->workDir(); }
    QString interpreter(Language language) const override { return m_sandbox->interpreter(language); }
    QStringList pipArguments() const override { return m_sandbox->pipArguments(); }
    // Files already placed with the same bytes (the wrapper and its modules, each execution) are
    // not sent again.
    void writeFiles(const QList<SandboxFile>& files) override;
    // The program's command as RuntimeProgram builds it: argv[2] (the manifest) is the execution.
    CommandOutcome run(const SandboxCommand& command, const OutputCallback& onOutput, RunControl& control) override;
    std::optional<QByteArray> readFile(const QString& path) override { return m_sandbox->readFile(path); }
    CleanupReport destroy() override;

    void interrupt() override;
    bool isAlive() override { return !m_dead; }
    CleanupReport endExecution() override;
    QByteArray fetch(const QByteArray& request, RunControl& control, int timeoutMs) override;
    void setIdleSeconds(int seconds) override { m_idleKeepMs = qint64(qMax(1, seconds)) * 1000 + kIdleMarginMs; }
    qint64 idleKeepMs() const { return m_idleKeepMs; }

    RemoteSandbox& remote() { return *m_sandbox; }
    // How many stray processes the host killed after the last execution.
    int lastStrayCount() const { return m_lastStrays; }

private:
    QString hostPath() const;
    SandboxCommand relay(const QStringList& args, qint64 timeoutMs) const;
    // W/.session/exec.json: the host's word on the last execution.
    QJsonObject lastExecution();
    [[noreturn]] void fail(const QString& why); // deletes the sandbox, throws ProviderError(Io)
    // After a failed start: whether the image has python3 (the host's); deletes the sandbox and
    // throws NoSessionError when it has not.
    void requirePython(RunControl& control);
    // The sandbox's own timeout ahead of `ms` from now (SandboxStopped: gone()).
    void keepAhead(qint64 ms);
    // The service stopped the sandbox by itself (its timeout, auto-stop): the session is over.
    ProviderError gone(const QString& how);
    void joinInterrupts();

    std::unique_ptr<RemoteSandbox> m_sandbox;
    Language m_language;
    QHash<QString, QByteArray> m_placed; // the runtime placed at the start: path -> content hash
    bool m_starting = false;
    QMutex m_mutex;                      // interrupt() from another thread
    bool m_executing = false;
    bool m_pendingInterrupt = false;
    QString m_execution; // the id of the execution going on (the host's name for it)
    quint64 m_executions = 0;
    qint64 m_idleKeepMs = qint64(kDefaultIdleSeconds) * 1000 + kIdleMarginMs;
    std::vector<std::thread> m_interrupts;
    bool m_dead = false;
    CleanupReport m_lastCleanup{true, {}};
    int m_lastStrays = 0;
    QByteArray m_note; // the missing base packages, shown by the first execution
};

} // namespace sandpad
