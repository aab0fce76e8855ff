#pragma once

#include "providers/SandboxProvider.h"
#include "providers/vercel/VercelConfig.h"

namespace sandpad {

// Vercel Sandbox (Firecracker microVMs) over its REST API.
class VercelProvider : public SandboxProvider {
public:
    explicit VercelProvider(VercelConfig config = VercelConfig::fromEnvironment());

    QString name() const override { return QStringLiteral("vercel"); }
    QString displayName() const override { return QStringLiteral("Vercel Sandbox"); }
    ValidationReport validate() override;
    std::unique_ptr<Sandbox> create(const SandboxOptions& options, RunControl& control) override;

    const VercelConfig& config() const { return m_config; }
    // Why the credentials cannot work, or empty when they look usable.
    static QString credentialProblem(const VercelConfig& config);

private:
    VercelConfig m_config;
};

} // namespace sandpad
