#include "providers/local/LocalSandbox.h"

#include "providers/ProviderError.h"
#include "providers/RunControl.h"
#include "providers/local/ResultFrameParser.h"
#include "providers/local/SeccompFilter.h"

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

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

namespace sandpad {

namespace {

// Fixed fd numbers inside the sandbox (the result channel is part of the runtime protocol).
constexpr int kResultFd = 3;
constexpr int kSeccompFd = 4;
constexpr int kInfoFd = 5;
constexpr int kJobFd = 6;          // pre-started sandboxes: "ready" out, the manifest path in

// A warm start's limits until the job arrives (then lowered, see applyJobLimits): the imports
// must not be cut short, and a hard limit can only be lowered later, never raised.
constexpr qint64 kWarmCpuSeconds = 86400;
constexpr qint64 kWarmAsReserve = 2048LL * 1024 * 1024;

constexpr qint64 kMiB = 1024 * 1024;
constexpr qint64 kTmpBytes = 512 * kMiB;   // room for `pip install --target /tmp/sandpad-pip`
constexpr qint64 kHomeBytes = 64 * kMiB;
constexpr qint64 kShmBytes = 64 * kMiB;
constexpr qint64 kFileSizeBytes = 256 * kMiB; // largest single file (wheels' .so files fit)
constexpr int kMaxProcesses = 256;
constexpr int kMaxOpenFiles = 1024;

class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() { reset(); }
    int get() const { return m_fd; }
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

QString passwdText()
{
    return QStringLiteral("root:x:0:0:root:/root:/usr/sbin/nologin\n"
                          "sandbox:x:%1:%1:Sandpad sandbox:/home/sandbox:/bin/sh\n"
                          "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")
        .arg(LocalSandbox::kSandboxUid);
}

bool writeHostFile(const QString& path, const QByteArray& content, int mode)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    if (file.write(content) != content.size())
        return false;
    file.close();
    return ::chmod(QFile::encodeName(path).constData(), static_cast<mode_t>(mode)) == 0;
}

QString readLink(const QString& path)
{
    char buf[256];
    const ssize_t n = ::readlink(QFile::encodeName(path).constData(), buf, sizeof buf - 1);
    return n > 0 ? QString::fromLatin1(buf, n) : QString();
}

bool restrictToSandboxUserImpl(const QString& path)
{
    // Only the sandbox's user may enter (the snippet's code is private): under root that is
    // uid 65534 (root drops to it before bwrap), otherwise the user, mapped to 65534 inside.
    const QByteArray p = QFile::encodeName(path);
    if (::geteuid() == 0 &&
        ::chown(p.constData(), LocalSandbox::kSandboxUid, LocalSandbox::kSandboxUid) != 0)
        return false;
    return ::chmod(p.constData(), 0700) == 0;
}

// A zombie is already dead: it only waits for a (possibly slow) reaper outside the sandbox,
// e.g. the sandbox's PID 1 reparented to a container's init.
bool isZombie(const QString& procDir)
{
    QFile stat(procDir + QStringLiteral("/stat"));
    if (!stat.open(QIODevice::ReadOnly))
        return true; // gone meanwhile
    const QByteArray text = stat.read(512);
    const qsizetype paren = text.lastIndexOf(')');
    return paren < 0 || text.mid(paren + 2, 1) == "Z" || text.mid(paren + 2, 1) == "X";
}

bool isNodeProgram(const QString& program)
{
    return QFileInfo(program).fileName().startsWith(QLatin1String("node"));
}

} // namespace

