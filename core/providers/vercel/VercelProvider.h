#pragma once

#include "core/providers/ProviderDescriptor.h"
#include "core/providers/http/RemoteProvider.h"
#include "core/providers/vercel/VercelConfig.h"

namespace sandpad {

// Vercel Sandbox (Firecracker microVMs) over its REST API v2, as @vercel/sandbox 3.5.0 speaks it.
class VercelProvider : public RemoteProvider {
public:
    explicit VercelProvider(VercelConfig config = VercelConfig::fromEnvironment());
    static ProviderDescriptor descriptor(); // its settings, tokens and factory

    QString name() const override { return QStringLiteral("vercel"); }
    QString displayName() const override { return QStringLiteral("Vercel Sandbox"); }

    const VercelConfig& config() const { return m_config; }
    // Why the credentials cannot work, or empty when they look usable.
    static QString credentialProblem(const VercelConfig& config);

    // The sandboxes tagged sandpad-app:sandpad in the project (the list call, every page).
    QList<Listing> listAppSandboxes() override;
    // DELETE with its snapshots, then GET until 404.
    CleanupReport removeAppSandbox(const QString& id) override;

private:
    QString configProblem() const override { return credentialProblem(m_config); }
    CredentialCheck credentialCheck() const override;
    ValidationItem runtimeItem() const override;
    std::unique_ptr<Sandbox> start(const SandboxOptions& options, RunControl& control) override;

    VercelConfig m_config;
};

} // namespace sandpad
