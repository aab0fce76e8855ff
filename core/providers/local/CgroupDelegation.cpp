#include "core/providers/local/CgroupDelegation.h"

#include "core/providers/local/MemoryWatchdog.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace sandpad::localsandbox {

namespace {

QString errnoText() { return QString::fromLocal8Bit(std::strerror(errno)); }

QByteArray readText(const QString& path, bool* ok = nullptr)
{
    QFile f(path);
    const bool opened = f.open(QIODevice::ReadOnly);
    if (ok)
        *ok = opened;
    return opened ? f.readAll() : QByteArray();
}

// One write(2), as the kernel wants for control files ("+memory +pids", a pid, "1").
bool writeText(const QString& path, const QByteArray& value, QString* error)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    bool ok = fd >= 0 && ::write(fd, value.constData(), size_t(value.size())) == value.size();
    const int e = errno;
    if (fd >= 0)
        ::close(fd);
    if (!ok && error)
        *error = QStringLiteral("cannot write %1 to %2: %3").arg(QString::fromUtf8(value.trimmed()), path,
                                                                  QString::fromLocal8Bit(std::strerror(e)));
    errno = e;
    return ok;
}

// "key value" lines (memory.events, pids.events, cgroup.events).
qint64 keyed(const QString& path, const QByteArray& key)
{
    bool ok = false;
    const QByteArray text = readText(path, &ok);
    if (!ok)
        return -1;
    for (const QByteArray& line : text.split('\n')) {
        const QList<QByteArray> kv = line.simplified().split(' ');
        if (kv.size() == 2 && kv[0] == key)
            return kv[1].toLongLong();
    }
    return 0;
}

qint64 number(const QString& path)
{
    bool ok = false;
    const QByteArray text = readText(path, &ok).trimmed();
    qint64 value = text.toLongLong(&ok);
    return ok ? value : -1;
}

QByteArray xattr(const QString& path, const char* name)
{
    char buf[64];
    const ssize_t n = ::getxattr(QFile::encodeName(path).constData(), name, buf, sizeof buf);
    return n > 0 ? QByteArray(buf, int(n)) : QByteArray();
}

// Owned by `uid` and writable by its owner.
bool ownedWritable(const QString& path, uid_t uid)
{
    struct stat st {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && st.st_uid == uid && (st.st_mode & S_IWUSR);
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
QString unescapeMountField(const QByteArray& field)
{
    QByteArray out;
    for (int i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size()) {
            bool ok = false;
            const int c = field.mid(i + 1, 3).toInt(&ok, 8);
            if (ok) {
                out += char(c);
                i += 3;
                continue;
            }
        }
        out += field[i];
    }
    return QString::fromUtf8(out);
}

QList<pid_t> pidsIn(const QString& procsFile)
{
    QList<pid_t> pids;
    for (const QByteArray& line : readText(procsFile).split('\n'))
        if (const int pid = line.trimmed().toInt(); pid > 0)
            pids << pid_t(pid);
    return pids;
}

} // namespace

CgroupEnvironment::CgroupEnvironment()
    : euid(::geteuid()), pid(::getpid()),
      makeDir([](const QString& path) { return ::mkdir(QFile::encodeName(path).constData(), 0755) == 0; }),
      removeDir([](const QString& path) { return ::rmdir(QFile::encodeName(path).constData()) == 0; })
{
}

// --- SandboxCgroup

SandboxCgroup::SandboxCgroup(QString path, CgroupLimits limits, std::function<bool(const QString&)> removeDir, int procsFd)
    : m_path(std::move(path)), m_limits(limits), m_removeDir(std::move(removeDir)), m_procsFd(procsFd)
{
}

SandboxCgroup::~SandboxCgroup()
{
    if (!m_removed) {
        kill();
        remove(1000);
    }
    if (m_procsFd >= 0)
        ::close(m_procsFd);
}

bool SandboxCgroup::attach(pid_t pid, QString* error)
{
    const QByteArray text = QByteArray::number(pid) + '\n';
    if (::write(m_procsFd, text.constData(), size_t(text.size())) == text.size())
        return true;
    if (error)
        *error = QStringLiteral("cannot move pid %1 into %2: %3").arg(pid).arg(m_path, errnoText());
    return false;
}

