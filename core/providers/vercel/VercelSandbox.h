#pragma once

#include "core/providers/http/RemoteSandbox.h"
#include "core/providers/vercel/VercelConfig.h"

namespace sandpad {

// One Vercel Sandbox (REST v1, see providers.md), used for one run from one worker thread.
class VercelSandbox : public RemoteSandbox {
public:
    VercelSandbox(const VercelConfig& config, Language language);
    ~VercelSandbox() override;

    // Creates the remote sandbox, waits until it runs and installs missing base packages.
    // Throws ProviderError; a sandbox created before the failure is stopped first.
    void start(int deadlineSeconds, RunControl& control);

    void writeFiles(const QList<SandboxFile>& files) override;

private:
    QString idOf(const QJsonObject& created) const override;
    QString stateOf(const QJsonObject& description) const override;
    HttpRequest describeRequest() const override;
    HttpRequest removeRequest() const override;
    HttpRequest readRequest(const QString& path) const override;
    std::optional<QString> runPackageScript(const QString& script, int deadlineSeconds) override;
    CommandOutcome runCommand(const SandboxCommand& command, const OutputCallback& onOutput,
                              const QDeadlineTimer& deadline) override;

    QUrl url(const QString& path, const QList<QPair<QString, QString>>& query = {}) const;
    HttpRequest request(const QByteArray& method, const QString& path, const QJsonObject* body = nullptr,
                        qint64 timeoutMs = -1) const;
    // `GET cmd?wait=true`: answers when the command has ended.
    HttpRequest waitRequest(const QString& cmdId) const;
    // A field of a command answer ({"command": {...}}).
    QJsonValue commandValue(const QByteArray& body, const QString& what, QLatin1String key) const;
    void kill(const QString& cmdId);

    VercelConfig m_config;
    Language m_language;
    QString m_teamId;
};

} // namespace sandpad
