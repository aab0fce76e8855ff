#pragma once

#include "core/sandbox/ProviderError.h"
#include "core/sandbox/Sandbox.h"

#include <QByteArray>

namespace sandpad {

// A sandbox whose interpreter outlives one run: a notebook session's (docs/runtime-protocol.md,
// "Sessions"). It is a Sandbox, so the Executor drives an execution exactly like a fresh run
// (writeFiles, then run() with the program's command, then readFile), but run() hands the program
// to the session's long-lived interpreter instead of starting a process, and destroy() is for the
// session's end only. A deadline or a cancel kills the whole session (isAlive() turns false).
class SessionSandbox : public Sandbox {
public:
    // Thread-safe: interrupts the execution going on (Python: KeyboardInterrupt; JavaScript: the
    // awaited evaluation stops); the session and its state stay. No-op between executions.
    virtual void interrupt() = 0;
    // False once the interpreter is gone (deadline, cancel, memory limit, its own crash).
    virtual bool isAlive() = 0;
    // After an execution: every process it started, other than the session's interpreter, is
    // killed and confirmed gone from the host side (confirmed=false with the reason otherwise).
    virtual CleanupReport endExecution() = 0;
    // Between executions: asks the session's interpreter about its state without running a cell
    // (docs/runtime-protocol.md, "Sessions": a table window). `request` is one line of JSON; the
    // answer is the interpreter's JSON. The interpreter is interrupted at timeoutMs and the
    // session killed if it still has not answered shortly after (a value's own code may be slow).
    // Throws ProviderError; the default: this session cannot be asked.
    virtual QByteArray fetch(const QByteArray& /*request*/, RunControl& /*control*/, int /*timeoutMs*/)
    {
        throw ProviderError(ProviderError::Kind::NotConfigured, QStringLiteral("This session cannot fetch values"));
    }
};

} // namespace sandpad
