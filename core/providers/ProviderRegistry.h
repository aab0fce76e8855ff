#pragma once

#include "core/providers/ProviderDescriptor.h"
#include "core/sandbox/SandboxProvider.h"

#include <QHash>
#include <QStringList>
#include <memory>

namespace sandpad {

struct AppSettings;

// The one list of providers (everything that lists, shows, stores or builds a provider reads it
// here): each provider folder's ProviderDescriptor, "none" (no provider: execution refused) first.
class ProviderRegistry {
public:
    static const QList<ProviderDescriptor>& descriptors(); // Settings' order
    static const ProviderDescriptor* descriptor(const QString& name); // null for an unknown name
    static QStringList names();                        // none, local, vercel, daytona, command
    static QString displayName(const QString& name);
    // The provider's secrets, by the environment variable that supplies them; the OS keychain keeps
    // them under the same name.
    static QStringList secretVariables(const QString& name);
    // Where every provider's (non-secret) fields are stored: "<provider>/<key>" (AppSettings::load).
    static QStringList settingsKeys();
    // nullptr for "none". Throws ProviderError(NotConfigured) for an unknown name.
    // A secret comes from the environment, else from secrets (keyed like secretVariables(); an
    // empty value: none, the stored one is being forgotten), else from the OS keychain.
    // Pool options and size are not set here: the Workspace drives the pool.
    static std::shared_ptr<SandboxProvider> create(const AppSettings& settings,
                                                   const QHash<QString, QString>& secrets = {});
};

} // namespace sandpad
