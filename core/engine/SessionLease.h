#pragma once

#include "core/sandbox/Sandbox.h"
#include "core/sandbox/SandboxOptions.h"

#include <QString>

namespace sandpad {

class RunControl;
class SessionSandbox;

// Lends a notebook session's sandbox to one run (core/session implements it): the Executor calls
// acquire() instead of creating a sandbox and release() instead of destroying it; every other step
// of the run is the same (docs/runtime-protocol.md, "Sessions").
class SessionLease {
public:
    virtual ~SessionLease() = default;
    // The session's sandbox, started if it has none; waits for the session's earlier executions.
    // Throws ProviderError (Cancelled when the run is cancelled meanwhile).
    virtual SessionSandbox& acquire(const SandboxOptions& options, RunControl& control) = 0;
    // After the run: confirmed when every process the execution started is gone (a session that
    // died is ended, confirmed and recorded). *note: what the user must know, e.g. that the
    // session was restarted and its state is lost.
    virtual CleanupReport release(const CommandOutcome& outcome, QString* note) = 0;
    // After a run whose program ran (step 6): what else the session returned (the variable
    // listing), read from the sandbox's outDir.
    virtual void collect(Sandbox& /*sandbox*/, const QString& /*outDir*/) {}
    // The execution's number in its session (set once acquired).
    virtual int executionCount() const = 0;
    // The user interrupted this execution (it is then $0, like a cancel, and its state is kept).
    virtual bool interrupted() const = 0;
};

} // namespace sandpad
