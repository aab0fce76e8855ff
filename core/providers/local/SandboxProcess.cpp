#include "core/providers/local/SandboxProcess.h"

#include "core/providers/local/CgroupDelegation.h"
#include "core/providers/local/SandboxLaunch.h"
#include "core/providers/local/SeccompFilter.h"
#include "core/providers/local/UserNetwork.h"
#include "core/runtime/ResultFrameParser.h"
#include "core/sandbox/ProviderError.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QRegularExpression>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <poll.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sandpad::localsandbox {

namespace {

[[noreturn]] void fail(const QString& what)
{
    throw ProviderError(ProviderError::Kind::Io, QStringLiteral("Cannot start the sandbox: %1").arg(what));
}

void makePipe(Fd& readEnd, Fd& writeEnd)
{
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0)
        fail(QStringLiteral("pipe2: %1").arg(QString::fromLocal8Bit(::strerror(errno))));
    readEnd.reset(p[0]);
    writeEnd.reset(p[1]);
}

Fd memfdWith(const QByteArray& content, const char* name)
{
    Fd fd(::memfd_create(name, MFD_CLOEXEC));
    if (!fd.valid())
        fail(QStringLiteral("memfd_create"));
    qint64 done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd.get(), content.constData() + done, size_t(content.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fail(QStringLiteral("writing a memfd"));
        done += n;
    }
    if (::lseek(fd.get(), 0, SEEK_SET) != 0)
        fail(QStringLiteral("lseek"));
    return fd;
}

int parentOf(int pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = stat.read(512);
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    return fields.size() > 1 ? fields[1].toInt() : -1;
}

} // namespace

void InitStatus::take(QByteArray& buffer)
{
    for (qsizetype nl; (nl = buffer.indexOf('\n')) >= 0;) {
        const QByteArray line = buffer.left(nl);
        buffer.remove(0, nl + 1);
        if (line.startsWith("exec ")) {
            started = true;
        } else if (line.startsWith("exit ")) {
            exitCode = line.mid(5).toInt();
        } else if (line.startsWith("signal ")) {
            signal = line.mid(7).toInt();
        } else if (line.startsWith("error ")) {
            if (error.isEmpty())
                error = QString::fromUtf8(line.mid(6)).left(500);
        }
    }
    if (buffer.size() > 4096) // not ours: PID 1 writes short lines only
        buffer.clear();
}

SandboxProcess::SandboxProcess() = default;

SandboxProcess::~SandboxProcess()
{
    // (m_network, if any, is stopped by killAndConfirm or its own destructor.)
    if (m_pid > 0 && !m_reaped) {
        QString ignored;
        killAndConfirm(10000, &ignored);
    }
}

