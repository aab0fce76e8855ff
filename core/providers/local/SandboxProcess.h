#pragma once

#include "core/providers/local/LocalSandboxInternals.h"
#include "core/sandbox/Sandbox.h"

#include <QByteArray>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <sys/types.h>

namespace sandpad {

class ResultFrameParser;
class UserNetwork;

namespace localsandbox {
class SandboxCgroup;
}

namespace localsandbox {

struct SandboxLaunch;

// What sandpad-init, the sandbox's PID 1, reported on its status descriptor (see its header).
// The program cannot write there, so this - not the program's exit code or stderr - tells a
// sandbox that was never set up from a program that failed.
struct InitStatus {
    bool started = false;          // "exec PID": set up, the program was executed
    std::optional<int> exitCode;   // "exit N"
    std::optional<int> signal;     // "signal N"
    QString error;                 // "error ...": an option, setup or exec failure
    // Consumes the complete lines at the start of `buffer`.
    void take(QByteArray& buffer);
};

// One started sandbox: setpriv (as root) -> bwrap -> sandpad-init (PID 1) -> the program, and the
// host's ends of its descriptors, among them PID 1's lifeline: the sandbox ends when this object
// or the app does, at whatever moment. Started with vfork/execve with exactly the descriptors it
// needs and SandboxLaunch::hostEnvironment().
class SandboxProcess {
public:
    SandboxProcess();
    SandboxProcess(const SandboxProcess&) = delete;
    SandboxProcess& operator=(const SandboxProcess&) = delete;
    ~SandboxProcess(); // kills and reaps whatever is left

    // Throws ProviderError(Io). withJob: a socket on kJobFd (pre-started sandboxes). The lifeline
    // (kLifelineFd) is held here: PID 1 exits when it closes - with this object, or with the app.
    // If the launch waits for it (go), PID 1 starts the program at releaseGo().
    void start(const SandboxLaunch& launch, bool withJob);
    bool isStarted() const { return m_pid > 0; }

    // The sandbox's PID 1 from bwrap's info descriptor: waits up to timeoutMs for it (0: only what
    // is there). Also opens a pidfd on it, checked to be bwrap's child (never a reused pid).
    bool awaitPid1(int timeoutMs);
    int pid1() const { return m_pid1; }
    int pid1Fd() const { return m_pid1Fd.get(); }
    void releaseGo();
    // Network allowed: user-mode networking for the sandbox's own network namespace, attached
    // from outside before releaseGo() (needs PID 1). Throws ProviderError(Io). Stopped once PID 1
    // is gone.
    void attachNetwork(int timeoutMs);
    // A delegated cgroup (docs/local-sandbox.md, "Memory limit"): PID 1 is moved in before it
    // starts the program (so before releaseGo()); killed with the sandbox, removed once it is gone.
    void attachCgroup(std::unique_ptr<SandboxCgroup> cgroup);
    SandboxCgroup* cgroup() const { return m_cgroup.get(); }

    int jobFd() const { return m_job.get(); }
    void closeJob() { m_job.reset(); }
    // Drops what the program printed so far (a pre-started wrapper's import noise).
    void discardOutput();
    void readStatus();
    const InitStatus& initStatus() const { return m_init; }

    // Until the outer process exits: output to onOutput (on this thread), the result channel into
    // parser, status lines; `stopper` may kill it meanwhile; `tick` (if set) runs every tickMs.
    // Then drains the pipes. Returns the outer process's wait status.
    // A "done" frame on the result channel (the wrapper's last word: everything it wrote is in
    // the pipes) ends it early: the sandbox is killed at once, the pipes are drained, and
    // programDone() holds the frame; killAndConfirm() then waits for the teardown.
    // Output is held back until PID 1 reports that the program started (before that, stderr is
    // bwrap's own: setupMessage() has it).
    int pump(const OutputCallback& onOutput, ResultFrameParser& parser,
             const std::function<void()>& tick = {}, int tickMs = 0);
    // A notebook session's execution: like pump(), but also until a whole line arrives on the job
    // socket (the interpreter's "done N"), which goes into *line; then what the pipes hold is
    // drained without waiting and the process goes on. False when the process exited first.
    bool pumpUntilJobLine(const OutputCallback& onOutput, ResultFrameParser& parser, QByteArray* line);
    // What bwrap/setpriv printed when the sandbox never started the program.
    QString setupMessage() const;

    // SIGKILL to PID 1 through its pidfd (the kernel then kills every process of its PID
    // namespace) and to the outer process. Safe at any time, and twice.
    void kill();
    // Kills if needed, then waits until PID 1 has exited - the kernel lets a namespace's init
    // exit only once every other process of it is gone - and reaps the outer process. False with a
    // reason when that cannot be confirmed within timeoutMs.
    bool killAndConfirm(int timeoutMs, QString* detail);
    bool hasExited(); // the outer process, without blocking
    // The "done" frame's content (the wrapper's exit status as text) when pump() ended on it.
    const std::optional<QByteArray>& programDone() const { return m_done; }
    int waitStatus() const { return m_waitStatus; }

private:
    void readInfo();
    // pump()'s loop; with jobLine set it also returns (true) once a line came on the job socket.
    bool pumpLoop(const OutputCallback& onOutput, ResultFrameParser& parser, const std::function<void()>& tick,
                  int tickMs, QByteArray* jobLine);
    bool readAll(Fd& fd, const std::function<void(const char*, qint64)>& sink); // true at EOF
    void reap(bool block);

    pid_t m_pid = -1;
    Fd m_pidFd;
    Fd m_out, m_err, m_result, m_info, m_status, m_lifeline, m_job;
    QByteArray m_infoText, m_statusText;
    int m_pid1 = -1;
    Fd m_pid1Fd;
    bool m_reaped = false;
    int m_waitStatus = 0;
    InitStatus m_init;
    std::unique_ptr<UserNetwork> m_network;
    std::unique_ptr<SandboxCgroup> m_cgroup;
    QByteArray m_heldOut, m_heldErr; // output before the program started
    std::optional<QByteArray> m_done;
};

} // namespace localsandbox
} // namespace sandpad
