#include "core/providers/ProviderRegistry.h"

#include "core/providers/command/CommandProvider.h"
#include "core/providers/daytona/DaytonaProvider.h"
#include "core/providers/local/LocalProvider.h"
#include "core/providers/vercel/VercelProvider.h"
#include "core/sandbox/ProviderError.h"
#include "core/settings/AppSettings.h"
#include "core/settings/SecretStore.h"

namespace sandpad {

namespace {
// A secret from the environment when set there (the variable wins), else the one given (typed in
// Settings, not yet stored), else from the OS keychain, where Settings stores it under the
// variable's name.
QString secret(const QString& fromEnvironment, const QString& variable, const QHash<QString, QString>& given)
{
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    if (const auto it = given.constFind(variable); it != given.cend())
        return *it;
    const SecretStore::Result stored = SecretStore().readSecret(variable);
    return stored.ok ? stored.value : QString();
}

// Settings fill what the environment left empty (environment variables override settings).
void fillIfEmpty(QString& field, const QString& fromSettings)
{
    if (field.isEmpty())
        field = fromSettings;
}
} // namespace

QStringList ProviderRegistry::names()
{
    return {QStringLiteral("none"), QStringLiteral("local"), QStringLiteral("vercel"),
            QStringLiteral("daytona"), QStringLiteral("command")};
}

QString ProviderRegistry::displayName(const QString& name)
{
    if (name == u"none")
        return QStringLiteral("None (execution disabled)");
    if (name == u"local")
        return QStringLiteral("Local sandbox (bubblewrap)");
    if (name == u"vercel")
        return QStringLiteral("Vercel Sandbox");
    if (name == u"daytona")
        return QStringLiteral("Daytona");
    if (name == u"command")
        return QStringLiteral("Custom command provider");
    return name;
}

QStringList ProviderRegistry::secretVariables(const QString& name)
{
    if (name == u"vercel")
        return {QStringLiteral("VERCEL_TOKEN"), QStringLiteral("VERCEL_OIDC_TOKEN")};
    if (name == u"daytona")
        return {QStringLiteral("DAYTONA_API_KEY")};
    return {};
}

std::shared_ptr<SandboxProvider> ProviderRegistry::create(const AppSettings& settings,
                                                          const QHash<QString, QString>& secrets)
{
    const QString& name = settings.provider;
    if (name == u"none")
        return nullptr;
    if (name == u"local") {
        LocalProviderOptions options;
        if (!settings.pythonPath.isEmpty())
            options.python = settings.pythonPath;
        if (!settings.nodePath.isEmpty())
            options.node = settings.nodePath;
        return std::make_shared<LocalProvider>(options);
    }
    if (name == u"vercel") {
        VercelConfig config = VercelConfig::fromEnvironment();
        if (qEnvironmentVariableIsEmpty("VERCEL_API_URL") && !settings.vercelApiUrl.isEmpty())
            config.apiUrl = settings.vercelApiUrl;
        fillIfEmpty(config.teamId, settings.vercelTeamId);
        fillIfEmpty(config.projectId, settings.vercelProjectId);
        config.memoryMb = settings.memoryLimitMb; // validation says what a run gets
        config.token = secret(config.token, QStringLiteral("VERCEL_TOKEN"), secrets);
        if (config.token.isEmpty())
            config.oidcToken = secret(config.oidcToken, QStringLiteral("VERCEL_OIDC_TOKEN"), secrets);
        return std::make_shared<VercelProvider>(config);
    }
    if (name == u"daytona") {
        DaytonaConfig config = DaytonaConfig::fromEnvironment();
        if (qEnvironmentVariableIsEmpty("DAYTONA_API_URL") && !settings.daytonaApiUrl.isEmpty())
            config.apiUrl = settings.daytonaApiUrl;
        fillIfEmpty(config.organizationId, settings.daytonaOrganizationId);
        config.memoryLimitMb = settings.memoryLimitMb;
        config.apiKey = secret(config.apiKey, QStringLiteral("DAYTONA_API_KEY"), secrets);
        return std::make_shared<DaytonaProvider>(config);
    }
    if (name == u"command") {
        CommandProviderConfig config;
        config.program = qEnvironmentVariable("SANDPAD_COMMAND_PROVIDER", settings.commandProviderPath);
        if (config.program.isEmpty())
            throw ProviderError(ProviderError::Kind::NotConfigured,
                                QStringLiteral("the command provider needs an executable: set it in Settings or SANDPAD_COMMAND_PROVIDER"));
        return std::make_shared<CommandProvider>(config);
    }
    throw ProviderError(ProviderError::Kind::NotConfigured,
                        QStringLiteral("unknown provider \"%1\"; choose one of: %2")
                            .arg(name, names().join(QStringLiteral(", "))));
}

} // namespace sandpad
