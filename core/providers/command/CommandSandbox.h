#pragma once

#include "core/providers/command/CommandChannel.h"
#include "core/providers/command/CommandProviderConfig.h"
#include "core/sandbox/Sandbox.h"
#include "core/sandbox/SandboxOptions.h"

#include <QMap>
#include <optional>

namespace sandpad {

// A sandbox run by a command-provider process (one process per sandbox; docs/providers.md).
class CommandSandbox : public Sandbox {
public:
    explicit CommandSandbox(const CommandProviderConfig& config);
    ~CommandSandbox() override;

    // Starts the process and sends `create`. Throws ProviderError.
    void start(const SandboxOptions& options, RunControl& control);

    QString id() const override { return m_id; }
    QString workDir() const override { return m_workDir; }
    QString interpreter(Language language) const override;
    QStringList pipArguments() const override { return m_pipArgs; }

    void writeFiles(const QList<SandboxFile>& files) override;
    CommandOutcome run(const SandboxCommand& command, const OutputCallback& onOutput,
                       RunControl& control) override;
    std::optional<QByteArray> readFile(const QString& path) override;
    CleanupReport destroy() override;

private:
    CommandProviderConfig m_config;
    CommandChannel m_channel;
    QString m_id, m_workDir;
    QMap<QString, QString> m_interpreters;
    QStringList m_pipArgs;
    bool m_created = false;
    std::optional<CleanupReport> m_cleanup;
};

} // namespace sandpad
