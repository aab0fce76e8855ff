#include "core/providers/local/LocalServiceSandbox.h"

#include "core/providers/local/LocalProvider.h"
#include "core/providers/local/LocalSandboxInternals.h"
#include "core/providers/local/SandboxProcess.h"

#include <QElapsedTimer>

#include <cerrno>
#include <poll.h>
#include <sys/resource.h>
#include <unistd.h>

namespace sandpad {

using namespace localsandbox;

LocalServiceSandbox::LocalServiceSandbox(LocalProvider& provider, const SandboxOptions& options,
                                         const QList<SandboxFile>& files, SandboxCommand command)
    : m_sandbox(std::make_unique<LocalSandbox>(provider.sandboxConfig(options)))
{
    command.env.insert(QStringLiteral("SANDPAD_JOB_FD"), QString::number(kJobFd));
    command.timeoutMs = 0; // no run deadline: the caller has one per request
    m_sandbox->writeFiles(files);
    m_sandbox->prestart(command);
}

LocalServiceSandbox::~LocalServiceSandbox()
{
    destroy();
}

bool LocalServiceSandbox::waitReady(int timeoutMs, int memoryMb, const std::atomic<bool>* abort)
{
    if (m_destroyed)
        return false;
    if (!m_sandbox->waitReady(timeoutMs, abort)) {
        destroy();
        return false;
    }
    // The warm start ran with the generous limits of a pre-started sandbox; from now on its
    // address space may grow by memoryMb only (the CPU limit stays the warm one's: the service
    // lives long, and a stuck request is ended by the caller's deadline).
    const int pid = m_sandbox->m_interpreterPid;
    if (pid > 0 && memoryMb > 0) {
        const qint64 as = vmSizeBytes(pid) + qint64(memoryMb) * kMiB;
        const rlimit limit{rlim_t(as), rlim_t(as)};
        ::prlimit(pid, RLIMIT_AS, &limit, nullptr); // else the warm limit stays (memory + 2 GiB)
    }
    m_ready = true;
    return true;
}

bool LocalServiceSandbox::isAlive()
{
    return !m_destroyed && m_sandbox && m_sandbox->isWarmAlive();
}

bool LocalServiceSandbox::send(const QByteArray& bytes, int timeoutMs)
{
    if (!m_ready || !isAlive())
        return false;
    SandboxProcess& process = *m_sandbox->m_warm;
    process.discardOutput();
    process.readStatus();
    return sendAll(process.jobFd(), bytes, timeoutMs);
}

LocalServiceSandbox::Read LocalServiceSandbox::readLine(QByteArray* line, int timeoutMs, qint64 maxBytes)
{
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        const qsizetype end = m_buffer.indexOf('\n');
        if (end >= 0) {
            if (end > maxBytes)
                return Read::TooLong;
            *line = m_buffer.left(end);
            m_buffer.remove(0, end + 1);
            return Read::Line;
        }
        if (m_buffer.size() > maxBytes)
            return Read::TooLong;
        if (!m_ready || !isAlive())
            return Read::Ended;
        const qint64 left = timeoutMs - clock.elapsed();
        if (left <= 0)
            return Read::Timeout;
        SandboxProcess& process = *m_sandbox->m_warm;
        pollfd p{process.jobFd(), POLLIN, 0};
        ::poll(&p, 1, int(qMin<qint64>(left, 200)));
        process.discardOutput();
        process.readStatus();
        char buf[65536];
        const ssize_t n = ::read(process.jobFd(), buf, sizeof buf);
        if (n == 0)
            return Read::Ended;
        if (n > 0)
            m_buffer.append(buf, n);
        else if (errno != EAGAIN && errno != EINTR)
            return Read::Ended;
    }
}

int LocalServiceSandbox::pid1() const
{
    return m_sandbox && m_sandbox->m_warm ? m_sandbox->m_warm->pid1() : -1;
}

int LocalServiceSandbox::interpreterPid() const
{
    return m_sandbox ? m_sandbox->m_interpreterPid : -1;
}

CleanupReport LocalServiceSandbox::destroy()
{
    if (m_destroyed)
        return m_cleanup;
    m_destroyed = true;
    m_ready = false;
    m_cleanup = m_sandbox ? m_sandbox->destroy() : CleanupReport{true, {}};
    return m_cleanup;
}

} // namespace sandpad
