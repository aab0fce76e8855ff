#include "providers/ProviderRegistry.h"

#include "providers/ProviderError.h"
#include "providers/command/CommandProvider.h"
#include "providers/daytona/DaytonaProvider.h"
#include "providers/local/LocalProvider.h"
#include "providers/vercel/VercelProvider.h"
#include "settings/SecretStore.h"
#include "settings/AppSettings.h"

namespace sandpad {

namespace {
// A secret from the environment when set there (the variable wins), else from the OS keychain.
QString secret(const QString& fromEnvironment, const QString& keychainKey)
{
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    const SecretStore::Result stored = SecretStore().readSecret(keychainKey);
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

std::shared_ptr<SandboxProvider> ProviderRegistry::create(const AppSettings& settings)
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
        auto provider = std::make_shared<LocalProvider>(options);
        // The pool is sized here but started only by a long-lived caller (the GUI, after its window
        // is shown): a one-shot CLI run would pay for a pre-started sandbox it never uses.
        SandboxOptions poolOptions;
        poolOptions.allowNetwork = settings.allowNetwork;
        poolOptions.memoryLimitMb = settings.memoryLimitMb;
        poolOptions.pipWheelDir = settings.pipWheelDir;
        poolOptions.pipIndexUrl = settings.pipIndexUrl;
        poolOptions.deadlineSeconds = settings.deadlineSeconds;
        provider->setPoolOptions(poolOptions);
        provider->setPoolSize(settings.poolSize);
        return provider;
    }
    if (name == u"vercel") {
        VercelConfig config = VercelConfig::fromEnvironment();
        if (qEnvironmentVariableIsEmpty("VERCEL_API_URL") && !settings.vercelApiUrl.isEmpty())
            config.apiUrl = settings.vercelApiUrl;
        fillIfEmpty(config.teamId, settings.vercelTeamId);
        fillIfEmpty(config.projectId, settings.vercelProjectId);
        config.token = secret(config.token, QStringLiteral("vercel/token"));
        if (config.token.isEmpty())
            config.oidcToken = secret(config.oidcToken, QStringLiteral("vercel/oidcToken"));
        return std::make_shared<VercelProvider>(config);
    }
    if (name == u"daytona") {
        DaytonaConfig config = DaytonaConfig::fromEnvironment();
        if (qEnvironmentVariableIsEmpty("DAYTONA_API_URL") && !settings.daytonaApiUrl.isEmpty())
            config.apiUrl = settings.daytonaApiUrl;
        fillIfEmpty(config.organizationId, settings.daytonaOrganizationId);
        config.apiKey = secret(config.apiKey, QStringLiteral("daytona/apiKey"));
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
