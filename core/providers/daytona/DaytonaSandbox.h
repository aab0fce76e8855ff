#pragma once

#include "providers/Sandbox.h"
#include "providers/SandboxOptions.h"
#include "providers/daytona/DaytonaConfig.h"
#include "providers/http/HttpClient.h"

#include <QJsonObject>
#include <optional>

namespace sandpad {

// One Daytona sandbox (providers.md), used for one run from one worker thread.
class DaytonaSandbox : public Sandbox {
public:
    explicit DaytonaSandbox(const DaytonaConfig& config);
    ~DaytonaSandbox() override;

    // Creates the sandbox, waits until `started` and installs missing base packages.
    // Throws ProviderError; a sandbox created before the failure is deleted first.
    void start(const SandboxOptions& options, RunControl& control);

    QString id() const override { return m_id; }
    QString workDir() const override { return QStringLiteral("/tmp/sandpad"); }
    QString interpreter(Language language) const override;
    QStringList pipArguments() const override { return {}; }

    void writeFiles(const QList<SandboxFile>& files) override;
    CommandOutcome run(const SandboxCommand& command, const OutputCallback& onOutput,
                       RunControl& control) override;
    std::optional<QByteArray> readFile(const QString& path) override;
    CleanupReport destroy() override;

    int requestCount() const { return m_http.requestCount(); }
    QString packageNote() const { return m_packageNote; }

    // POSIX shell quoting, for the command string a session runs.
    static QString shellQuote(const QString& word);
    static QString commandLine(const SandboxCommand& command);

private:
    HttpRequest apiRequest(const QByteArray& method, const QString& path, const QJsonObject* body = nullptr) const;
    HttpRequest toolboxRequest(const QByteArray& method, const QString& path, const QJsonObject* body = nullptr) const;
    void ensureBasePackages(int deadlineSeconds);
    void deleteSession(const QString& sessionId);

    DaytonaConfig m_config;
    mutable HttpClient m_http;
    QString m_id;
    QString m_toolbox; // <toolboxProxyUrl>/<id>
    QString m_packageNote;
    bool m_noteShown = false;
    std::optional<CleanupReport> m_cleanup;
};

} // namespace sandpad