void SandboxProcess::start(const SandboxLaunch& launch, bool withJob)
{
    if (m_pid > 0)
        fail(QStringLiteral("already started"));
    Fd outW, errW, resW, infoW, statW, lifelineR, jobChild;
    makePipe(m_out, outW);
    makePipe(m_err, errW);
    makePipe(m_result, resW);
    makePipe(m_info, infoW);
    makePipe(m_status, statW);
    makePipe(lifelineR, m_lifeline);
    if (withJob) {
        int p[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) != 0)
            fail(QStringLiteral("socketpair"));
        m_job.reset(p[0]);
        jobChild.reset(p[1]);
    }
    const QByteArray bpf = SeccompFilter::bpf();
    Fd seccomp = bpf.isEmpty() ? Fd(::open("/dev/null", O_RDONLY | O_CLOEXEC)) : memfdWith(bpf, "sandpad-seccomp");
    std::vector<Fd> data;
    data.reserve(size_t(launch.data.size()));
    for (const QByteArray& content : launch.data)
        data.push_back(memfdWith(content, "sandpad-file"));
    for (Fd* fd : {&m_out, &m_err, &m_result, &m_info, &m_status, &m_job})
        if (fd->valid())
            ::fcntl(fd->get(), F_SETFL, O_NONBLOCK);

    // target fd -> source fd; sources are first copied above every target, so that no dup2 in
    // the child overwrites a source it still needs.
    std::vector<std::pair<int, int>> map{{1, outW.get()}, {2, errW.get()}, {kResultFd, resW.get()},
                                         {kSeccompFd, seccomp.get()}, {kInfoFd, infoW.get()},
                                         {kStatusFd, statW.get()}};
    if (withJob)
        map.push_back({kJobFd, jobChild.get()});
    map.push_back({kLifelineFd, lifelineR.get()});
    for (size_t i = 0; i < data.size(); ++i)
        map.push_back({kFirstDataFd + int(i), data[i].get()});
    // A reader of the info pipe inside bwrap itself: if the app dies before bwrap reported its
    // child, the report still succeeds (no SIGPIPE/EPIPE), bwrap goes on to release the child,
    // and PID 1 ends at its lifeline's EOF - instead of a half-made child waiting forever.
    map.push_back({kFirstDataFd + int(data.size()), m_info.get()});
    int highest = 0;
    for (const auto& [target, source] : map)
        highest = std::max(highest, target);
    std::vector<Fd> high;
    for (auto& [target, source] : map) {
        high.emplace_back(::fcntl(source, F_DUPFD_CLOEXEC, highest + 1));
        if (!high.back().valid())
            fail(QStringLiteral("fcntl"));
        source = high.back().get();
    }

    std::vector<QByteArray> args;
    for (const QString& arg : launch.argv)
        args.push_back(QFile::encodeName(arg));
    std::vector<char*> argv;
    for (QByteArray& arg : args)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    std::vector<QByteArray> envStrings = [] {
        std::vector<QByteArray> v;
        for (const QByteArray& e : SandboxLaunch::hostEnvironment())
            v.push_back(e);
        return v;
    }();
    std::vector<char*> envp;
    for (QByteArray& e : envStrings)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const char* const program = argv[0];
    const pid_t parent = ::getpid();
    const int mapSize = int(map.size());
    const std::pair<int, int>* const mapData = map.data();
    const int firstFree = highest + 1;

    // No signal handler of the app may run in the child, which shares the app's memory until exec.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    const pid_t pid = ::vfork();
    if (pid == 0) {
        // Only async-signal-safe calls from here to execve.
        // The app already gone: do not start at all. (No parent-death signal: see SandboxLaunch.)
        if (::getppid() != parent)
            ::_exit(127);
        const int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull < 0 || ::dup2(devnull, 0) != 0)
            ::_exit(127);
        for (int i = 0; i < mapSize; ++i)
            if (::dup2(mapData[i].second, mapData[i].first) != mapData[i].first)
                ::_exit(127);
        // Nothing else of the app leaks into the sandbox.
        ::syscall(SYS_close_range, unsigned(firstFree), ~0U, CLOSE_RANGE_CLOEXEC);
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        for (int sig = 1; sig < NSIG; ++sig)
            ::sigaction(sig, &dfl, nullptr); // the child's own copy of the table (no CLONE_SIGHAND)
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::execve(program, argv.data(), envp.data());
        ::_exit(127);
    }
    const int spawnErrno = errno;
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (pid < 0)
        fail(QStringLiteral("vfork: %1").arg(QString::fromLocal8Bit(::strerror(spawnErrno))));
    m_pid = pid;
    m_pidFd.reset(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
    if (!m_pidFd.valid()) {
        kill();
        reap(true);
        fail(QStringLiteral("pidfd_open is not available (Linux 5.3 or later is needed)"));
    }
}

bool SandboxProcess::readAll(Fd& fd, const std::function<void(const char*, qint64)>& sink)
{
    if (!fd.valid())
        return true;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buf, sizeof buf);
        if (n > 0) {
            if (sink)
                sink(buf, n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        return n == 0;
    }
}

