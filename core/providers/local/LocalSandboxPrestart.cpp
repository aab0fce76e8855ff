// LocalSandbox, continued: the pre-started ("warm") mode used by SandboxPool. The cold path is in
// LocalSandbox.cpp; both start the same policy (SandboxLaunch) through SandboxProcess.
#include "core/providers/local/LocalSandbox.h"

#include "core/providers/local/LocalSandboxInternals.h"
#include "core/providers/local/SandboxLaunch.h"
#include "core/providers/local/SandboxProcess.h"
#include "core/providers/local/UserNetwork.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <cerrno>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sandpad {

using namespace localsandbox;

namespace localsandbox {

// The first child of a process (the wrapper is sandpad-init's only child), else -1.
int firstChildOf(int pid)
{
    QFile children(QStringLiteral("/proc/%1/task/%1/children").arg(pid));
    if (!children.open(QIODevice::ReadOnly))
        return -1;
    bool ok = false;
    const int child = children.readAll().trimmed().split(' ').value(0).toInt(&ok);
    return ok ? child : -1;
}

// CPU seconds (user + system) a process has used, rounded up.
qint64 cpuSecondsUsed(int pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray text = stat.read(1024);
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return 0;
    const qint64 ticks = fields[11].toLongLong() + fields[12].toLongLong(); // utime, stime
    const long hz = qMax(1L, ::sysconf(_SC_CLK_TCK));
    return (ticks + hz - 1) / hz;
}

qint64 vmSizeBytes(int pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmSize:"))
            return line.mid(7).trimmed().split(' ').value(0).toLongLong() * 1024;
    return 0;
}

// Writes all of `data` to a non-blocking socket within timeoutMs.
bool sendAll(int fd, const QByteArray& data, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    qint64 done = 0;
    while (done < data.size()) {
        const ssize_t n = ::send(fd, data.constData() + done, size_t(data.size() - done), MSG_NOSIGNAL);
        if (n > 0) {
            done += n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno != EAGAIN)
            return false;
        const qint64 left = timeoutMs - timer.elapsed();
        if (left <= 0)
            return false;
        pollfd p{fd, POLLOUT, 0};
        ::poll(&p, 1, int(left));
    }
    return true;
}

} // namespace localsandbox

SandboxCommand LocalSandbox::warmCommand(Language language, const QString& interpreter)
{
    // Must match what RuntimeProgram builds for the same sandbox (see warmCompatible).
    const bool python = language == Language::Python;
    SandboxCommand command;
    command.argv = {interpreter, python ? QStringLiteral("/sandpad/wrapper.py") : QStringLiteral("/sandpad/wrapper.mjs"),
                    QStringLiteral("--warm")};
    command.cwd = QStringLiteral("/sandpad");
    if (python)
        command.env.insert(QStringLiteral("MPLBACKEND"), QStringLiteral("Agg"));
    command.env.insert(QStringLiteral("SANDPAD_JOB_FD"), QString::number(kJobFd));
    command.timeoutMs = 0;
    return command;
}

bool LocalSandbox::isPrestarted() const
{
    return m_warm != nullptr;
}

bool LocalSandbox::warmCompatible(const SandboxCommand& command) const
{
    const SandboxCommand& warm = m_warmCommand;
    if (!m_warm || command.argv.size() != 3 || command.argv[0] != warm.argv.value(0) ||
        command.argv[1] != warm.argv.value(1) || command.cwd != warm.cwd)
        return false;
    if (command.env.size() + 1 != warm.env.size())
        return false;
    for (auto it = command.env.begin(); it != command.env.end(); ++it)
        if (warm.env.value(it.key()) != it.value() || it.key() == QLatin1String("SANDPAD_JOB_FD"))
            return false;
    if (command.argv[2].contains(u'\n') || command.argv[2].contains(u'\t'))
        return false;
    // The files the warm process started with (the wrapper) must be what this run would place.
    for (const SandboxFile& placed : m_warmFiles) {
        bool same = false;
        for (const SandboxFile& file : m_files)
            same = same || (file.path == placed.path && file.content == placed.content && file.mode == placed.mode);
        if (!same)
            return false;
    }
    return true;
}