qint64 SandboxCgroup::currentBytes() const { return number(m_path + QStringLiteral("/memory.current")); }
qint64 SandboxCgroup::peakBytes() const { return number(m_path + QStringLiteral("/memory.peak")); }
int SandboxCgroup::oomKills() const { return int(qMax<qint64>(0, keyed(m_path + QStringLiteral("/memory.events"), "oom_kill"))); }
int SandboxCgroup::processLimitHits() const { return int(qMax<qint64>(0, keyed(m_path + QStringLiteral("/pids.events"), "max"))); }
bool SandboxCgroup::populated() const { return keyed(m_path + QStringLiteral("/cgroup.events"), "populated") > 0; }

QString SandboxCgroup::message() const
{
    return oomKills() > 0 && m_limits.memoryBytes > 0 ? MemoryWatchdog::exceededMessage(m_limits.memoryBytes) : QString();
}

bool SandboxCgroup::kill(QString* error)
{
    if (writeText(m_path + QStringLiteral("/cgroup.kill"), "1", error))
        return true;
    if (errno != ENOENT)
        return false;
    // No cgroup.kill (before 5.14): kill what is listed until nothing is (new forks included).
    for (int round = 0; round < 100; ++round) {
        const QList<pid_t> pids = pidsIn(m_path + QStringLiteral("/cgroup.procs"));
        if (pids.isEmpty())
            return true;
        for (const pid_t pid : pids)
            ::kill(pid, SIGKILL);
    }
    if (error)
        *error = QStringLiteral("processes remain in %1").arg(m_path);
    return false;
}

