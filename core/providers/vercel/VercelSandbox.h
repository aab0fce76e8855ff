#pragma once

#include "core/providers/http/RemoteSandbox.h"
#include "core/providers/vercel/VercelApi.h"
#include "core/providers/vercel/VercelConfig.h"
#include "core/sandbox/SandboxOptions.h"

namespace sandpad {

// One Vercel sandbox (API v2, as @vercel/sandbox 3.5.0 speaks it; see docs/providers.md), used for
// one run from one worker thread: created non-persistent and tagged with the app and the run, its
// session (the VM) takes the files and commands, and it is deleted (nothing kept) at the end.
class VercelSandbox : public RemoteSandbox {
public:
    VercelSandbox(const VercelConfig& config, const SandboxOptions& options);
    ~VercelSandbox() override;

    // Creates the remote sandbox, waits until its session runs and installs missing base
    // packages. Throws ProviderError; a sandbox created before the failure is deleted first.
    void start(RunControl& control);

    void writeFiles(const QList<SandboxFile>& files) override;

    // Sessions: a `cmd` without wait; `extend-timeout` as the SDK's Session.extendTimeout; the
    // interrupt relay as a `cmd` without wait from a client of its own.
    void startDetached(const SandboxCommand& command) override;
    void keepAlive(qint64 ms) override;
    bool startFromAnyThread(const SandboxCommand& command) const override;
    // When the service stops the VM by itself, as far as this client knows.
    qint64 remainingTimeoutMs() const { return m_expires.remainingTime(); }

    // The create body (for the tests: what the service is asked for).
    QJsonObject createBody() const;
    QString sessionId() const { return m_sessionId; }

private:
    QString idOf(const QJsonObject& created) const override;
    QString stateOf(const QJsonObject& description) const override;
    QString failureReason(const QJsonObject& description) const override;
    HttpRequest describeRequest() const override;
    HttpRequest removeRequest() const override;
    HttpRequest readRequest(const QString& path) const override;
    void onReady(const QJsonObject& description) override;
    std::optional<QString> runPackageScript(const QString& script, int deadlineSeconds) override;
    CommandOutcome runCommand(const SandboxCommand& command, const OutputCallback& onOutput,
                              const QDeadlineTimer& deadline) override;

    // POST /v2/sandboxes. The SDK retries a create on 5xx, which may leave a second sandbox when
    // the first was accepted: before each retry (and after the last failure) the run's tag is
    // looked up and a sandbox found is used instead.
    QJsonObject create();
    // The sandbox carrying this run's tag, as a create answer; nullopt when there is none.
    std::optional<QJsonObject> findCreated();
    // `path` under this session: /v2/sandboxes/sessions/{sid}/...
    QString sessionPath(const QString& path) const;
    // One `cmd` with wait + logs, as the SDK's runCommand sends it: a single NDJSON answer that
    // names the command, streams its output live and ends with its exit code. `what` names the
    // step in messages.
    CommandOutcome runStreamed(const SandboxCommand& command, const OutputCallback& onOutput,
                               const QDeadlineTimer& deadline, const QString& what);
    void kill(const QString& cmdId);

    VercelConfig m_config;
    VercelApi m_api;
    SandboxOptions m_options;
    QString m_runTag; // kRunLabel's value: the run id, or a fresh one for a sandbox outside a run
    QString m_sessionId;
    QDeadlineTimer m_expires; // the session's own timeout (create's, plus every extension)
};

} // namespace sandpad
