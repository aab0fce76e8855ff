#pragma once

#include "core/providers/ProviderDescriptor.h"
#include "core/providers/command/CommandProviderConfig.h"
#include "core/sandbox/SandboxProvider.h"

namespace sandpad {

// A provider implemented by an external executable speaking JSON lines on stdin/stdout
// (docs/providers.md, "Command providers"): Docker/Podman, SSH or Kubernetes runners plug in
// without recompiling.
class CommandProvider : public SandboxProvider {
public:
    explicit CommandProvider(CommandProviderConfig config);
    static ProviderDescriptor descriptor(); // its executable and factory

    QString name() const override { return QStringLiteral("command"); }
    QString displayName() const override;
    ValidationReport validate() override;
    std::unique_ptr<Sandbox> create(const SandboxOptions& options, RunControl& control) override;

    const CommandProviderConfig& config() const { return m_config; }

private:
    CommandProviderConfig m_config;
};

} // namespace sandpad
