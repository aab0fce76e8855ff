#pragma once

#include "providers/SandboxProvider.h"
#include "providers/daytona/DaytonaConfig.h"

namespace sandpad {

// Daytona (cloud or self-hosted) over its REST API and toolbox.
class DaytonaProvider : public SandboxProvider {
public:
    explicit DaytonaProvider(DaytonaConfig config = DaytonaConfig::fromEnvironment());

    QString name() const override { return QStringLiteral("daytona"); }
    QString displayName() const override { return QStringLiteral("Daytona"); }
    ValidationReport validate() override;
    std::unique_ptr<Sandbox> create(const SandboxOptions& options, RunControl& control) override;

    const DaytonaConfig& config() const { return m_config; }
    static QString credentialProblem(const DaytonaConfig& config);

private:
    DaytonaConfig m_config;
};

} // namespace sandpad
