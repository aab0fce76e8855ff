#include "core/providers/ProviderRegistry.h"

#include "core/providers/command/CommandProvider.h"
#include "core/providers/daytona/DaytonaProvider.h"
#include "core/providers/local/LocalProvider.h"
#include "core/providers/vercel/VercelProvider.h"
#include "core/sandbox/ProviderError.h"
#include "core/settings/AppSettings.h"

namespace sandpad {

namespace {
ProviderDescriptor none()
{
    ProviderDescriptor d;
    d.name = QStringLiteral("none");
    d.displayName = QStringLiteral("None (execution disabled)");
    d.help = QStringLiteral("No provider: running code is disabled until one is chosen.");
    d.create = [](const ProviderSettings&) { return std::shared_ptr<SandboxProvider>(); };
    return d;
}
} // namespace

const QList<ProviderDescriptor>& ProviderRegistry::descriptors()
{
    // A new provider: its folder's descriptor, one line here.
    static const QList<ProviderDescriptor> all = {
        none(),
        LocalProvider::descriptor(),
        VercelProvider::descriptor(),
        DaytonaProvider::descriptor(),
        CommandProvider::descriptor(),
    };
    return all;
}

const ProviderDescriptor* ProviderRegistry::descriptor(const QString& name)
{
    for (const ProviderDescriptor& d : descriptors())
        if (d.name == name)
            return &d;
    return nullptr;
}

QStringList ProviderRegistry::names()
{
    QStringList out;
    for (const ProviderDescriptor& d : descriptors())
        out << d.name;
    return out;
}

QString ProviderRegistry::displayName(const QString& name)
{
    const ProviderDescriptor* d = descriptor(name);
    return d ? d->displayName : name;
}

QStringList ProviderRegistry::secretVariables(const QString& name)
{
    QStringList out;
    if (const ProviderDescriptor* d = descriptor(name))
        for (const ProviderField& f : d->fields)
            if (f.secret)
                out << f.environmentVariable;
    return out;
}

QStringList ProviderRegistry::settingsKeys()
{
    QStringList out;
    for (const ProviderDescriptor& d : descriptors())
        for (const ProviderField& f : d.fields)
            if (!f.secret)
                out << d.settingsKey(f.key);
    return out;
}

std::shared_ptr<SandboxProvider> ProviderRegistry::create(const AppSettings& settings,
                                                          const QHash<QString, QString>& secrets)
{
    const ProviderDescriptor* d = descriptor(settings.provider);
    if (!d)
        throw ProviderError(ProviderError::Kind::NotConfigured,
                            QStringLiteral("unknown provider \"%1\"; choose one of: %2")
                                .arg(settings.provider, names().join(QStringLiteral(", "))));
    return d->create(ProviderSettings(*d, settings, secrets));
}

} // namespace sandpad
