#pragma once

#include "core/providers/local/LocalSandbox.h"
#include "core/sandbox/Sandbox.h"

#include <QByteArray>
#include <atomic>
#include <memory>

namespace sandpad {

class LocalProvider;

// A long-lived helper program in a local sandbox of its own (docs/local-sandbox.md, "Language
// service"): the same bwrap policy, seccomp, PID 1, lifeline and limits as a run's sandbox, started
// like a pre-started one (its program says "ready" on the job socket once warmed up), and then
// spoken to in lines over that socket. Nothing of the host's is placed in it but its own files.
// Used from one thread.
class LocalServiceSandbox {
public:
    enum class Read { Line, Timeout, TooLong, Ended };

    // Builds the sandbox with `provider`'s interpreter paths and policy for `options`, places
    // `files` and starts `command` (its env gets SANDPAD_JOB_FD). Throws ProviderError(Io).
    LocalServiceSandbox(LocalProvider& provider, const SandboxOptions& options, const QList<SandboxFile>& files,
                        SandboxCommand command);
    ~LocalServiceSandbox(); // destroy()
    LocalServiceSandbox(const LocalServiceSandbox&) = delete;
    LocalServiceSandbox& operator=(const LocalServiceSandbox&) = delete;

    // Waits for "ready" (the warm-up), then lowers the address space to `memoryMb` above what the
    // warm-up occupies. False when the program died, the time ran out or *abort became true
    // (checked every 100 ms); the sandbox is then ended.
    bool waitReady(int timeoutMs, int memoryMb, const std::atomic<bool>* abort = nullptr);
    bool isReady() const { return m_ready; }
    bool isAlive();
    // Sends bytes (a request line) within timeoutMs; false when the program is gone or stuck.
    bool send(const QByteArray& bytes, int timeoutMs);
    // One line (without its newline) within timeoutMs. A line longer than maxBytes is TooLong:
    // the stream cannot be trusted after it, so the caller ends the service.
    Read readLine(QByteArray* line, int timeoutMs, qint64 maxBytes);
    // The host pids (tests look at them from outside); -1 when not started.
    int pid1() const;
    int interpreterPid() const;
    // Kills PID 1 (the whole namespace goes) and confirms from the host that nothing is left.
    CleanupReport destroy();

private:
    std::unique_ptr<LocalSandbox> m_sandbox;
    QByteArray m_buffer; // what came after the last whole line
    bool m_ready = false;
    bool m_destroyed = false;
    CleanupReport m_cleanup;
};

} // namespace sandpad
