// LocalSandbox, continued: the pre-started ("warm") mode used by SandboxPool. The cold path and
// the policy are in LocalSandbox.cpp; both build the same bwrap command.
#include "providers/local/LocalSandbox.h"

#include "providers/ProviderError.h"
#include "providers/RunControl.h"
#include "providers/local/LocalSandboxInternals.h"
#include "providers/local/RunStopper.h"
#include "providers/local/SeccompFilter.h"
#include "runtime/ResultFrameParser.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSocketNotifier>
#include <QThread>
#include <QTimer>

#include <cerrno>
#include <climits>
#include <fcntl.h>
#include <csignal>
#include <poll.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sandpad {

using namespace localsandbox;

// ---------------------------------------------------------------------------------------------
// Pre-started sandboxes. The process is started with posix_spawn (not QProcess): it is started on
// the pool's thread and used on an Executor worker thread, and a QProcess cannot change threads
// while running. Everything else (bwrap arguments, fds 3-5, seccomp, setpriv) is the cold path's.

namespace {

void discardAvailable(int fd)
{
    char buf[65536];
    while (fd >= 0 && ::read(fd, buf, sizeof buf) > 0) {
    }
}

// Host pid of a child of `parent` (bwrap's PID 1 forks the program), else `parent` itself.
int childOf(int parent)
{
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        const QString dir = it.next();
        bool numeric = false;
        const int pid = QFileInfo(dir).fileName().toInt(&numeric);
        if (!numeric)
            continue;
        QFile stat(dir + QStringLiteral("/stat"));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.read(512);
        const qsizetype paren = text.lastIndexOf(')');
        const QList<QByteArray> fields = text.mid(paren + 2).split(' ');
        if (fields.size() > 1 && fields[1].toInt() == parent)
            return pid;
    }
    return parent;
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

} // namespace

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

bool LocalSandbox::warmCompatible(const SandboxCommand& command) const
{
    const SandboxCommand& warm = m_warm.command;
    if (command.argv.size() != 3 || command.argv[0] != warm.argv.value(0) ||
        command.argv[1] != warm.argv.value(1) || command.cwd != warm.cwd)
        return false;
    if (command.env.size() + 1 != warm.env.size())
        return false;
    for (auto it = command.env.begin(); it != command.env.end(); ++it)
        if (warm.env.value(it.key()) != it.value() || it.key() == QLatin1String("SANDPAD_JOB_FD"))
            return false;
    return !command.argv[2].contains(u'\n') && !command.argv[2].contains(u'\t');
}

void LocalSandbox::prestart(const SandboxCommand& command)
{
    if (m_destroyed || m_warm.pid > 0)
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The sandbox cannot be pre-started twice"));
    if (::geteuid() == 0 && m_config.setpriv.isEmpty())
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("Running as root needs setpriv (util-linux) to drop privileges"));
    auto fail = [](const char* what) {
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("Cannot pre-start a sandbox: %1").arg(QLatin1String(what)));
    };
    int p[2];
    Fd outR, outW, errR, errW, resR, resW, infoR, infoW, jobHost, jobChild, seccompFd;
    if (::pipe2(p, O_CLOEXEC) != 0) fail("pipe2");
    outR.reset(p[0]); outW.reset(p[1]);
    if (::pipe2(p, O_CLOEXEC) != 0) fail("pipe2");
    errR.reset(p[0]); errW.reset(p[1]);
    if (::pipe2(p, O_CLOEXEC) != 0) fail("pipe2");
    resR.reset(p[0]); resW.reset(p[1]);
    if (::pipe2(p, O_CLOEXEC) != 0) fail("pipe2");
    infoR.reset(p[0]); infoW.reset(p[1]);
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) != 0) fail("socketpair");
    jobHost.reset(p[0]); jobChild.reset(p[1]);
    const QByteArray bpf = SeccompFilter::bpf();
    if (!bpf.isEmpty()) {
        seccompFd.reset(::memfd_create("sandpad-seccomp", MFD_CLOEXEC));
        if (seccompFd.get() < 0 || ::write(seccompFd.get(), bpf.constData(), bpf.size()) != bpf.size() ||
            ::lseek(seccompFd.get(), 0, SEEK_SET) != 0)
            fail("the seccomp filter");
    } else {
        seccompFd.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    }
    for (int fd : {outR.get(), errR.get(), resR.get(), infoR.get(), jobHost.get()})
        ::fcntl(fd, F_SETFL, O_NONBLOCK);

    m_prestarting = true;
    const QStringList line = commandLine(command);
    m_prestarting = false;
    std::vector<QByteArray> args;
    for (const QString& arg : line)
        args.push_back(QFile::encodeName(arg));
    std::vector<char*> argv;
    for (QByteArray& arg : args)
        argv.push_back(arg.data());
    argv.push_back(nullptr);

    // fds 1-6 of the child; sources are first moved above 10 so no dup2 overwrites a source.
    const int sources[6] = {outW.get(), errW.get(), resW.get(), seccompFd.get(), infoW.get(), jobChild.get()};
    Fd high[6];
    for (int i = 0; i < 6; ++i) {
        high[i].reset(::fcntl(sources[i], F_DUPFD_CLOEXEC, 10));
        if (high[i].get() < 0)
            fail("fcntl");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    for (int i = 0; i < 6; ++i)
        posix_spawn_file_actions_adddup2(&actions, high[i].get(), i + 1); // the copy is inheritable
    posix_spawn_file_actions_addclosefrom_np(&actions, kJobFd + 1); // nothing else of the app
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, pipe;
    sigemptyset(&none);
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &pipe); // as QProcess does
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0)
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("Cannot start %1: %2").arg(line.first(), QString::fromLocal8Bit(::strerror(rc))));
    m_warm.pid = pid;
    m_warm.pidFd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    m_warm.outFd = outR.release();
    m_warm.errFd = errR.release();
    m_warm.resultFd = resR.release();
    m_warm.infoFd = infoR.release();
    m_warm.jobFd = jobHost.release();
    m_warm.command = command;
}

