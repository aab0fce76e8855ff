#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <sys/types.h>

#include <functional>
#include <memory>
#include <mutex>

namespace sandpad::localsandbox {

struct CgroupLimits {
    qint64 memoryBytes = 0; // memory.max (swap off); <= 0: no limit
    int maxProcesses = 0;   // pids.max; <= 0: no limit
};

// Where CgroupDelegation looks: the real system by default; tests point it at a fake cgroupfs
// (files in a temp dir) and replace mkdir/rmdir with ones that act like the kernel's.
struct CgroupEnvironment {
    QString procSelfCgroup = QStringLiteral("/proc/self/cgroup");
    QString mountInfo = QStringLiteral("/proc/self/mountinfo");
    uid_t euid;
    pid_t pid;
    std::function<bool(const QString& path)> makeDir;   // false with errno set
    std::function<bool(const QString& path)> removeDir;
    CgroupEnvironment();
};

// One sandbox's cgroup, a child of the delegated one, with its limits set. The caller attaches
// the sandbox's first process before it forks; kill() and remove() at the run's end (the
// destructor does both when they were not done).
class SandboxCgroup {
public:
    ~SandboxCgroup();
    SandboxCgroup(const SandboxCgroup&) = delete;
    SandboxCgroup& operator=(const SandboxCgroup&) = delete;

    QString path() const { return m_path; }
    const CgroupLimits& limits() const { return m_limits; }
    // Open for writing on cgroup.procs (close-on-exec): in a child between fork and exec,
    // `write(fd, "0", 1)` moves that child in (async-signal-safe), before it can fork anything.
    int procsFd() const { return m_procsFd; }
    // Moves `pid` in (its children forked before stay where they are).
    bool attach(pid_t pid, QString* error = nullptr);

    qint64 currentBytes() const;  // memory.current; -1 if unreadable
    qint64 peakBytes() const;     // memory.peak (Linux 5.19+); -1 if unreadable
    int oomKills() const;         // memory.events oom_kill: the limit was hit
    int processLimitHits() const; // pids.events max: a fork failed at pids.max
    bool populated() const;       // cgroup.events: processes remain
    // MemoryWatchdog::exceededMessage(limit) once the limit killed the sandbox, else empty.
    QString message() const;

    // Kills every process in it (cgroup.kill; before Linux 5.14 each pid in turn).
    bool kill(QString* error = nullptr);
    // Removes it, waiting up to waitMs for its killed processes to be gone.
    bool remove(int waitMs = 2000, QString* error = nullptr);

private:
    friend class CgroupDelegation;
    SandboxCgroup(QString path, CgroupLimits limits, std::function<bool(const QString&)> removeDir, int procsFd);

    QString m_path;
    CgroupLimits m_limits;
    std::function<bool(const QString&)> m_removeDir;
    int m_procsFd;
    bool m_removed = false;
};

// Whether this process has a cgroup v2 subtree delegated to it, and if so one child cgroup per
// sandbox (memory.max, memory.swap.max = 0, pids.max, memory.oom.group): the kernel then counts
// every page of the sandbox, kernel memory included. Delegated means: cgroup2 mounted, our cgroup
// from /proc/self/cgroup, memory and pids in its cgroup.controllers, and systemd's
// trusted.delegate / user.delegate xattr on it, or (not as root) owned by our euid with writable
// cgroup.procs and cgroup.subtree_control. Never a cgroup v1 tree, never a tree that is merely
// writable by root. Elsewhere the MemoryWatchdog holds the limit. Detection only reads; the first
// create() moves this process (and any other in our cgroup) into the leaf kAppLeaf, as the
// no-internal-processes rule requires, and enables memory and pids for the children.
// Thread-safe.
class CgroupDelegation {
public:
    static constexpr const char* kAppLeaf = "sandpad-app";

    explicit CgroupDelegation(CgroupEnvironment env = CgroupEnvironment());
    CgroupDelegation(const CgroupDelegation&) = delete;
    CgroupDelegation& operator=(const CgroupDelegation&) = delete;

    // Detected once per process (its cgroup is the process's).
    static CgroupDelegation& forThisProcess();

    bool available() const;
    QString reason() const;     // why not, when not available
    QString cgroupPath() const; // the delegated cgroup as in /proc/self/cgroup ("/user.slice/...")
    QString directory() const;  // and in the file system
    // For validation: "memory limit: cgroup v2 (delegated: /user.slice/...)" or "memory limit:
    // host watchdog every 50 ms (no delegated cgroup: cgroup v1 memory controller)".
    QString describe() const;

    // A new child cgroup with `limits`, or nullptr with `error` (the run then uses the watchdog).
    // A failure to prepare the delegated cgroup makes the delegation unavailable from then on.
    std::unique_ptr<SandboxCgroup> create(const CgroupLimits& limits, QString* error = nullptr);

private:
    void detect();
    bool prepare(QString* error);
    void removeStaleSandboxes();

    CgroupEnvironment m_env;
    mutable std::mutex m_mutex;
    bool m_available = false;
    bool m_prepared = false;
    bool m_inLeaf = false;   // already in kAppLeaf (a second instance, or ourselves before)
    QString m_reason;
    QString m_cgroupPath;    // of the base: ours, or the parent of our leaf
    QString m_directory;
    QString m_delegatedBy;
    int m_created = 0;
};

} // namespace sandpad::localsandbox