LocalSandbox::LocalSandbox(const LocalSandboxConfig& config) : m_config(config)
{
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/sandpad-XXXXXX"));
    if (!m_dir->isValid())
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("Cannot create the sandbox folder in %1: %2")
                                .arg(QDir::tempPath(), m_dir->errorString()));
    m_id = QStringLiteral("local-") + QFileInfo(m_dir->path()).fileName().mid(8);
    const QString root = m_dir->path();
    bool ok = restrictToSandboxUserImpl(root);
    ok = ok && QDir(root).mkdir(QStringLiteral("work")) && QDir(root).mkdir(QStringLiteral("etc"));
    ok = ok && ::chmod(QFile::encodeName(root + QStringLiteral("/work")).constData(), 0755) == 0;
    ok = ok && ::chmod(QFile::encodeName(root + QStringLiteral("/etc")).constData(), 0755) == 0;
    ok = ok && writeHostFile(root + QStringLiteral("/etc/passwd"), passwdText().toUtf8(), 0644);
    ok = ok && writeHostFile(root + QStringLiteral("/etc/group"),
                             QStringLiteral("root:x:0:\nsandbox:x:%1:\n")
                                 .arg(kSandboxUid).toUtf8(), 0644);
    if (ok && !m_config.fontCacheFile.isEmpty() && QFileInfo::exists(m_config.fontCacheFile)) {
        // A private copy: the user's cache dir may not be reachable by uid 65534 (e.g. /root).
        const QString name = QFileInfo(m_config.fontCacheFile).fileName();
        ok = QDir(root).mkdir(QStringLiteral("mpl")) &&
             ::chmod(QFile::encodeName(root + QStringLiteral("/mpl")).constData(), 0755) == 0;
        QFile src(m_config.fontCacheFile);
        if (ok && src.open(QIODevice::ReadOnly) &&
            writeHostFile(root + QStringLiteral("/mpl/") + name, src.readAll(), 0644))
            m_fontTarget = QStringLiteral("/tmp/mpl/") + name;
    }
    if (!ok)
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("Cannot prepare the sandbox folder %1").arg(root));
}

bool LocalSandbox::restrictToSandboxUser(const QString& path)
{
    return restrictToSandboxUserImpl(path);
}

LocalSandbox::~LocalSandbox()
{
    destroy();
}

QString LocalSandbox::id() const { return m_id; }
QString LocalSandbox::workDir() const { return QStringLiteral("/sandpad"); }
QString LocalSandbox::hostWorkDir() const { return m_dir ? m_dir->path() + QStringLiteral("/work") : QString(); }

QString LocalSandbox::interpreter(Language language) const
{
    return language == Language::Python ? m_config.python : m_config.node;
}

QStringList LocalSandbox::pipArguments() const
{
    QStringList args{QStringLiteral("--disable-pip-version-check")};
    if (!m_config.options.pipWheelDir.isEmpty())
        args << QStringLiteral("--no-index") << QStringLiteral("--find-links")
             << QStringLiteral("/sandpad-wheels");
    else if (!m_config.options.pipIndexUrl.isEmpty())
        args << QStringLiteral("--index-url") << m_config.options.pipIndexUrl
             << QStringLiteral("--retries") << QStringLiteral("0") << QStringLiteral("--timeout")
             << QStringLiteral("10");
    else if (!m_config.options.allowNetwork)
        args << QStringLiteral("--no-index"); // fail fast and clearly instead of retrying a dead network
    else
        args << QStringLiteral("--retries") << QStringLiteral("1") << QStringLiteral("--timeout")
             << QStringLiteral("10");
    return args;
}

QString LocalSandbox::hostPathFor(const QString& sandboxPath) const
{
    const QString clean = QDir::cleanPath(sandboxPath);
    const QString base = workDir();
    if (!m_dir || (clean != base && !clean.startsWith(base + u'/')))
        return {};
    return hostWorkDir() + clean.mid(base.size());
}

void LocalSandbox::writeFiles(const QList<SandboxFile>& files)
{
    for (const SandboxFile& file : files) {
        const QString host = hostPathFor(file.path);
        if (host.isEmpty() || host == hostWorkDir())
            throw ProviderError(ProviderError::Kind::Io,
                                QStringLiteral("Cannot place %1: only paths under %2 are writable")
                                    .arg(file.path, workDir()));
        const QString dir = QFileInfo(host).absolutePath();
        if (!QDir().mkpath(dir))
            throw ProviderError(ProviderError::Kind::Io, QStringLiteral("Cannot create %1").arg(dir));
        // Parents made here must be readable by the sandbox user too.
        for (QString d = dir; d.size() > hostWorkDir().size(); d = QFileInfo(d).absolutePath())
            ::chmod(QFile::encodeName(d).constData(), 0755);
        if (!writeHostFile(host, file.content, file.mode & 0777))
            throw ProviderError(ProviderError::Kind::Io, QStringLiteral("Cannot write %1").arg(host));
    }
}

