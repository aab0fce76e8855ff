#pragma once

#include "providers/Sandbox.h"
#include "providers/SandboxOptions.h"
#include "providers/ValidationReport.h"

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
};

} // namespace sandpad
