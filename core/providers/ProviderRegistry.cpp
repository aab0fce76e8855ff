#include "providers/ProviderRegistry.h"

#include "providers/ProviderError.h"
#include "providers/local/LocalProvider.h"
#include "settings/AppSettings.h"

namespace sandpad {

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
        return std::make_shared<LocalProvider>(options);
    }
    throw ProviderError(ProviderError::Kind::NotConfigured,
                        QStringLiteral("unknown provider \"%1\"; choose one of: %2")
                            .arg(name, names().join(QStringLiteral(", "))));
}

} // namespace sandpad
