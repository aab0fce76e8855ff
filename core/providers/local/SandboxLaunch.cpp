#include "core/providers/local/SandboxLaunch.h"

#include "core/providers/local/LocalSandbox.h"
#include "core/providers/local/LocalSandboxInternals.h"
#include "core/providers/local/SeccompFilter.h"
#include "core/providers/local/UserNetwork.h"
#include "core/runtime/RuntimeProgram.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QThread>

#include <unistd.h>

namespace sandpad::localsandbox {

namespace {

QString readLink(const QString& path)
{
    char buf[256];
    const ssize_t n = ::readlink(QFile::encodeName(path).constData(), buf, sizeof buf - 1);
    return n > 0 ? QString::fromLatin1(buf, n) : QString();
}

// Adds one --file op: bwrap copies fd kFirstDataFd + i into `path` (parents made 0755).
void addFile(SandboxLaunch& launch, QStringList& a, const QString& path, const QByteArray& content, int mode)
{
    a << QStringLiteral("--perms") << QString::number(mode & 07777, 8).rightJustified(4, u'0')
      << QStringLiteral("--file") << QString::number(kFirstDataFd + launch.data.size()) << path;
    launch.data.append(content);
}

} // namespace

QList<QByteArray> SandboxLaunch::hostEnvironment()
{
    // setpriv and bwrap need no environment; bwrap's own PID 1 would keep it, ours never sees it
    // (bwrap --clearenv, then the sandbox's variables), but nothing of the app's goes in anyway.
    return {QByteArrayLiteral("PATH=/usr/sbin:/usr/bin:/sbin:/bin")};
}

QByteArray SandboxLaunch::passwdText()
{
    return QStringLiteral("root:x:0:0:root:/root:/usr/sbin/nologin\n"
                          "sandbox:x:%1:%1:Sandpad sandbox:/home/sandbox:/bin/sh\n"
                          "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")
        .arg(LocalSandbox::kSandboxUid)
        .toUtf8();
}

QByteArray SandboxLaunch::groupText()
{
    return QStringLiteral("root:x:0:\nsandbox:x:%1:\n").arg(LocalSandbox::kSandboxUid).toUtf8();
}

namespace {
QByteArray& replacedInit()
{
    static QByteArray program;
    return program;
}
} // namespace

void SandboxLaunch::replaceInitProgram(const QByteArray& program) { replacedInit() = program; }

QByteArray SandboxLaunch::initProgram()
{
    if (!replacedInit().isEmpty())
        return replacedInit();
    static const QByteArray bytes = [] {
        RuntimeProgram::wrapperSource(Language::Python); // registers the runtime resources
        QFile file(QStringLiteral(":/sandpad/runtime/sandpad-init"));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }();
    return bytes;
}

SandboxLaunch SandboxLaunch::build(const LocalSandboxConfig& config, const SandboxCommand& command,
                                   const QList<SandboxFile>& files, Mode mode, bool go)
{
    const SandboxOptions& opt = config.options;
    SandboxLaunch launch;
    QStringList& a = launch.argv;
    if (::geteuid() == 0)
        a << config.setpriv << QStringLiteral("--reuid=%1").arg(LocalSandbox::kSandboxUid)
          << QStringLiteral("--regid=%1").arg(LocalSandbox::kSandboxUid) << QStringLiteral("--clear-groups")
          << QStringLiteral("--inh-caps=-all") << QStringLiteral("--bounding-set=-all") << QStringLiteral("--");
    a << config.bwrap;

    // Every namespace, the network's too (with the network allowed, user-mode networking is
    // attached to it from outside: never the host's namespace with its loopback services).
    a << QStringLiteral("--unshare-all");
    // A user namespace always (also under root, after setpriv), no nested ones inside.
    a << QStringLiteral("--unshare-user") << QStringLiteral("--disable-userns")
      << QStringLiteral("--uid") << QString::number(LocalSandbox::kSandboxUid)
      << QStringLiteral("--gid") << QString::number(LocalSandbox::kSandboxUid)
      << QStringLiteral("--hostname") << QStringLiteral("sandbox")
      // No --die-with-parent: the sandbox's lifetime is PID 1's lifeline, which ends with the app
      // at any moment. A parent-death signal would kill bwrap midway through its set-up if the
      // app died then, and leave its half-made child waiting forever.
      << QStringLiteral("--new-session")
      << QStringLiteral("--cap-drop") << QStringLiteral("ALL")
      // PID 1 is sandpad-init (non-dumpable, holds nothing), not bwrap's own reaper.
      << QStringLiteral("--as-pid-1");

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
        // Node reserves far more address space than it uses: cap its heap instead of RLIMIT_AS
        // (the sandbox-wide memory limit counts everything else).
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
    if (opt.allowNetwork) {
        for (const char* etc : {"/etc/ssl", "/etc/ca-certificates", "/etc/nsswitch.conf",
                                "/etc/gai.conf", "/etc/host.conf"})
            a << QStringLiteral("--ro-bind-try") << QLatin1String(etc) << QLatin1String(etc);
    }
    // A node installed outside /usr (e.g. /opt/node/bin/node): bind its prefix read-only.
    if (!config.node.isEmpty() && !config.node.startsWith(QLatin1String("/usr/"))) {
        const QString prefix = QFileInfo(QFileInfo(config.node).absolutePath()).absolutePath();
        if (prefix.size() > 1)
            a << QStringLiteral("--ro-bind-try") << prefix << prefix;
    }
    if (!opt.pipWheelDir.isEmpty())
        a << QStringLiteral("--ro-bind") << opt.pipWheelDir << QStringLiteral("/sandpad-wheels");

    a << QStringLiteral("--proc") << QStringLiteral("/proc") << QStringLiteral("--dev") << QStringLiteral("/dev");
    // Sized tmpfs mounts: unsized ones would be half the machine's RAM. Their bytes count toward
    // the sandbox's memory limit.
    a << QStringLiteral("--size") << QString::number(kTmpBytes) << QStringLiteral("--tmpfs") << QStringLiteral("/tmp")
      << QStringLiteral("--size") << QString::number(kHomeBytes) << QStringLiteral("--tmpfs") << QStringLiteral("/home/sandbox")
      << QStringLiteral("--size") << QString::number(kShmBytes) << QStringLiteral("--tmpfs") << QStringLiteral("/dev/shm")
      << QStringLiteral("--size") << QString::number(kWorkBytes) << QStringLiteral("--perms") << QStringLiteral("0755")
      << QStringLiteral("--tmpfs") << QStringLiteral("/sandpad");

    // Copied in from descriptors: no host path is bound, so none shows in /proc/self/mountinfo.
    addFile(launch, a, initPath(), initProgram(), 0555);
    addFile(launch, a, QStringLiteral("/etc/passwd"), passwdText(), 0644);
    addFile(launch, a, QStringLiteral("/etc/group"), groupText(), 0644);
    if (opt.allowNetwork) {
        addFile(launch, a, QStringLiteral("/etc/resolv.conf"), config.resolvConf, 0644);
        addFile(launch, a, QStringLiteral("/etc/hosts"), UserNetwork::hosts(QStringLiteral("sandbox")), 0644);
    }
    if (!config.fontCacheName.isEmpty() && !config.fontCache.isEmpty())
        addFile(launch, a, QStringLiteral("/tmp/mpl/") + config.fontCacheName, config.fontCache, 0644);
    for (const SandboxFile& file : files)
        addFile(launch, a, file.path, file.content, file.mode);

    a << QStringLiteral("--remount-ro") << QStringLiteral("/dev")
      << QStringLiteral("--remount-ro") << QStringLiteral("/");
    a << QStringLiteral("--chdir") << (command.cwd.isEmpty() ? QStringLiteral("/tmp") : command.cwd);
    if (!SeccompFilter::bpf().isEmpty())
        a << QStringLiteral("--seccomp") << QString::number(kSeccompFd);
    a << QStringLiteral("--info-fd") << QString::number(kInfoFd);

    // PID 1 and the program's limits. RLIMIT_NPROC is counted per user namespace (Linux >= 5.14),
    // so it is one budget per sandbox, not shared with the host user or other sandboxes.
    const qint64 timeoutMs = command.timeoutMs > 0 ? command.timeoutMs : opt.deadlineSeconds * 1000LL;
    const qint64 cpuSoft = (timeoutMs + 999) / 1000 * qMax(1, QThread::idealThreadCount()) + 1;
    a << QStringLiteral("--") << initPath() << QStringLiteral("--status-fd") << QString::number(kStatusFd)
      << QStringLiteral("--close-from") << QString::number(kFirstDataFd); // bwrap's leftovers
    a << QStringLiteral("--lifeline-fd") << QString::number(kLifelineFd);
    if (go)
        a << QStringLiteral("--wait");
    auto limit = [&a](const char* name, const QString& value) {
        a << QStringLiteral("--rlimit") << QLatin1String(name) + u'=' + value;
    };
    limit("nproc", QString::number(kMaxProcesses));
    limit("fsize", QString::number(kFileSizeBytes));
    limit("nofile", QString::number(kMaxOpenFiles));
    limit("core", QStringLiteral("0"));
    if (mode == Mode::Warm) // lowered to the job's own limits when it arrives (applyJobLimits)
        limit("cpu", QString::number(kWarmCpuSeconds));
    else
        limit("cpu", QStringLiteral("%1:%2").arg(cpuSoft).arg(cpuSoft + 5));
    if (!isNodeProgram(program) && opt.memoryLimitMb > 0)
        limit("as", QString::number(opt.memoryLimitMb * kMiB + (mode == Mode::Warm ? kWarmAsReserve : 0)));
    a << QStringLiteral("--") << command.argv;
    return launch;
}

} // namespace sandpad::localsandbox