void LocalSandbox::prestart(const SandboxCommand& command)
{
    if (m_destroyed || m_warm)
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The sandbox cannot be pre-started twice"));
    if (::geteuid() == 0 && m_config.setpriv.isEmpty())
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("Running as root needs setpriv (util-linux) to drop privileges"));
    if (SandboxLaunch::initProgram().isEmpty())
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("sandpad-init is missing from this build"));
    const bool wait = setUpFromOutsideNeeded();
    placeCompiledWrapper(command); // the same files as a cold run's (the warm start runs the source)
    auto process = std::make_unique<SandboxProcess>();
    process->start(SandboxLaunch::build(m_config, command, m_files, SandboxLaunch::Mode::Warm, wait), true);
    if (wait) {
        try {
            setUpFromOutside(*process);
        } catch (...) {
            QString ignored;
            process->killAndConfirm(10000, &ignored);
            throw;
        }
    }
    m_warmFiles = m_files;
    m_warmCommand = command;
    m_warm = std::move(process);
}

bool LocalSandbox::isWarmAlive() const
{
    return m_warm && !m_warm->hasExited();
}

bool LocalSandbox::waitReady(int timeoutMs, const std::atomic<bool>* abort)
{
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        const Warmth warmth = pollReady(100);
        if (warmth != Warmth::Starting)
            return warmth == Warmth::Ready;
        if (timer.elapsed() >= timeoutMs || (abort && abort->load()))
            return false;
    }
}

LocalSandbox::Warmth LocalSandbox::pollReady(int waitMs)
{
    if (m_warmReady)
        return Warmth::Ready;
    if (!m_warm || m_warmFailed)
        return Warmth::Failed;
    auto fail = [this] {
        m_warmFailed = true;
        return Warmth::Failed;
    };
    // Import noise is discarded as it comes (a full pipe would block the wrapper).
    pollfd p{m_warm->jobFd(), POLLIN, 0};
    ::poll(&p, 1, waitMs);
    m_warm->discardOutput();
    m_warm->awaitPid1(0);
    m_warm->readStatus();
    char buf[64];
    const ssize_t n = ::read(m_warm->jobFd(), buf, sizeof buf);
    if (n == 0)
        return fail(); // the wrapper died
    if (n > 0) {
        m_warmLine.append(buf, n);
        if (m_warmLine.endsWith('\n')) {
            if (m_warmLine != "ready\n")
                return fail();
            // The wrapper flushed before "ready": whatever it printed is in the pipes now.
            m_warm->discardOutput();
            m_warm->readStatus();
            if (!m_warm->awaitPid1(1000) || !m_warm->initStatus().started)
                return fail();
            m_interpreterPid = firstChildOf(m_warm->pid1());
            m_warmReady = true;
            return Warmth::Ready;
        }
    }
    if (m_warm->hasExited())
        return fail();
    return Warmth::Starting;
}

