#pragma once

#include "core/sandbox/ProviderError.h"
#include "core/sandbox/Sandbox.h"

#include <QByteArray>
#include <functional>

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
    // Why the session ended by itself, if it did (the memory limit between executions, processes
    // of an execution that could not be stopped): the reason its end is recorded with; else empty.
    virtual QString endReason() const { return {}; }
    // Called from any thread when the session ends by itself while none of its calls runs (the
    // memory limit while idle): its owner ends it then. Set once, before its first execution.
    virtual void setEndedCallback(std::function<void()> /*ended*/) {}
    // How long the session may sit idle between executions before its owner ends it (the user's
    // setting): a remote sandbox keeps its service's own timeout that far ahead. Set before each
    // execution, from that execution's thread.
    virtual void setIdleSeconds(int /*seconds*/) {}
};

// Thrown by SandboxProvider::createSession when the provider cannot keep a session of this
// language at all (a remote image without python3 for the session host): the notebook session
// then runs that language's cells fresh, and says so once with this message.
// `removed`: the sandbox made for it was deleted and confirmed gone.
class NoSessionError : public ProviderError {
public:
    NoSessionError(const QString& message, bool removed) : ProviderError(Kind::NotConfigured, message), m_removed(removed) {}
    bool removed() const { return m_removed; }

private:
    bool m_removed;
};

} // namespace sandpad