QStringList LocalSandbox::bwrapArguments(const SandboxCommand& command) const
{
    const SandboxOptions& opt = m_config.options;
    const QString root = m_dir->path();
    QStringList a;
    a << QStringLiteral("--unshare-all");
    if (opt.allowNetwork)
        a << QStringLiteral("--share-net");
    // A user namespace always (also under root, after setpriv), no nested ones inside.
    a << QStringLiteral("--unshare-user") << QStringLiteral("--disable-userns")
      << QStringLiteral("--uid") << QString::number(kSandboxUid)
      << QStringLiteral("--gid") << QString::number(kSandboxUid)
      << QStringLiteral("--hostname") << QStringLiteral("sandbox")
      << QStringLiteral("--die-with-parent") << QStringLiteral("--new-session")
      << QStringLiteral("--cap-drop") << QStringLiteral("ALL");

    // Environment: nothing from the host.
    QMap<QString, QString> env{
        {QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin")},
        {QStringLiteral("HOME"), QStringLiteral("/home/sandbox")},
        {QStringLiteral("USER"), QStringLiteral("sandbox")},
        {QStringLiteral("LANG"), QStringLiteral("C.UTF-8")},
        {QStringLiteral("MPLBACKEND"), QStringLiteral("Agg")},
        {QStringLiteral("MPLCONFIGDIR"), QStringLiteral("/tmp/mpl")},
        {QStringLiteral("OPENBLAS_NUM_THREADS"), QStringLiteral("1")},
        {QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1")},
        {QStringLiteral("PYTHONDONTWRITEBYTECODE"), QStringLiteral("1")},
        {QStringLiteral("TMPDIR"), QStringLiteral("/tmp")},
    };
    for (auto it = command.env.begin(); it != command.env.end(); ++it)
        env.insert(it.key(), it.value());
    const QString program = command.argv.value(0);
    if (isNodeProgram(program)) {
        // Node reserves far more address space than it uses: cap its heap instead of RLIMIT_AS.
        const QString heap = QStringLiteral("--max-old-space-size=%1").arg(qMax<qint64>(64, opt.memoryLimitMb));
        const QString old = env.value(QStringLiteral("NODE_OPTIONS"));
        env.insert(QStringLiteral("NODE_OPTIONS"), old.isEmpty() ? heap : old + u' ' + heap);
    }
    env.insert(QStringLiteral("SANDPAD_RESULT_FD"), QString::number(kResultFd));
    a << QStringLiteral("--clearenv");
    for (auto it = env.begin(); it != env.end(); ++it)
        a << QStringLiteral("--setenv") << it.key() << it.value();

    // A read-only system.
    a << QStringLiteral("--ro-bind") << QStringLiteral("/usr") << QStringLiteral("/usr");
    for (const char* top : {"/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"}) {
        const QString path = QLatin1String(top);
        const QFileInfo info(path);
        if (info.isSymLink())
            a << QStringLiteral("--symlink") << readLink(path) << path;
        else if (info.isDir())
            a << QStringLiteral("--ro-bind") << path << path;
    }
    for (const char* etc : {"/etc/ld.so.cache", "/etc/alternatives", "/etc/matplotlibrc",
                            "/etc/fonts", "/etc/localtime", "/etc/mime.types"})
        a << QStringLiteral("--ro-bind-try") << QLatin1String(etc) << QLatin1String(etc);
    a << QStringLiteral("--ro-bind") << root + QStringLiteral("/etc/passwd") << QStringLiteral("/etc/passwd")
      << QStringLiteral("--ro-bind") << root + QStringLiteral("/etc/group") << QStringLiteral("/etc/group");
    if (opt.allowNetwork) {
        for (const char* etc : {"/etc/ssl", "/etc/ca-certificates", "/etc/resolv.conf", "/etc/hosts",
                                "/etc/nsswitch.conf", "/etc/gai.conf", "/etc/host.conf"})
            a << QStringLiteral("--ro-bind-try") << QLatin1String(etc) << QLatin1String(etc);
    }
    // A node installed outside /usr (e.g. /opt/node/bin/node): bind its prefix read-only.
    if (!m_config.node.isEmpty() && !m_config.node.startsWith(QLatin1String("/usr/"))) {
        const QString prefix = QFileInfo(QFileInfo(m_config.node).absolutePath()).absolutePath();
        if (prefix.size() > 1)
            a << QStringLiteral("--ro-bind-try") << prefix << prefix;
    }
    a << QStringLiteral("--ro-bind") << root + QStringLiteral("/work") << workDir();
    if (!opt.pipWheelDir.isEmpty())
        a << QStringLiteral("--ro-bind") << opt.pipWheelDir << QStringLiteral("/sandpad-wheels");

    a << QStringLiteral("--proc") << QStringLiteral("/proc") << QStringLiteral("--dev") << QStringLiteral("/dev");
    // Sized tmpfs mounts: unsized ones would be half the machine's RAM.
    a << QStringLiteral("--size") << QString::number(kTmpBytes) << QStringLiteral("--tmpfs") << QStringLiteral("/tmp")
      << QStringLiteral("--size") << QString::number(kHomeBytes) << QStringLiteral("--tmpfs") << QStringLiteral("/home/sandbox")
      << QStringLiteral("--size") << QString::number(kShmBytes) << QStringLiteral("--tmpfs") << QStringLiteral("/dev/shm");
    if (!m_fontTarget.isEmpty())
        a << QStringLiteral("--ro-bind") << root + QStringLiteral("/mpl/") + QFileInfo(m_fontTarget).fileName()
          << m_fontTarget;
    for (const auto& bind : m_config.writableBinds)
        a << QStringLiteral("--bind") << bind.first << bind.second;
    a << QStringLiteral("--remount-ro") << QStringLiteral("/dev")
      << QStringLiteral("--remount-ro") << QStringLiteral("/");
    a << QStringLiteral("--chdir") << (command.cwd.isEmpty() ? QStringLiteral("/tmp") : command.cwd);
    if (!SeccompFilter::bpf().isEmpty())
        a << QStringLiteral("--seccomp") << QString::number(kSeccompFd);
    a << QStringLiteral("--info-fd") << QString::number(kInfoFd);

    // Limits are set inside: RLIMIT_NPROC set outside would count all of the host user's
    // processes (and root ignores it).
    const qint64 timeoutMs = command.timeoutMs > 0 ? command.timeoutMs : opt.deadlineSeconds * 1000LL;
    const qint64 cpuSoft = (timeoutMs + 999) / 1000 * qMax(1, QThread::idealThreadCount()) + 1;
    a << QStringLiteral("--") << QStringLiteral("/usr/bin/prlimit")
      << QStringLiteral("--nproc=%1").arg(kMaxProcesses)
      << QStringLiteral("--fsize=%1").arg(kFileSizeBytes)
      << QStringLiteral("--nofile=%1").arg(kMaxOpenFiles)
      << QStringLiteral("--core=0");
    if (m_prestarting) // lowered to the job's own limits when it arrives (applyJobLimits)
        a << QStringLiteral("--cpu=%1:%1").arg(kWarmCpuSeconds);
    else
        a << QStringLiteral("--cpu=%1:%2").arg(cpuSoft).arg(cpuSoft + 5);
    if (!isNodeProgram(program) && opt.memoryLimitMb > 0)
        a << QStringLiteral("--as=%1").arg(opt.memoryLimitMb * kMiB + (m_prestarting ? kWarmAsReserve : 0));
    a << QStringLiteral("--") << command.argv;
    return a;
}

QStringList LocalSandbox::commandLine(const SandboxCommand& command) const
{
    QStringList line;
    if (::geteuid() == 0)
        line << m_config.setpriv << QStringLiteral("--reuid=%1").arg(kSandboxUid)
             << QStringLiteral("--regid=%1").arg(kSandboxUid) << QStringLiteral("--clear-groups")
             << QStringLiteral("--inh-caps=-all") << QStringLiteral("--bounding-set=-all")
             << QStringLiteral("--");
    line << m_config.bwrap << bwrapArguments(command);
    return line;
}

CommandOutcome LocalSandbox::run(const SandboxCommand& command, const OutputCallback& onOutput,
                                 RunControl& control)
{
    CommandOutcome outcome;
    if (m_destroyed)
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The sandbox was destroyed"));
    if (command.argv.isEmpty())
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("Empty command"));
    if (control.isCancelled()) {
        outcome.cancelled = true;
        outcome.detail = QStringLiteral("cancelled before start");
        return outcome;
    }
    if (::geteuid() == 0 && m_config.setpriv.isEmpty())
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("Running as root needs setpriv (util-linux) to drop to an "
                                           "unprivileged user before bubblewrap"));
    if (m_warm.pid > 0) {
        if (!m_warm.reaped && warmCompatible(command))
            return runWarm(command, onOutput, control);
        readWarmInfo();
        killWarm(); // not the command it was started for: run it cold, in this same sandbox
    }

    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("pipe2 failed"));
    Fd resultRead(fds[0]), resultWrite(fds[1]);
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("pipe2 failed"));
    Fd infoRead(fds[0]), infoWrite(fds[1]);
    ::fcntl(resultRead.get(), F_SETFL, O_NONBLOCK);
    ::fcntl(infoRead.get(), F_SETFL, O_NONBLOCK);

    // bwrap reads the filter from an fd; a memfd holds the cached bytes for this one start.
    Fd seccompFd;
    const QByteArray bpf = SeccompFilter::bpf();
    if (!bpf.isEmpty()) {
        seccompFd.reset(::memfd_create("sandpad-seccomp", MFD_CLOEXEC));
        if (seccompFd.get() < 0 ||
            ::write(seccompFd.get(), bpf.constData(), bpf.size()) != bpf.size() ||
            ::lseek(seccompFd.get(), 0, SEEK_SET) != 0)
            throw ProviderError(ProviderError::Kind::Io, QStringLiteral("Cannot pass the seccomp filter"));
    } else {
        seccompFd.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC)); // keeps fd 4 defined
    }

    const QStringList line = commandLine(command);
    QProcess process;
    process.setProgram(line.first());
    process.setArguments(line.mid(1));
    process.setStandardInputFile(QProcess::nullDevice());
    const int srcFds[3] = {resultWrite.get(), seccompFd.get(), infoWrite.get()};
    process.setChildProcessModifier([srcFds] {
        // After fork, before exec: only async-signal-safe calls. Move the sources above the
        // targets first so that no dup2 overwrites a source still needed.
        int tmp[3];
        for (int i = 0; i < 3; ++i)
            tmp[i] = ::fcntl(srcFds[i], F_DUPFD_CLOEXEC, 10);
        for (int i = 0; i < 3; ++i)
            ::dup2(tmp[i], kResultFd + i); // the new fd has no close-on-exec
        // Nothing else of the app leaks into the sandbox (Qt's own pipes are already cloexec).
        ::syscall(SYS_close_range, 6U, ~0U, CLOSE_RANGE_CLOEXEC);
    });

    ResultFrameParser parser(kMaxResultBytes);
    QByteArray info;
    int childPid = -1;
    QByteArray stderrHead; // to explain a bwrap setup failure
    bool timedOut = false;
    bool cancelled = false;
    bool finished = false;

    QEventLoop loop;
    QObject context; // receives queued cancel requests in this thread
    auto readResults = [&] {
        char buf[65536];
        for (;;) {
            const ssize_t n = ::read(resultRead.get(), buf, sizeof buf);
            if (n > 0) {
                parser.feed(buf, n);
                continue;
            }
            return n == 0; // true at EOF
        }
    };
    auto readInfo = [&] {
        char buf[512];
        ssize_t n;
        while ((n = ::read(infoRead.get(), buf, sizeof buf)) > 0)
            info.append(buf, n);
        if (childPid < 0) {
            static const QRegularExpression re(QStringLiteral("\"child-pid\"\\s*:\\s*(\\d+)"));
            const auto m = re.match(QString::fromUtf8(info));
            if (m.hasMatch()) {
                childPid = m.captured(1).toInt();
                // Hold the namespace open: destroy() scans /proc for it, and a held namespace's
                // inode cannot be reused by another sandbox meanwhile.
                const QByteArray ns = QByteArray("/proc/") + QByteArray::number(childPid) + "/ns/pid";
                const int fd = ::open(ns.constData(), O_RDONLY | O_CLOEXEC);
                if (fd >= 0)
                    m_namespaceFds.append(fd);
                // And a pidfd on the namespace's PID 1: its exit proves the namespace empty, so
                // destroy() need not scan /proc (a scan costs ~25 ms per run).
                if (m_warm.pid1Fd < 0)
                    m_warm.pid1Fd = static_cast<int>(::syscall(SYS_pidfd_open, childPid, 0));
            }
        }
        return n == 0;
    };

    QSocketNotifier resultNotifier(resultRead.get(), QSocketNotifier::Read);
    QObject::connect(&resultNotifier, &QSocketNotifier::activated, &context, [&] {
        if (readResults())
            resultNotifier.setEnabled(false);
    });
    QSocketNotifier infoNotifier(infoRead.get(), QSocketNotifier::Read);
    QObject::connect(&infoNotifier, &QSocketNotifier::activated, &context, [&] {
        if (readInfo())
            infoNotifier.setEnabled(false);
    });
    QObject::connect(&process, &QProcess::readyReadStandardOutput, &context, [&] {
        const QByteArray chunk = process.readAllStandardOutput();
        if (!chunk.isEmpty() && onOutput)
            onOutput(OutputStream::Stdout, chunk);
    });
    QObject::connect(&process, &QProcess::readyReadStandardError, &context, [&] {
        const QByteArray chunk = process.readAllStandardError();
        if (stderrHead.size() < 4096)
            stderrHead.append(chunk.left(4096 - stderrHead.size()));
        if (!chunk.isEmpty() && onOutput)
            onOutput(OutputStream::Stderr, chunk);
    });
    QObject::connect(&process, &QProcess::finished, &context, [&] {
        finished = true;
        loop.quit();
    });
    QObject::connect(&process, &QProcess::errorOccurred, &context, [&](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            loop.quit();
    });
    // Killing bwrap is enough: --die-with-parent takes down the sandbox's PID 1, and with it the
    // whole PID namespace (double-forked daemons included).
    auto killAll = [&] {
        if (process.state() != QProcess::NotRunning)
            process.kill();
    };
    QTimer deadline;
    deadline.setSingleShot(true);
    deadline.setTimerType(Qt::PreciseTimer);
    QObject::connect(&deadline, &QTimer::timeout, &context, [&] {
        timedOut = true;
        killAll();
    });
    QObject::connect(&control, &RunControl::cancelRequested, &context, [&] {
        cancelled = true;
        killAll();
    }, Qt::QueuedConnection);

    process.start();
    // The child has its own copies now; ours must go so that EOF arrives.
    resultWrite.reset();
    infoWrite.reset();
    seccompFd.reset();
    if (!process.waitForStarted(10000)) {
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("Cannot start %1: %2").arg(line.first(), process.errorString()));
    }
    const qint64 timeoutMs = command.timeoutMs > 0 ? command.timeoutMs
                                                   : m_config.options.deadlineSeconds * 1000LL;
    deadline.start(static_cast<int>(qMin<qint64>(timeoutMs, INT_MAX)));
    if (control.isCancelled()) { // cancelled between the check above and the connection
        cancelled = true;
        killAll();
    }
    if (!finished)
        loop.exec();
    deadline.stop();
    if (!finished && !process.waitForFinished(5000)) {
        process.kill();
        process.waitForFinished(2000);
    }
    // Whatever is still buffered.
    if (const QByteArray rest = process.readAllStandardOutput(); !rest.isEmpty() && onOutput)
        onOutput(OutputStream::Stdout, rest);
    if (const QByteArray rest = process.readAllStandardError(); !rest.isEmpty()) {
        if (stderrHead.size() < 4096)
            stderrHead.append(rest.left(4096 - stderrHead.size()));
        if (onOutput)
            onOutput(OutputStream::Stderr, rest);
    }
    resultNotifier.setEnabled(false);
    infoNotifier.setEnabled(false);
    readInfo();
    // The sandbox is gone, but an orphan may still hold the pipe for a moment: wait for EOF
    // briefly, never forever.
    QElapsedTimer drain;
    drain.start();
    while (!readResults() && drain.elapsed() < 1000) {
        pollfd p{resultRead.get(), POLLIN, 0};
        ::poll(&p, 1, 50);
    }
    parser.finish();
    for (auto it = parser.files().begin(); it != parser.files().end(); ++it)
        m_results.insert(it.key(), it.value());
    m_truncated = parser.truncatedNames();
    m_resultError = parser.protocolError();

    if (timedOut || cancelled) {
        outcome.timedOut = timedOut && !cancelled;
        outcome.cancelled = cancelled;
        outcome.detail = outcome.cancelled ? QStringLiteral("cancelled; sandbox killed")
                                           : QStringLiteral("deadline of %1 ms reached; sandbox killed").arg(timeoutMs);
        return outcome;
    }
    if (process.exitStatus() == QProcess::CrashExit) {
        outcome.detail = QStringLiteral("bubblewrap was killed");
        return outcome;
    }
    const int code = process.exitCode();
    if (childPid < 0 || (code == 1 && (stderrHead.startsWith("bwrap:") || stderrHead.startsWith("setpriv:"))))
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("The sandbox could not be set up: %1")
                                .arg(QString::fromUtf8(stderrHead).trimmed()));
    outcome.exitCode = code;
    if (code > 128 && code < 128 + 65)
        outcome.detail = QStringLiteral("killed by signal %1").arg(code - 128);
    return outcome;
}

