#pragma once

#include "core/sandbox/ProviderError.h"
#include "core/sandbox/Sandbox.h"
#include "core/sandbox/SandboxOptions.h"
#include "core/sandbox/SessionSandbox.h"
#include "core/sandbox/ValidationReport.h"

#include <memory>

namespace sandpad {

class RunControl;

// The contract a sandbox provider implements (see docs/providers.md in this repository).
// Implementations are used from worker threads; create() may block.
class SandboxProvider {
public:
    virtual ~SandboxProvider() = default;

    virtual QString name() const = 0;        // "local", "vercel", "daytona", "command"
    virtual QString displayName() const = 0; // "Local sandbox (bubblewrap)"
    // Self-check: credentials, reachability, runtimes, base packages. Blocks; never throws.
    virtual ValidationReport validate() = 0;
    // A fresh sandbox for one run. Throws ProviderError.
    virtual std::unique_ptr<Sandbox> create(const SandboxOptions& options, RunControl& control) = 0;
    // Whether create() allocates a paid remote sandbox, recorded by the Executor (RemoteAllocations)
    // so that none is lost track of.
    virtual bool allocatesRemotely() const { return false; }

    // Notebook sessions (a long-lived interpreter in one sandbox, docs/runtime-protocol.md): a
    // provider that has none says so, and a session then runs every cell fresh.
    virtual bool supportsSessions() const { return false; }
    // A started session for options.language, ready for its first execution. Throws ProviderError.
    virtual std::unique_ptr<SessionSandbox> createSession(const SandboxOptions& /*options*/, RunControl& /*control*/)
    {
        throw ProviderError(ProviderError::Kind::NotConfigured,
                            QStringLiteral("The %1 provider has no notebook sessions: it runs every cell fresh").arg(name()));
    }

    // Pre-started sandboxes, for providers that keep some (the local one); no-ops otherwise.
    // The Workspace drives them as settings change. Thread-safe, non-blocking.
    virtual void setPoolOptions(const SandboxOptions& /*options*/) {} // what pooled ones start with
    virtual void setPoolSize(int /*perLanguage*/) {}                  // 0: off (drains)
    virtual void setPoolBurstMax(int /*perLanguage*/) {} // what runs in a burst may grow it to
    virtual void startPool() {} // starts filling in the background (never during start-up)
    virtual void drainPool() {} // drops idle pre-started sandboxes; refills if started
    // Keep sandboxes of this language pre-started from now on (a tab of that language is open).
    virtual void warmLanguage(Language /*language*/) {}
};

} // namespace sandpad
