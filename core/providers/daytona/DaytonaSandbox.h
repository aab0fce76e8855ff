#pragma once

#include "core/providers/daytona/DaytonaConfig.h"
#include "core/providers/http/RemoteSandbox.h"
#include "core/sandbox/SandboxOptions.h"

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

    // POSIX shell quoting, for the command string a session runs.
    static QString shellQuote(const QString& word);
    static QString commandLine(const SandboxCommand& command);
    // A request to the Daytona API (not the toolbox) with the headers every call carries.
    static HttpRequest apiRequest(const DaytonaConfig& config, const QByteArray& method, const QString& path,
                                  const QJsonObject* body = nullptr);

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

    HttpRequest toolboxRequest(const QByteArray& method, const QString& path, const QJsonObject* body = nullptr) const;
    void deleteSession(const QString& sessionId);

    DaytonaConfig m_config;
    QString m_toolbox; // <toolboxProxyUrl>/<id>
};

} // namespace sandpad