void SandboxProcess::readInfo()
{
    if (!m_info.valid())
        return;
    // Read to EOF before closing: bwrap writes the info in several pieces, and a write to a
    // closed pipe would kill it with SIGPIPE.
    const bool eof = readAll(m_info, [this](const char* d, qint64 n) {
        if (m_infoText.size() < 65536)
            m_infoText.append(d, n);
    });
    if (m_pid1 < 0) {
        static const QRegularExpression re(QStringLiteral("\"child-pid\"\\s*:\\s*(\\d+)"));
        const auto m = re.match(QString::fromUtf8(m_infoText));
        if (m.hasMatch()) {
            const int pid = m.captured(1).toInt();
            Fd pidFd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
            // bwrap reaps its child only after it exited, so while the pidfd's process is bwrap's
            // child, it is the sandbox's PID 1 and not a reused pid.
            if (pidFd.valid() && parentOf(pid) == m_pid) {
                m_pid1 = pid;
                m_pid1Fd = std::move(pidFd);
            } else {
                m_pid1 = 0; // already gone
            }
        }
    }
    if (eof)
        m_info.reset();
}

bool SandboxProcess::awaitPid1(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        readInfo();
        if (m_pid1 >= 0 || !m_info.valid())
            return m_pid1 > 0;
        const qint64 left = timeoutMs - timer.elapsed();
        if (left <= 0)
            return false;
        pollfd p{m_info.get(), POLLIN, 0};
        ::poll(&p, 1, int(std::min<qint64>(left, 1000)));
    }
}

void SandboxProcess::releaseGo()
{
    // One byte; the pipe stays open as the lifeline.
    const char byte = 'g';
    while (m_lifeline.valid() && ::write(m_lifeline.get(), &byte, 1) < 0 && errno == EINTR) {
    }
}

void SandboxProcess::attachNetwork(int timeoutMs)
{
    if (!awaitPid1(timeoutMs))
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("The sandbox could not be set up: bubblewrap did not report its PID 1"));
    auto network = std::make_unique<UserNetwork>();
    network->start(m_pid1, timeoutMs);
    m_network = std::move(network);
}

void SandboxProcess::attachCgroup(std::unique_ptr<SandboxCgroup> cgroup)
{
    QString error;
    if (!awaitPid1(5000) || !cgroup->attach(m_pid1, &error))
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("The sandbox could not be put into its cgroup %1: %2").arg(cgroup->path(), error));
    m_cgroup = std::move(cgroup);
}

void SandboxProcess::discardOutput()
{
    readAll(m_out, {});
    readAll(m_err, {});
}

void SandboxProcess::readStatus()
{
    readAll(m_status, [this](const char* d, qint64 n) { m_statusText.append(d, n); });
    m_init.take(m_statusText);
}

bool SandboxProcess::hasExited()
{
    if (m_reaped)
        return true;
    if (m_pid <= 0)
        return true;
    pollfd p{m_pidFd.get(), POLLIN, 0};
    return ::poll(&p, 1, 0) == 1;
}

void SandboxProcess::reap(bool block)
{
    if (m_reaped || m_pid <= 0)
        return;
    for (;;) {
        const pid_t r = ::waitpid(m_pid, &m_waitStatus, block ? 0 : WNOHANG);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == m_pid || (r < 0 && errno == ECHILD))
            m_reaped = true;
        return;
    }
}

void SandboxProcess::kill()
{
    if (m_pid1Fd.valid())
        ::syscall(SYS_pidfd_send_signal, m_pid1Fd.get(), SIGKILL, nullptr, 0);
    if (m_pid > 0 && !m_reaped) {
        if (m_pidFd.valid())
            ::syscall(SYS_pidfd_send_signal, m_pidFd.get(), SIGKILL, nullptr, 0);
        else
            ::kill(m_pid, SIGKILL);
    }
}

