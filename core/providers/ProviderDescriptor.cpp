#include "core/providers/ProviderDescriptor.h"

#include "core/settings/AppSettings.h"
#include "core/settings/SecretStore.h"

namespace sandpad {

const ProviderField* ProviderDescriptor::field(const QString& key) const
{
    for (const ProviderField& f : fields)
        if (f.key == key)
            return &f;
    return nullptr;
}

ProviderSettings::ProviderSettings(const ProviderDescriptor& descriptor, const AppSettings& settings,
                                   const QHash<QString, QString>& secrets)
    : m_descriptor(descriptor), m_settings(settings), m_secrets(secrets)
{
}

QString ProviderSettings::variable(const QString& key) const
{
    const ProviderField* f = m_descriptor.field(key);
    Q_ASSERT_X(f, "ProviderSettings", "a factory read a field its descriptor does not list");
    return f ? f->environmentVariable : QString();
}

QString ProviderSettings::stored(const QString& key) const
{
    return m_settings.providerValue(m_descriptor.name, key).trimmed();
}

bool ProviderSettings::overridden(const QString& key) const
{
    const QString name = variable(key);
    return !name.isEmpty() && !qEnvironmentVariable(qPrintable(name)).trimmed().isEmpty();
}

QString ProviderSettings::value(const QString& key) const
{
    return overridden(key) ? qEnvironmentVariable(qPrintable(variable(key))).trimmed() : stored(key);
}

QString ProviderSettings::secret(const QString& key) const
{
    const QString name = variable(key);
    if (name.isEmpty())
        return {};
    if (const QString fromEnvironment = qEnvironmentVariable(qPrintable(name)).trimmed(); !fromEnvironment.isEmpty())
        return fromEnvironment;
    if (const auto it = m_secrets.constFind(name); it != m_secrets.cend())
        return *it;
    // Settings stores a secret under its variable's name.
    const SecretStore::Result kept = SecretStore().readSecret(name);
    return kept.ok ? kept.value : QString();
}

} // namespace sandpad
