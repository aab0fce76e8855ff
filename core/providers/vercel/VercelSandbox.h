#pragma once

#include "providers/Sandbox.h"
#include "providers/http/HttpClient.h"
#include "providers/vercel/VercelConfig.h"

#include <QJsonObject>
#include <optional>

namespace sandpad {

// One Vercel Sandbox (REST v1, see providers.md), used for one run from one worker thread.
class VercelSandbox : public Sandbox {
public:
    VercelSandbox(const VercelConfig& config, Language language);
    ~VercelSandbox() override;

    // Creates the remote sandbox, waits until it runs and installs missing base packages.
    // Throws ProviderError; a sandbox created before the failure is stopped first.
    void start(int deadlineSeconds, RunControl& control);

    QString id() const override { return m_id; }
    QString workDir() const override { return QStringLiteral("/vercel/sandbox/sandpad"); }
    QString interpreter(Language language) const override;
    QStringList pipArguments() const override { return {}; }

    void writeFiles(const QList<SandboxFile>& files) override;
    CommandOutcome run(const SandboxCommand& command, const OutputCallback& onOutput,
                       RunControl& control) override;
    std::optional<QByteArray> readFile(const QString& path) override;
    CleanupReport destroy() override;

    int requestCount() const { return m_http.requestCount(); }
    // Base packages that could not be installed (shown once on stderr at the first run).
    QString packageNote() const { return m_packageNote; }

private:
    QUrl url(const QString& path, const QList<QPair<QString, QString>>& query = {}) const;
    HttpRequest request(const QByteArray& method, const QString& path, const QJsonObject* body = nullptr,
                        qint64 timeoutMs = -1) const;
    void ensureBasePackages(int deadlineSeconds);
    void kill(const QString& cmdId);

    VercelConfig m_config;
    Language m_language;
    QString m_teamId;
    mutable HttpClient m_http;
    QString m_id;
    QString m_packageNote;
    bool m_noteShown = false;
    std::optional<CleanupReport> m_cleanup;
};

} // namespace sandpad
