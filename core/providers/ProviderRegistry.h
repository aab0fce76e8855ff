#pragma once

#include "providers/SandboxProvider.h"

#include <QStringList>
#include <memory>

namespace sandpad {

struct AppSettings;

// Builds the one selected provider from the settings (or "none": no provider, execution refused).
class ProviderRegistry {
public:
    static QStringList names();                        // none, local, vercel, daytona, command
    static QString displayName(const QString& name);
    // nullptr for "none". Throws ProviderError(NotConfigured) for an unknown name.
    static std::shared_ptr<SandboxProvider> create(const AppSettings& settings);
};

} // namespace sandpad
