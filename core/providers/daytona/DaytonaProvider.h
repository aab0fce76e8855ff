#pragma once

#include "core/providers/ProviderDescriptor.h"
#include "core/providers/daytona/DaytonaConfig.h"
#include "core/providers/http/RemoteProvider.h"

namespace sandpad {

// Daytona (cloud or self-hosted) over its REST API and toolbox.
class DaytonaProvider : public RemoteProvider {
public:
    explicit DaytonaProvider(DaytonaConfig config = DaytonaConfig::fromEnvironment());
    static ProviderDescriptor descriptor(); // its settings, API key and factory

    QString name() const override { return QStringLiteral("daytona"); }
    QString displayName() const override { return QStringLiteral("Daytona"); }

    const DaytonaConfig& config() const { return m_config; }

    // Orphan reconciliation: GET /sandbox filtered by the app label (following nextCursor), and
    // DELETE /sandbox/{id} confirmed by GET until 404 / destroyed.
    QList<Listing> listAppSandboxes() override;
    CleanupReport removeAppSandbox(const QString& id) override;
    static QString credentialProblem(const DaytonaConfig& config);

private:
    QString configProblem() const override { return credentialProblem(m_config); }
    CredentialCheck credentialCheck() const override;
    ValidationItem runtimeItem() const override;
    std::unique_ptr<Sandbox> start(const SandboxOptions& options, RunControl& control) override;

    DaytonaConfig m_config;
};

} // namespace sandpad
