#pragma once

#include "core/providers/daytona/DaytonaConfig.h"
#include "core/providers/http/RemoteSandbox.h"
#include "core/sandbox/SandboxOptions.h"

#include <QElapsedTimer>

namespace sandpad {

// One Daytona sandbox (providers.md), used for one run from one worker thread.
class DaytonaSandbox : public RemoteSandbox {
public:
    explicit DaytonaSandbox(const DaytonaConfig& config);
    ~DaytonaSandbox() override;

    // Creates the sandbox, waits until `started` and installs missing base packages.
    // Throws ProviderError; a sandbox created before the failure is deleted first.
    void start(const SandboxOptions& options, RunControl& control);

    void writeFiles(const QList<SandboxFile>& files) override;

    // Sessions: runAsync in a session of its own (the daemon runs a session as one shell, so a
    // detached command there must not share it); the SDK's setAutostopInterval and
    // refreshActivity; the interrupt relay through process/execute from a client of its own.
    void startDetached(const SandboxCommand& command) override;
    void keepAlive(qint64 ms) override;
    bool startFromAnyThread(const SandboxCommand& command) const override;

    // POSIX shell quoting, for the command string a session runs.
    static QString shellQuote(const QString& word);
    // What a session runs: a subshell (the session's own shell must get control back to write
    // the exit code; `exec` there would replace it), stdin from /dev/null (the daemon holds a
    // runAsync command's stdin open).
    static QString commandLine(const SandboxCommand& command);
    // A request to the Daytona API (not the toolbox) with the headers every call carries.
    static HttpRequest apiRequest(const DaytonaConfig& config, const QByteArray& method, const QString& path,
                                  HttpRequest::Retry retry, const QJsonObject* body = nullptr);
    // GET /sandbox with a labels filter ({"k":"v"}), one page from `cursor`.
    static HttpRequest listRequest(const DaytonaConfig& config, const QJsonObject& labels, const QString& cursor,
                                   int limit);

private:
    QString idOf(const QJsonObject& created) const override;
    QString stateOf(const QJsonObject& description) const override;
    QString failureReason(const QJsonObject& description) const override;
    HttpRequest describeRequest() const override;
    HttpRequest removeRequest() const override;
    HttpRequest readRequest(const QString& path) const override;
    std::optional<QByteArray> fileIn(const HttpResponse& answer, const QString& path) const override;
    void onReady(const QJsonObject& description) override;
    std::optional<QString> runPackageScript(const QString& script, int deadlineSeconds) override;
    CommandOutcome runCommand(const SandboxCommand& command, const OutputCallback& onOutput,
                              const QDeadlineTimer& deadline) override;

    HttpRequest toolboxRequest(const QByteArray& method, const QString& path, HttpRequest::Retry retry,
                               const QJsonObject* body = nullptr) const;
    void deleteSession(const QString& sessionId);
    // After a create that may have been made (5xx, dropped): the sandbox carrying this run's label.
    std::optional<HttpResponse> findCreated(const QString& runId);

    DaytonaConfig m_config;
    QString m_toolbox; // <toolboxProxyUrl>/<id>
    int m_autoStopMinutes = 0;  // as created, then as set by keepAlive()
    QElapsedTimer m_activity;   // since our last refreshActivity
};

} // namespace sandpad