bool LocalSandbox::isWarmAlive() const
{
    if (m_warm.pid <= 0 || m_warm.reaped)
        return false;
    if (m_warm.pidFd < 0)
        return ::kill(m_warm.pid, 0) == 0;
    pollfd p{m_warm.pidFd, POLLIN, 0};
    return ::poll(&p, 1, 0) == 0;
}

void LocalSandbox::readWarmInfo()
{
    if (m_warm.infoFd < 0 || m_warm.childPid > 0)
        return;
    char buf[512];
    ssize_t n;
    while ((n = ::read(m_warm.infoFd, buf, sizeof buf)) > 0)
        m_warm.info.append(buf, n);
    static const QRegularExpression re(QStringLiteral("\"child-pid\"\\s*:\\s*(\\d+)"));
    const auto m = re.match(QString::fromUtf8(m_warm.info));
    if (!m.hasMatch())
        return;
    m_warm.childPid = m.captured(1).toInt();
    const QByteArray ns = QByteArray("/proc/") + QByteArray::number(m_warm.childPid) + "/ns/pid";
    const int fd = ::open(ns.constData(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0)
        m_namespaceFds.append(fd);
    m_warm.pid1Fd = static_cast<int>(::syscall(SYS_pidfd_open, m_warm.childPid, 0));
}

bool LocalSandbox::waitReady(int timeoutMs, const std::atomic<bool>* abort)
{
    if (m_warm.ready)
        return true;
    if (m_warm.pid <= 0 || m_warm.reaped)
        return false;
    QElapsedTimer timer;
    timer.start();
    QByteArray line;
    while (timer.elapsed() < timeoutMs && !(abort && abort->load())) {
        // Import noise is discarded as it comes (a full pipe would block the wrapper).
        pollfd p[4] = {{m_warm.jobFd, POLLIN, 0}, {m_warm.outFd, POLLIN, 0}, {m_warm.errFd, POLLIN, 0},
                       {m_warm.pidFd, POLLIN, 0}};
        ::poll(p, m_warm.pidFd >= 0 ? 4 : 3, 100);
        discardAvailable(m_warm.outFd);
        discardAvailable(m_warm.errFd);
        readWarmInfo();
        char buf[64];
        const ssize_t n = ::read(m_warm.jobFd, buf, sizeof buf);
        if (n == 0)
            return false; // the wrapper died
        if (n > 0) {
            line.append(buf, n);
            if (line.endsWith('\n')) {
                if (line != "ready\n")
                    return false;
                // The wrapper flushed before "ready": whatever it printed is in the pipes now.
                discardAvailable(m_warm.outFd);
                discardAvailable(m_warm.errFd);
                readWarmInfo();
                if (m_warm.childPid > 0)
                    m_warm.interpreterPid = childOf(m_warm.childPid);
                m_warm.ready = true;
                return true;
            }
        }
        if (m_warm.pidFd >= 0 && (p[3].revents & POLLIN))
            return false;
    }
    return false;
}

QByteArray LocalSandbox::applyJobLimits(qint64 timeoutMs)
{
    // The CPU limit counts from the job: what the warm start used plus the cold run's limit.
    // The address space: the cold limit on top of what the warm imports already occupy.
    // The host sets them with prlimit(2) when it may (same uid: a normal desktop); otherwise (root
    // without CAP_SYS_RESOURCE, e.g. in a container) the wrapper lowers its own limits: the job
    // line carries "\t<cpu soft>\t<cpu hard>\t<address space or ->".
    const int pid = m_warm.interpreterPid;
    if (pid <= 0)
        return {};
    const qint64 cpuSoft = (timeoutMs + 999) / 1000 * qMax(1, QThread::idealThreadCount()) + 1;
    const qint64 used = cpuSecondsUsed(pid);
    const qint64 soft = qMin(kWarmCpuSeconds, used + cpuSoft), hard = qMin(kWarmCpuSeconds, used + cpuSoft + 5);
    const rlimit cpu{rlim_t(soft), rlim_t(hard)};
    bool applied = ::prlimit(pid, RLIMIT_CPU, &cpu, nullptr) == 0;
    const SandboxOptions& opt = m_config.options;
    qint64 as = -1;
    if (!isNodeProgram(m_warm.command.argv.value(0)) && opt.memoryLimitMb > 0) {
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

void LocalSandbox::killWarm()
{
    if (m_warm.pid > 0 && !m_warm.reaped) {
        // A sandbox still being set up: bwrap's inner process waits for the outer one to write
        // its uid map, and killed at that moment it would wait forever as an orphan. Let bwrap
        // report its child (setup done) first, briefly, then kill both.
        QElapsedTimer setup;
        setup.start();
        while (m_warm.childPid <= 0 && m_warm.infoFd >= 0 && setup.elapsed() < 2000) {
            pollfd p{m_warm.infoFd, POLLIN, 0};
            if (::poll(&p, 1, 50) < 0 && errno != EINTR)
                break;
            readWarmInfo();
            if (p.revents & (POLLHUP | POLLERR))
                break;
        }
        ::kill(m_warm.pid, SIGKILL); // --die-with-parent takes the whole PID namespace with it
        if (m_warm.pid1Fd >= 0) // through its pidfd: never a reused pid
            ::syscall(SYS_pidfd_send_signal, m_warm.pid1Fd, SIGKILL, nullptr, 0);
        while (::waitpid(m_warm.pid, &m_warm.status, 0) < 0 && errno == EINTR) {
        }
        m_warm.reaped = true;
    }
    closeWarmFds();
}

void LocalSandbox::closeWarmFds()
{
    for (int* fd : {&m_warm.pidFd, &m_warm.outFd, &m_warm.errFd, &m_warm.resultFd, &m_warm.infoFd, &m_warm.jobFd}) {
        if (*fd >= 0)
            ::close(*fd);
        *fd = -1;
    }
}

CommandOutcome LocalSandbox::runWarm(const SandboxCommand& command, const OutputCallback& onOutput,
                                     RunControl& control)
{
    if (!m_warm.ready && !waitReady(120000)) {
        QByteArray err;
        char buf[4096];
        const ssize_t n = ::read(m_warm.errFd, buf, sizeof buf);
        if (n > 0)
            err = QByteArray(buf, n);
        killWarm();
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("The pre-started sandbox did not start: %1").arg(QString::fromUtf8(err).trimmed()));
    }
    discardAvailable(m_warm.outFd);
    discardAvailable(m_warm.errFd);
    const qint64 timeoutMs = command.timeoutMs > 0 ? command.timeoutMs : m_config.options.deadlineSeconds * 1000LL;
    const QByteArray limits = applyJobLimits(timeoutMs);

    ResultFrameParser parser(kMaxResultBytes);
    QByteArray stderrHead;
    auto reap = [&] {
        if (m_warm.reaped)
            return;
        while (::waitpid(m_warm.pid, &m_warm.status, 0) < 0 && errno == EINTR) {
        }
        m_warm.reaped = true;
    };
    auto killAll = [&] {
        if (!m_warm.reaped)
            ::kill(m_warm.pid, SIGKILL);
    };
    // Returns true at EOF.
    auto pump = [&](int fd, OutputStream stream) {
        char buf[65536];
        for (;;) {
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n > 0) {
                const QByteArray chunk(buf, n);
                if (stream == OutputStream::Stderr && stderrHead.size() < 4096)
                    stderrHead.append(chunk.left(4096 - stderrHead.size()));
                if (onOutput)
                    onOutput(stream, chunk);
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            return n == 0;
        }
    };
    auto readResults = [&] {
        char buf[65536];
        for (;;) {
            const ssize_t n = ::read(m_warm.resultFd, buf, sizeof buf);
            if (n > 0) {
                parser.feed(buf, n);
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            return n == 0;
        }
    };

    QEventLoop loop;
    QObject context;
    QSocketNotifier outNotifier(m_warm.outFd, QSocketNotifier::Read);
    QSocketNotifier errNotifier(m_warm.errFd, QSocketNotifier::Read);
    QSocketNotifier resNotifier(m_warm.resultFd, QSocketNotifier::Read);
    std::unique_ptr<QSocketNotifier> exitNotifier;
    QObject::connect(&outNotifier, &QSocketNotifier::activated, &context, [&] {
        if (pump(m_warm.outFd, OutputStream::Stdout))
            outNotifier.setEnabled(false);
    });
    QObject::connect(&errNotifier, &QSocketNotifier::activated, &context, [&] {
        if (pump(m_warm.errFd, OutputStream::Stderr))
            errNotifier.setEnabled(false);
    });
    QObject::connect(&resNotifier, &QSocketNotifier::activated, &context, [&] {
        if (readResults())
            resNotifier.setEnabled(false);
    });
    auto onExit = [&] {
        reap();
        loop.quit();
    };
    QTimer exitPoll; // only without pidfd (kernels before 5.3)
    if (m_warm.pidFd >= 0) {
        exitNotifier = std::make_unique<QSocketNotifier>(m_warm.pidFd, QSocketNotifier::Read);
        QObject::connect(exitNotifier.get(), &QSocketNotifier::activated, &context, [&] {
            exitNotifier->setEnabled(false);
            onExit();
        });
    } else {
        QObject::connect(&exitPoll, &QTimer::timeout, &context, [&] {
            if (::waitpid(m_warm.pid, &m_warm.status, WNOHANG) == m_warm.pid) {
                m_warm.reaped = true;
                loop.quit();
            }
        });
        exitPoll.start(5);
    }
    RunStopper stopper(control, killAll);

    // The job: one line with the manifest path. The deadline counts from here.
    const QByteArray job = QFile::encodeName(command.argv[2]) + limits + '\n';
    const bool sent = ::send(m_warm.jobFd, job.constData(), job.size(), MSG_NOSIGNAL) == job.size();
    ::close(m_warm.jobFd);
    m_warm.jobFd = -1;
    stopper.start(timeoutMs);
    if (!sent)
        killAll();
    if (!m_warm.reaped)
        loop.exec();
    stopper.stop();
    exitPoll.stop();
    outNotifier.setEnabled(false);
    errNotifier.setEnabled(false);
    resNotifier.setEnabled(false);
    if (exitNotifier)
        exitNotifier->setEnabled(false);
    reap();
    // The sandbox is gone; an orphan may hold a pipe for a moment: drain to EOF, never forever.
    QElapsedTimer drain;
    drain.start();
    bool outDone = false, errDone = false, resDone = false;
    while (!(outDone && errDone && resDone) && drain.elapsed() < 1000) {
        outDone = outDone || pump(m_warm.outFd, OutputStream::Stdout);
        errDone = errDone || pump(m_warm.errFd, OutputStream::Stderr);
        resDone = resDone || readResults();
        if (outDone && errDone && resDone)
            break;
        pollfd p[3] = {{m_warm.outFd, short(outDone ? 0 : POLLIN), 0}, {m_warm.errFd, short(errDone ? 0 : POLLIN), 0},
                       {m_warm.resultFd, short(resDone ? 0 : POLLIN), 0}};
        ::poll(p, 3, 50);
    }
    takeResults(parser);
    closeWarmFds();

    if (!sent && !stopper.stopped())
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The pre-started sandbox did not take the job"));
    if (stopper.stopped())
        return stopper.outcome();
    return endedOutcome(!WIFEXITED(m_warm.status), WEXITSTATUS(m_warm.status), stderrHead, true);
}

} // namespace sandpad