QByteArray LocalSandbox::applyJobLimits(qint64 timeoutMs, bool session, bool addressSpace)
{
    // The CPU limit counts from the job: what the warm start used plus the cold run's limit.
    // The address space: the cold limit on top of what the warm imports already occupy.
    // The host sets them with prlimit(2) when it may (same uid: a normal desktop); otherwise (root
    // without CAP_SYS_RESOURCE, e.g. in a container) the wrapper lowers its own limits: the job
    // line carries "\t<cpu soft>\t<cpu hard>\t<address space or ->".
    const int pid = m_interpreterPid;
    if (pid <= 0)
        return {};
    const qint64 cpuSoft = (timeoutMs + 999) / 1000 * qMax(1, QThread::idealThreadCount()) + 1;
    const qint64 used = cpuSecondsUsed(pid);
    // A session keeps the warm hard limit: the soft one is raised again for each execution.
    const qint64 soft = qMin(kWarmCpuSeconds, used + cpuSoft),
                 hard = session ? kWarmCpuSeconds : qMin(kWarmCpuSeconds, used + cpuSoft + 5);
    const rlimit cpu{rlim_t(soft), rlim_t(hard)};
    bool applied = ::prlimit(pid, RLIMIT_CPU, &cpu, nullptr) == 0;
    const SandboxOptions& opt = m_config.options;
    qint64 as = -1;
    if (addressSpace && !isNodeProgram(m_warmCommand.argv.value(0)) && opt.memoryLimitMb > 0) {
        const qint64 cold = opt.memoryLimitMb * kMiB;
        as = qMin(cold + kWarmAsReserve, qMax(cold, vmSizeBytes(pid) + cold - 32 * kMiB));
        const rlimit limit{rlim_t(as), rlim_t(as)};
        applied = applied && ::prlimit(pid, RLIMIT_AS, &limit, nullptr) == 0;
    }
    if (applied)
        return {};
    return QByteArray("\t") + QByteArray::number(soft) + '\t' + QByteArray::number(hard) + '\t' +
           (as > 0 ? QByteArray::number(as) : QByteArray("-"));
}

bool LocalSandbox::sendJob(SandboxProcess& process, const SandboxCommand& command, const QByteArray& limits)
{
    const bool sent = sendAll(process.jobFd(), jobBytes(QFile::encodeName(command.argv[2]) + limits), 10000);
    process.closeJob();
    return sent;
}

QByteArray LocalSandbox::jobBytes(const QByteArray& line) const
{
    // The files this run places that the warm process was not started with (the program and its
    // manifest) travel over the job socket: one header line each, then the bytes; the wrapper
    // writes them into its /sandpad. Then the job line: the manifest path and limits.
    QByteArray job;
    for (const SandboxFile& file : std::as_const(m_files)) {
        bool placed = false;
        for (const SandboxFile& warm : std::as_const(m_warmFiles))
            placed = placed || warm.path == file.path;
        if (placed)
            continue;
        const QJsonObject header{{QStringLiteral("name"), file.path},
                                 {QStringLiteral("size"), double(file.content.size())},
                                 {QStringLiteral("mode"), file.mode}};
        job += QJsonDocument(header).toJson(QJsonDocument::Compact) + '\n' + file.content;
    }
    return job + line + '\n';
}

CommandOutcome LocalSandbox::runWarm(const SandboxCommand& command, const OutputCallback& onOutput,
                                     RunControl& control)
{
    // Taken while still importing (runs in a burst): the wrapper stops at its next import and
    // says "ready"; the run imports what it needs itself. The socket is non-blocking and the
    // wrapper reads nothing before "ready": the few bytes fit its buffer.
    if (!m_warmReady && m_warm && !m_warmFailed)
        sendAll(m_warm->jobFd(), QByteArrayLiteral("wake\n"), 1000);
    if (!m_warmReady && !waitReady(120000)) {
        const QString why = m_warm->setupMessage();
        retire(std::move(m_warm));
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("The pre-started sandbox did not start: %1").arg(why));
    }
    m_warm->discardOutput();
    const qint64 timeoutMs = command.timeoutMs > 0 ? command.timeoutMs : m_config.options.deadlineSeconds * 1000LL;
    const QByteArray limits = applyJobLimits(timeoutMs);
    // The deadline counts from the job.
    std::unique_ptr<SandboxProcess> process = std::move(m_warm);
    if (!sendJob(*process, command, limits)) {
        retire(std::move(process));
        if (control.isCancelled()) {
            CommandOutcome outcome;
            outcome.cancelled = true;
            outcome.detail = QStringLiteral("cancelled; sandbox killed");
            return outcome;
        }
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The pre-started sandbox did not take the job"));
    }
    return runAndRetire(std::move(process), onOutput, control, timeoutMs, false);
}

} // namespace sandpad