std::optional<QByteArray> LocalSandbox::readFile(const QString& path)
{
    const QString clean = QDir::cleanPath(path);
    const QString outPrefix = workDir() + QStringLiteral("/out/");
    if (clean.startsWith(outPrefix)) {
        const auto it = m_results.constFind(clean.mid(outPrefix.size()));
        if (it != m_results.constEnd())
            return *it;
    }
    const QString host = hostPathFor(clean);
    if (host.isEmpty())
        return std::nullopt;
    const QString canonical = QFileInfo(host).canonicalFilePath();
    const QString base = QFileInfo(hostWorkDir()).canonicalFilePath();
    if (canonical.isEmpty() || !canonical.startsWith(base + u'/'))
        return std::nullopt;
    QFile file(canonical);
    if (!QFileInfo(canonical).isFile() || !file.open(QIODevice::ReadOnly))
        return std::nullopt;
    return file.readAll();
}

CleanupReport LocalSandbox::destroy()
{
    if (m_destroyed)
        return m_cleanup;
    m_destroyed = true;
    QStringList problems;
    try {
        if (m_warm.pid > 0) { // a pre-started process never used, or left after its run
            readWarmInfo();
            killWarm();
        }
        // run() is synchronous, so bwrap is already reaped; what is left to prove is that no
        // process of any of this sandbox's PID namespaces survives.
        QList<QString> links;
        for (int fd : std::as_const(m_namespaceFds)) {
            struct stat st {};
            if (::fstat(fd, &st) == 0)
                links << QStringLiteral("pid:[%1]").arg(quint64(st.st_ino));
        }
        QElapsedTimer timer;
        timer.start();
        int survivors = 0;
        if (m_warm.pid1Fd >= 0 && m_namespaceFds.size() == 1) {
            // The kernel lets a namespace's PID 1 exit only after all its other processes are
            // gone (zap_pid_ns_processes): its exit proves the namespace empty, without a scan.
            pollfd p{m_warm.pid1Fd, POLLIN, 0};
            if (::poll(&p, 1, 10000) == 1)
                links.clear();
        }
        if (m_warm.pid1Fd >= 0)
            ::close(m_warm.pid1Fd);
        m_warm.pid1Fd = -1;
        while (!links.isEmpty()) {
            survivors = 0;
            QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
            while (it.hasNext()) {
                const QString dir = it.next();
                bool numeric = false;
                QFileInfo(dir).fileName().toInt(&numeric);
                if (numeric && links.contains(readLink(dir + QStringLiteral("/ns/pid"))) &&
                    !isZombie(dir))
                    ++survivors;
            }
            if (survivors == 0 || timer.elapsed() > 10000) // 256 processes dying on a loaded machine
                break;
            QThread::msleep(20); // the kernel is still tearing the namespace down
        }
        if (survivors > 0)
            problems << QStringLiteral("%1 sandbox process(es) still alive").arg(survivors);
        for (int fd : std::as_const(m_namespaceFds))
            ::close(fd);
        m_namespaceFds.clear();

        if (m_dir) {
            const QString path = m_dir->path();
            m_dir->remove();
            m_dir.reset();
            if (QFileInfo::exists(path))
                problems << QStringLiteral("temp folder %1 could not be removed").arg(path);
        }
    } catch (const std::exception& e) {
        problems << QString::fromUtf8(e.what());
    } catch (...) {
        problems << QStringLiteral("unexpected error during cleanup");
    }
    m_results.clear();
    m_cleanup.confirmed = problems.isEmpty();
    m_cleanup.detail = problems.join(QStringLiteral("; "));
    return m_cleanup;
}

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
        ::kill(m_warm.pid, SIGKILL); // --die-with-parent takes the whole PID namespace with it
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
    CommandOutcome outcome;
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
    bool timedOut = false;
    bool cancelled = false;
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
    QTimer deadline;
    deadline.setSingleShot(true);
    deadline.setTimerType(Qt::PreciseTimer);
    QObject::connect(&deadline, &QTimer::timeout, &context, [&] {
        timedOut = true;
        killAll();
    });
    QObject::connect(&control, &RunControl::cancelRequested, &context, [&] {
        cancelled = true;
        killAll();
    }, Qt::QueuedConnection);

    // The job: one line with the manifest path. The deadline counts from here.
    const QByteArray job = QFile::encodeName(command.argv[2]) + limits + '\n';
    const bool sent = ::send(m_warm.jobFd, job.constData(), job.size(), MSG_NOSIGNAL) == job.size();
    ::close(m_warm.jobFd);
    m_warm.jobFd = -1;
    deadline.start(static_cast<int>(qMin<qint64>(timeoutMs, INT_MAX)));
    if (control.isCancelled()) {
        cancelled = true;
        killAll();
    }
    if (!sent)
        killAll();
    if (!m_warm.reaped)
        loop.exec();
    deadline.stop();
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
    parser.finish();
    for (auto it = parser.files().begin(); it != parser.files().end(); ++it)
        m_results.insert(it.key(), it.value());
    m_truncated = parser.truncatedNames();
    m_resultError = parser.protocolError();
    closeWarmFds();

    if (!sent && !timedOut && !cancelled)
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The pre-started sandbox did not take the job"));
    if (timedOut || cancelled) {
        outcome.timedOut = timedOut && !cancelled;
        outcome.cancelled = cancelled;
        outcome.detail = outcome.cancelled ? QStringLiteral("cancelled; sandbox killed")
                                           : QStringLiteral("deadline of %1 ms reached; sandbox killed").arg(timeoutMs);
        return outcome;
    }
    if (!WIFEXITED(m_warm.status)) {
        outcome.detail = QStringLiteral("bubblewrap was killed");
        return outcome;
    }
    const int code = WEXITSTATUS(m_warm.status);
    if (code == 1 && (stderrHead.startsWith("bwrap:") || stderrHead.startsWith("setpriv:")))
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("The sandbox could not be set up: %1")
                                .arg(QString::fromUtf8(stderrHead).trimmed()));
    outcome.exitCode = code;
    if (code > 128 && code < 128 + 65)
        outcome.detail = QStringLiteral("killed by signal %1").arg(code - 128);
    return outcome;
}

} // namespace sandpad