bool SandboxProcess::killAndConfirm(int timeoutMs, QString* detail)
{
    if (m_pid <= 0)
        return true;
    if (m_pid1 < 0 && !m_reaped) {
        // Still being set up: bwrap's child waits for the outer bwrap to release it, and killed
        // at that moment it would wait forever as an orphan. Let bwrap report its child first.
        awaitPid1(2000);
    }
    kill();
    if (m_cgroup)
        m_cgroup->kill();
    m_lifeline.reset();
    bool confirmed = true;
    if (m_pid1Fd.valid()) {
        pollfd p{m_pid1Fd.get(), POLLIN, 0};
        int r;
        while ((r = ::poll(&p, 1, timeoutMs)) < 0 && errno == EINTR) {
        }
        if (r != 1) {
            confirmed = false;
            if (detail)
                *detail = QStringLiteral("the sandbox's PID 1 (host pid %1) did not exit within %2 ms")
                              .arg(m_pid1).arg(timeoutMs);
        }
    } else if (m_pid1 < 0 && detail) {
        // Never learned PID 1: bwrap died before it forked the sandbox, so there is none.
    }
    reap(true);
    m_pid1Fd.reset();
    m_pidFd.reset();
    if (m_network)
        m_network->stop(); // returns once the helper is reaped
    m_network.reset();
    if (m_cgroup) {
        QString error;
        if (!m_cgroup->remove(2000, &error)) {
            confirmed = false;
            if (detail)
                *detail = QStringLiteral("its cgroup %1 could not be removed: %2").arg(m_cgroup->path(), error);
        }
        m_cgroup.reset();
    }
    return confirmed;
}

QString SandboxProcess::setupMessage() const
{
    QString text = QString::fromUtf8(m_heldErr.left(4096)).trimmed();
    if (!m_init.error.isEmpty())
        text = text.isEmpty() ? m_init.error : m_init.error + QStringLiteral("; ") + text;
    return text;
}

int SandboxProcess::pump(const OutputCallback& onOutput, ResultFrameParser& parser,
                         const std::function<void()>& tick, int tickMs)
{
    pumpLoop(onOutput, parser, tick, tickMs, nullptr);
    return m_waitStatus;
}

bool SandboxProcess::pumpUntilJobLine(const OutputCallback& onOutput, ResultFrameParser& parser, QByteArray* line)
{
    return pumpLoop(onOutput, parser, {}, 0, line);
}

