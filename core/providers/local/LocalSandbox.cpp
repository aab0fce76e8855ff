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
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sandpad {

using namespace localsandbox;

namespace {

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
             // The uid change clears a parent-death signal; re-arm it until bwrap arms its own
             // (--die-with-parent), so an app that exits during start-up leaves no bwrap behind.
             << QStringLiteral("--pdeathsig=SIGKILL") << QStringLiteral("--");
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
    const pid_t parent = ::getpid();
    process.setChildProcessModifier([srcFds, parent] {
        // After fork, before exec: only async-signal-safe calls. Die with this thread from the
        // start (bwrap's own --die-with-parent is armed only later); if the app is already gone,
        // do not start at all.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(127);
        // Move the sources above the targets first so that no dup2 overwrites a source still needed.
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
    RunStopper stopper(control, [&] {
        if (process.state() != QProcess::NotRunning)
            process.kill();
    });

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
    stopper.start(timeoutMs);
    if (!finished)
        loop.exec();
    stopper.stop();
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
    takeResults(parser);

    if (stopper.stopped())
        return stopper.outcome();
    // No child-pid from bwrap: it never set the sandbox up.
    return endedOutcome(process.exitStatus() == QProcess::CrashExit, process.exitCode(), stderrHead,
                        childPid >= 0);
}

void LocalSandbox::takeResults(ResultFrameParser& parser)
{
    parser.finish();
    for (auto it = parser.files().begin(); it != parser.files().end(); ++it)
        m_results.insert(it.key(), it.value());
    m_truncated = parser.truncatedNames();
    m_resultError = parser.protocolError();
}

CommandOutcome LocalSandbox::endedOutcome(bool bwrapKilled, int code, const QByteArray& stderrHead,
                                          bool setUp)
{
    CommandOutcome outcome;
    if (bwrapKilled) {
        outcome.detail = QStringLiteral("bubblewrap was killed");
        return outcome;
    }
    if (!setUp || (code == 1 && (stderrHead.startsWith("bwrap:") || stderrHead.startsWith("setpriv:"))))
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

} // namespace sandpad