bool SandboxCgroup::remove(int waitMs, QString* error)
{
    if (m_removed)
        return true;
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        if (m_removeDir(m_path)) {
            m_removed = true;
            return true;
        }
        if (errno != EBUSY || timer.elapsed() >= waitMs)
            break;
        // Killed processes leave asynchronously: cgroup.events changes (POLLPRI) when it empties.
        const int fd = ::open(QFile::encodeName(m_path + QStringLiteral("/cgroup.events")).constData(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            break;
        if (populated()) {
            pollfd p{fd, POLLPRI, 0};
            ::poll(&p, 1, int(std::clamp<qint64>(waitMs - timer.elapsed(), 1, 100)));
        }
        ::close(fd);
    }
    if (error)
        *error = QStringLiteral("cannot remove %1: %2").arg(m_path, errnoText());
    return false;
}

// --- CgroupDelegation

CgroupDelegation::CgroupDelegation(CgroupEnvironment env) : m_env(std::move(env))
{
    detect();
}

CgroupDelegation& CgroupDelegation::forThisProcess()
{
    static CgroupDelegation delegation;
    return delegation;
}

void CgroupDelegation::detect()
{
    bool ok = false;
    const QByteArray cgroups = readText(m_env.procSelfCgroup, &ok);
    if (!ok) {
        m_reason = QStringLiteral("%1 unreadable").arg(m_env.procSelfCgroup);
        return;
    }
    QString path;
    bool v1Memory = false, v2 = false;
    for (const QByteArray& line : cgroups.split('\n')) {
        const int a = line.indexOf(':'), b = a < 0 ? -1 : line.indexOf(':', a + 1);
        if (b < 0)
            continue;
        const QByteArray id = line.left(a), controllers = line.mid(a + 1, b - a - 1);
        if (id == "0" && controllers.isEmpty()) {
            v2 = true;
            path = QString::fromUtf8(line.mid(b + 1));
        } else if (controllers.split(',').contains("memory")) {
            v1Memory = true;
        }
    }
    // The memory controller sits in one hierarchy only: bound to v1, it is absent from v2.
    if (v1Memory) {
        m_reason = QStringLiteral("cgroup v1 memory controller");
        return;
    }
    if (!v2) {
        m_reason = QStringLiteral("no cgroup v2 (cgroup v1 only)");
        return;
    }

    // The cgroup2 mount that shows our cgroup. Fields: id parent dev root mountpoint opts ... - type.
    QString mountPoint, mountRoot;
    for (const QByteArray& line : readText(m_env.mountInfo).split('\n')) {
        const QList<QByteArray> f = line.split(' ');
        const int dash = int(f.indexOf("-"));
        if (dash < 5 || dash + 1 >= f.size() || f[dash + 1] != "cgroup2")
            continue;
        const QString root = unescapeMountField(f[3]);
        if (root == QLatin1String("/") || path == root || path.startsWith(root + u'/')) {
            mountRoot = root;
            mountPoint = unescapeMountField(f[4]);
            break;
        }
    }
    if (mountPoint.isEmpty()) {
        m_reason = QStringLiteral("cgroup2 is not mounted where our cgroup %1 is visible").arg(path);
        return;
    }
    const QString relative = mountRoot == QLatin1String("/") ? path : path.mid(mountRoot.size());
    QString dir = QDir::cleanPath(mountPoint + u'/' + relative);

    // A leaf we (or an earlier instance) made: the delegated cgroup is its parent.
    if (QFileInfo(dir).fileName() == QLatin1String(kAppLeaf) && path != QLatin1String("/")) {
        m_inLeaf = true;
        dir = QFileInfo(dir).path();
        path = QFileInfo(path).path();
    }
    m_cgroupPath = path;
    m_directory = dir;

    const QStringList controllers =
        QString::fromUtf8(readText(dir + QStringLiteral("/cgroup.controllers")).simplified()).split(u' ', Qt::SkipEmptyParts);
    QStringList missing;
    for (const QString& c : {QStringLiteral("memory"), QStringLiteral("pids")})
        if (!controllers.contains(c))
            missing << c;
    if (!missing.isEmpty()) {
        m_reason = QStringLiteral("cgroup v2 without the %1 controller at %2 (it has: %3)")
                       .arg(missing.join(QStringLiteral(", ")), path,
                            controllers.isEmpty() ? QStringLiteral("none") : controllers.join(u' '));
        return;
    }

    for (const char* name : {"trusted.delegate", "user.delegate"}) {
        if (xattr(dir, name) == "1") {
            m_delegatedBy = QString::fromLatin1(name);
            break;
        }
    }
    // Without the xattr (systemd before 251): a cgroup owned by us inside our own user manager's
    // subtree, which systemd delegates to the user (user@UID.service, Delegate=yes) - a systemd
    // user scope on a desktop. Anywhere else, a cgroup that merely happens to be ours is not
    // taken as delegated.
    const QString userManager = QStringLiteral("/user@%1.service/").arg(m_env.euid);
    if (m_delegatedBy.isEmpty() && m_env.euid != 0 && path.contains(userManager)
        && ownedWritable(dir, m_env.euid)
        && ownedWritable(dir + QStringLiteral("/cgroup.procs"), m_env.euid)
        && ownedWritable(dir + QStringLiteral("/cgroup.subtree_control"), m_env.euid))
        m_delegatedBy = QStringLiteral("owned by uid %1 in its user manager's subtree").arg(m_env.euid);
    if (m_delegatedBy.isEmpty()) {
        m_reason = m_env.euid == 0
                       ? QStringLiteral("%1 is not delegated (no trusted.delegate or user.delegate; as root only a "
                                        "delegated cgroup is used)").arg(path)
                       : QStringLiteral("%1 is not delegated to uid %2").arg(path).arg(m_env.euid);
        return;
    }
    m_available = true;
}

bool CgroupDelegation::available() const
{
    std::lock_guard lock(m_mutex);
    return m_available;
}

QString CgroupDelegation::reason() const
{
    std::lock_guard lock(m_mutex);
    return m_reason;
}

QString CgroupDelegation::cgroupPath() const
{
    std::lock_guard lock(m_mutex);
    return m_cgroupPath;
}

QString CgroupDelegation::directory() const
{
    std::lock_guard lock(m_mutex);
    return m_directory;
}

QString CgroupDelegation::describe() const
{
    std::lock_guard lock(m_mutex);
    if (m_available)
        return QStringLiteral("memory limit: cgroup v2 (delegated: %1)").arg(m_cgroupPath);
    return QStringLiteral("memory limit: host watchdog every %1 ms (no delegated cgroup: %2)")
        .arg(MemoryWatchdog::kDefaultIntervalMs)
        .arg(m_reason);
}

bool CgroupDelegation::prepare(QString* error)
{
    const QString control = m_directory + QStringLiteral("/cgroup.subtree_control");
    const QString leaf = m_directory + u'/' + QLatin1String(kAppLeaf);
    if (!m_inLeaf && !m_env.makeDir(leaf) && errno != EEXIST) {
        *error = QStringLiteral("cannot create %1: %2").arg(leaf, errnoText());
        return false;
    }
    // Processes may appear meanwhile (EBUSY): move them too and try again.
    for (int attempt = 0; attempt < 5; ++attempt) {
        if (!m_inLeaf) {
            const int fd = ::open(QFile::encodeName(leaf + QStringLiteral("/cgroup.procs")).constData(), O_WRONLY | O_TRUNC | O_CLOEXEC);
            if (fd < 0) {
                *error = QStringLiteral("cannot open %1/cgroup.procs: %2").arg(leaf, errnoText());
                return false;
            }
            for (const pid_t pid : pidsIn(m_directory + QStringLiteral("/cgroup.procs"))) {
                const QByteArray text = QByteArray::number(pid) + '\n';
                if (::write(fd, text.constData(), size_t(text.size())) != text.size() && errno != ESRCH) {
                    *error = QStringLiteral("cannot move pid %1 into %2: %3").arg(pid).arg(leaf, errnoText());
                    ::close(fd);
                    return false;
                }
            }
            ::close(fd);
        }
        if (writeText(control, "+memory +pids", error))
            return true;
        if (errno != EBUSY)
            return false;
    }
    return false;
}

// Sandbox cgroups left by an instance that died (named after its pid): empty ones go, others
// are killed first.
void CgroupDelegation::removeStaleSandboxes()
{
    const QStringList names = QDir(m_directory).entryList({QStringLiteral("sandbox-*")}, QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& name : names) {
        const int owner = name.section(u'-', 1, 1).toInt();
        if (owner <= 0 || owner == m_env.pid || ::kill(owner, 0) == 0 || errno != ESRCH)
            continue;
        const QString dir = m_directory + u'/' + name;
        if (!pidsIn(dir + QStringLiteral("/cgroup.procs")).isEmpty())
            writeText(dir + QStringLiteral("/cgroup.kill"), "1", nullptr);
        m_env.removeDir(dir);
    }
}

std::unique_ptr<SandboxCgroup> CgroupDelegation::create(const CgroupLimits& limits, QString* error)
{
    std::lock_guard lock(m_mutex);
    QString why;
    if (!m_available) {
        if (error)
            *error = m_reason;
        return nullptr;
    }
    if (!m_prepared) {
        if (!prepare(&why)) {
            m_available = false;
            m_reason = QStringLiteral("could not use %1: %2").arg(m_cgroupPath, why);
            if (error)
                *error = m_reason;
            return nullptr;
        }
        m_prepared = true;
        removeStaleSandboxes();
    }

    const QString dir = m_directory + QStringLiteral("/sandbox-%1-%2").arg(m_env.pid).arg(++m_created);
    if (!m_env.makeDir(dir)) {
        if (error)
            *error = QStringLiteral("cannot create %1: %2").arg(dir, errnoText());
        return nullptr;
    }
    const auto fail = [&](const QString& message) -> std::unique_ptr<SandboxCgroup> {
        m_env.removeDir(dir);
        if (error)
            *error = message;
        return nullptr;
    };
    const QByteArray memory = limits.memoryBytes > 0 ? QByteArray::number(limits.memoryBytes) : QByteArray("max");
    const QByteArray pids = limits.maxProcesses > 0 ? QByteArray::number(limits.maxProcesses) : QByteArray("max");
    if (!writeText(dir + QStringLiteral("/memory.max"), memory, &why) || !writeText(dir + QStringLiteral("/pids.max"), pids, &why)
        || !writeText(dir + QStringLiteral("/memory.oom.group"), "1", &why)) // one OOM kill takes the whole sandbox
        return fail(why);
    // No swap: the limit is the sandbox's RAM, and hitting it ends the run instead of thrashing.
    // (The file is absent when the kernel does not account swap; there is nothing to turn off.)
    if (QFileInfo::exists(dir + QStringLiteral("/memory.swap.max")) && !writeText(dir + QStringLiteral("/memory.swap.max"), "0", &why))
        return fail(why);
    const int fd = ::open(QFile::encodeName(dir + QStringLiteral("/cgroup.procs")).constData(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(QStringLiteral("cannot open %1/cgroup.procs: %2").arg(dir, errnoText()));
    return std::unique_ptr<SandboxCgroup>(new SandboxCgroup(dir, limits, m_env.removeDir, fd));
}

} // namespace sandpad::localsandbox