bool SandboxProcess::pumpLoop(const OutputCallback& onOutput, ResultFrameParser& parser,
                              const std::function<void()>& tick, int tickMs, QByteArray* jobLine)
{
    // Until PID 1 says "exec", what arrives on stderr is bwrap's (a setup error), not the user's.
    auto flushHeld = [&] {
        if (!m_init.started || (m_heldOut.isEmpty() && m_heldErr.isEmpty()) || !onOutput)
            return;
        if (!m_heldOut.isEmpty())
            onOutput(OutputStream::Stdout, m_heldOut);
        if (!m_heldErr.isEmpty())
            onOutput(OutputStream::Stderr, m_heldErr);
        m_heldOut.clear();
        m_heldErr.clear();
    };
    auto deliver = [&](OutputStream stream, const char* d, qint64 n) {
        if (!m_init.started) {
            // Bounded in practice: PID 1 reports within microseconds of the exec.
            (stream == OutputStream::Stdout ? m_heldOut : m_heldErr).append(d, n);
            return;
        }
        flushHeld();
        if (onOutput)
            onOutput(stream, QByteArray(d, n));
    };
    auto out = [&](const char* d, qint64 n) { deliver(OutputStream::Stdout, d, n); };
    auto err = [&](const char* d, qint64 n) { deliver(OutputStream::Stderr, d, n); };
    QEventLoop loop;
    // Only pump() ends on "done": a session's interpreter goes on after each execution.
    const bool endOnDone = jobLine == nullptr;
    auto res = [&](const char* d, qint64 n) {
        parser.feed(d, n);
        // Only the program holds the result channel, so its first frame proves the exec even
        // when PID 1 has not said "exec" yet: a quick program can reach its "done" first, and
        // PID 1, killed then, never says it (its output was held, then lost).
        if (!m_init.started && parser.files().contains(QStringLiteral("started"))) {
            m_init.started = true;
            flushHeld();
        }
        if (endOnDone && !m_done && parser.files().contains(QStringLiteral("done"))) {
            m_done = parser.files().value(QStringLiteral("done"));
            loop.quit();
        }
    };

    QObject context; // receives the notifiers' signals in this thread
    std::vector<std::unique_ptr<QSocketNotifier>> notifiers;
    auto watch = [&](Fd& fd, std::function<void(const char*, qint64)> sink) {
        if (!fd.valid())
            return;
        auto notifier = std::make_unique<QSocketNotifier>(fd.get(), QSocketNotifier::Read);
        QSocketNotifier* raw = notifier.get();
        QObject::connect(raw, &QSocketNotifier::activated, &context, [this, &fd, raw, sink, &flushHeld] {
            if (readAll(fd, sink))
                raw->setEnabled(false);
            if (&fd == &m_status) {
                m_init.take(m_statusText);
                flushHeld();
            }
        });
        notifiers.push_back(std::move(notifier));
    };
    watch(m_out, out);
    watch(m_err, err);
    watch(m_result, res);
    watch(m_status, [this](const char* d, qint64 n) { m_statusText.append(d, n); });
    if (m_info.valid()) {
        auto notifier = std::make_unique<QSocketNotifier>(m_info.get(), QSocketNotifier::Read);
        QSocketNotifier* raw = notifier.get();
        QObject::connect(raw, &QSocketNotifier::activated, &context, [this, raw] {
            readInfo();
            if (!m_info.valid())
                raw->setEnabled(false);
        });
        notifiers.push_back(std::move(notifier));
    }
    bool gotLine = false;
    QByteArray jobText;
    if (jobLine && m_job.valid()) {
        auto notifier = std::make_unique<QSocketNotifier>(m_job.get(), QSocketNotifier::Read);
        QSocketNotifier* raw = notifier.get();
        QObject::connect(raw, &QSocketNotifier::activated, &context, [&, raw] {
            const bool eof = readAll(m_job, [&](const char* d, qint64 n) { jobText.append(d, n); });
            const qsizetype end = jobText.indexOf('\n');
            if (end >= 0) {
                *jobLine = jobText.left(end);
                gotLine = true;
                raw->setEnabled(false);
                loop.quit();
            } else if (eof) {
                raw->setEnabled(false);
            }
        });
        notifiers.push_back(std::move(notifier));
    }
    QSocketNotifier exitNotifier(m_pidFd.get(), QSocketNotifier::Read);
    QObject::connect(&exitNotifier, &QSocketNotifier::activated, &context, [&] {
        exitNotifier.setEnabled(false);
        loop.quit();
    });
    QTimer ticker;
    if (tick && tickMs > 0) {
        QObject::connect(&ticker, &QTimer::timeout, &context, [&] { tick(); });
        ticker.start(tickMs);
    }
    if (!hasExited() && !m_done)
        loop.exec();
    ticker.stop();
    for (auto& n : notifiers)
        n->setEnabled(false);
    exitNotifier.setEnabled(false);
    if (gotLine) {
        // The interpreter wrote everything of this execution before its "done": it is in the pipes.
        readStatus();
        flushHeld();
        readAll(m_out, out);
        readAll(m_err, err);
        readAll(m_result, res);
        return true;
    }
    if (m_done) {
        // Nothing of the sandbox may run on: killed now, its teardown confirmed later
        // (killAndConfirm). What the wrapper wrote before "done" is in the pipes already.
        kill();
        readStatus();
        flushHeld();
        readAll(m_out, out);
        readAll(m_err, err);
        readAll(m_result, res);
        return false;
    }
    reap(true);
    // The outer process exits after PID 1, and PID 1 after every process of the namespace: no
    // writer is left, so EOF comes at once.
    readStatus();
    flushHeld();
    readAll(m_out, out);
    readAll(m_err, err);
    readAll(m_result, res);
    readInfo();
    return false;
}

} // namespace sandpad::localsandbox
