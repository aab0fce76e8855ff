#pragma once

#include "core/sandbox/SandboxProvider.h"

#include <QHash>
#include <QStringList>
#include <memory>

namespace sandpad {

struct AppSettings;

// The one list of providers (everything that lists or checks provider names reads it here), and
// builds the selected provider from the settings (or "none": no provider, execution refused).
class ProviderRegistry {
public:
    static QStringList names();                        // none, local, vercel, daytona, command
    static QString displayName(const QString& name);
    // The provider's secrets, by the environment variable that supplies them; the OS keychain keeps
    // them under the same name.
    static QStringList secretVariables(const QString& name);
    // nullptr for "none". Throws ProviderError(NotConfigured) for an unknown name.
    // A secret comes from the environment, else from secrets (keyed like secretVariables(); an
    // empty value: none, the stored one is being forgotten), else from the OS keychain.
    // Pool options and size are not set here: the Workspace drives the pool.
    static std::shared_ptr<SandboxProvider> create(const AppSettings& settings,
                                                   const QHash<QString, QString>& secrets = {});
};

} // namespace sandpad
