#pragma once

// Internals shared by the local sandbox's files (LocalSandbox, its pre-started mode, SandboxLaunch,
// SandboxProcess): fixed fd numbers, the sandbox's limits, and a small owning fd. Not a public API.

#include <QByteArray>
#include <QFileInfo>
#include <QString>
#include <QtGlobal>
#include <unistd.h>

// For close_range(2) through syscall(); older headers lack the flag.
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

namespace sandpad::localsandbox {

// Fixed fd numbers of the process that starts a sandbox (setpriv/bwrap). bwrap consumes the
// seccomp, info and data fds; 3 and 6 reach the program, 7 and 8 reach PID 1 (sandpad-init) only.
constexpr int kResultFd = 3;       // the result channel (part of the runtime protocol)
constexpr int kSeccompFd = 4;
constexpr int kInfoFd = 5;         // bwrap --info-fd: the host pid of the sandbox's PID 1
constexpr int kJobFd = 6;          // pre-started sandboxes: "ready" out, the job in
constexpr int kStatusFd = 7;       // sandpad-init's status lines ("exec", "exit", "signal", "error")
constexpr int kLifelineFd = 8;     // sandpad-init exits at its EOF (the app is gone); with --wait it
                                   // starts the program at the first byte
constexpr int kFirstDataFd = 9;    // then one fd per file bwrap copies in (--file)

// Where sandpad-init lives inside the sandbox (a copy in the root tmpfs, read-only).
inline QString initPath() { return QStringLiteral("/.sandpad/init"); }

// A warm start's limits until the job arrives (then lowered, see applyJobLimits): the imports
// must not be cut short, and a hard limit can only be lowered later, never raised.
constexpr qint64 kWarmCpuSeconds = 86400;
constexpr qint64 kWarmAsReserve = 2048LL * 1024 * 1024;

constexpr qint64 kMiB = 1024 * 1024;
constexpr qint64 kTmpBytes = 512 * kMiB;   // room for `pip install --target /tmp/sandpad-pip`
constexpr qint64 kWorkBytes = 512 * kMiB;  // /sandpad: the program's files and its scratch space
constexpr qint64 kHomeBytes = 64 * kMiB;
constexpr qint64 kShmBytes = 64 * kMiB;
constexpr qint64 kFileSizeBytes = 256 * kMiB; // largest single file (wheels' .so files fit)
constexpr int kMaxProcesses = 256;
constexpr int kMaxOpenFiles = 1024;

// Helpers of pre-started sandboxes (LocalSandboxPrestart.cpp), also used by sessions.
int firstChildOf(int pid);             // a process's first child, else -1
qint64 cpuSecondsUsed(int pid);        // user + system, rounded up
qint64 vmSizeBytes(int pid);
bool sendAll(int fd, const QByteArray& data, int timeoutMs); // to a non-blocking socket

// Owns one file descriptor.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    Fd(Fd&& other) noexcept : m_fd(other.release()) {}
    Fd& operator=(Fd&& other) noexcept
    {
        if (this != &other)
            reset(other.release());
        return *this;
    }
    ~Fd() { reset(); }
    int get() const { return m_fd; }
    bool valid() const { return m_fd >= 0; }
    void reset(int fd = -1)
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = fd;
    }
    int release()
    {
        const int fd = m_fd;
        m_fd = -1;
        return fd;
    }

private:
    int m_fd = -1;
};

// node gets --max-old-space-size instead of an address-space limit (it reserves >1 GB virtual).
inline bool isNodeProgram(const QString& program)
{
    return QFileInfo(program).fileName().startsWith(QLatin1String("node"));
}

} // namespace sandpad::localsandbox
