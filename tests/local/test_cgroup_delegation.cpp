// CgroupDelegation against a fake cgroupfs: a temp dir with the control files, a fake
// /proc/self/cgroup and mountinfo, and mkdir/rmdir that act like the kernel's (mkdir creates the
// control files; rmdir refuses while processes remain). This machine has no delegated cgroup.
#include "core/providers/local/CgroupDelegation.h"
#include "core/providers/local/MemoryWatchdog.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <sys/xattr.h>
#include <unistd.h>

using namespace sandpad::localsandbox;

namespace {

constexpr qint64 MiB = 1024 * 1024;
const QString kScope = QStringLiteral("/user.slice/user-1000.slice/user@1000.service/app.slice/sandpad.scope");

QByteArray read(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

// What the kernel puts in a new cgroup's directory.
bool populate(const QString& dir)
{
    const QMap<QString, QByteArray> files{
        {"cgroup.procs", ""},
        {"cgroup.controllers", "cpu io memory pids\n"},
        {"cgroup.subtree_control", ""},
        {"cgroup.events", "populated 0\nfrozen 0\n"},
        {"cgroup.kill", ""},
        {"memory.max", "max\n"},
        {"memory.swap.max", "max\n"},
        {"memory.oom.group", "0\n"},
        {"memory.events", "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n"},
        {"memory.current", "0\n"},
        {"memory.peak", "0\n"},
        {"pids.max", "max\n"},
        {"pids.events", "max 0\n"},
    };
    for (auto it = files.begin(); it != files.end(); ++it) {
        QFile f(dir + '/' + it.key());
        if (!f.open(QIODevice::WriteOnly))
            return false;
        f.write(it.value());
    }
    return true;
}

struct FakeCgroupfs {
    QTemporaryDir temp;
    QString mount;

    explicit FakeCgroupfs(const QString& mountName = QStringLiteral("cgroup"))
    {
        mount = temp.path() + '/' + mountName;
        QDir().mkpath(mount);
        populate(mount);
    }
    QString dir(const QString& cgroup) const { return QDir::cleanPath(mount + cgroup); }
    // Creates the cgroup (and its parents) as systemd would have.
    QString makeCgroup(const QString& cgroup) const
    {
        QString path = mount;
        for (const QString& part : cgroup.split('/', Qt::SkipEmptyParts)) {
            path += '/' + part;
            if (!QFileInfo::exists(path)) {
                QDir().mkdir(path);
                populate(path);
            }
        }
        return path;
    }
    // An environment whose /proc/self/cgroup says `selfCgroup` (lines as the kernel writes them).
    CgroupEnvironment environment(const QByteArray& selfCgroup, uid_t euid = 0,
                                  const QByteArray& mountRoot = "/", const QByteArray& mountPoint = {}) const
    {
        CgroupEnvironment env;
        env.procSelfCgroup = temp.path() + "/self-cgroup";
        env.mountInfo = temp.path() + "/mountinfo";
        env.euid = euid;
        QFile c(env.procSelfCgroup);
        c.open(QIODevice::WriteOnly);
        c.write(selfCgroup);
        QFile m(env.mountInfo);
        m.open(QIODevice::WriteOnly);
        m.write("22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/vda rw\n");
        m.write("30 23 0:26 " + mountRoot + " " + (mountPoint.isEmpty() ? QFile::encodeName(mount) : mountPoint)
                + " rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n");
        env.makeDir = [](const QString& path) {
            if (!QDir().mkdir(path)) {
                errno = QFileInfo::exists(path) ? EEXIST : ENOENT;
                return false;
            }
            return populate(path);
        };
        env.removeDir = [](const QString& path) {
            if (!read(path + "/cgroup.procs").trimmed().isEmpty() && read(path + "/cgroup.kill") != "1") {
                errno = EBUSY;
                return false;
            }
            return QDir(path).removeRecursively();
        };
        return env;
    }
    // Every file and its content, to prove that nothing was written.
    QMap<QString, QByteArray> snapshot() const
    {
        QMap<QString, QByteArray> all;
        QDirIterator it(mount, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            all.insert(path, it.fileInfo().isDir() ? QByteArray("<dir>") : read(path));
        }
        return all;
    }
};

bool setXattr(const QString& path, const char* name)
{
    return ::setxattr(QFile::encodeName(path).constData(), name, "1", 1, 0) == 0;
}

void chownTree(const QString& path, uid_t uid)
{
    QVERIFY(::chown(QFile::encodeName(path).constData(), uid, uid) == 0);
    QDirIterator it(path, QDir::AllEntries | QDir::NoDotAndDotDot);
    while (it.hasNext())
        QVERIFY(::chown(QFile::encodeName(it.next()).constData(), uid, uid) == 0);
}

} // namespace

class TestCgroupDelegation : public QObject {
    Q_OBJECT

private slots:
    // This machine's case (and CI's): memory is bound to a v1 hierarchy, so v2 cannot have it.
    void cgroupV1MemoryControllerFallsBack()
    {
        FakeCgroupfs fs;
        const auto before = fs.snapshot();
        CgroupDelegation d(fs.environment("9:name=systemd:/\n4:memory:/process_api/abc\n1:cpu:/\n0::/\n"));
        QVERIFY(!d.available());
        QCOMPARE(d.reason(), QStringLiteral("cgroup v1 memory controller"));
        QCOMPARE(d.describe(),
                 QStringLiteral("memory limit: host watchdog every %1 ms (no delegated cgroup: cgroup v1 memory controller)")
                     .arg(MemoryWatchdog::kDefaultIntervalMs));
        QString error;
        QVERIFY(!d.create({1024 * MiB, 256}, &error));
        QCOMPARE(error, d.reason());
        QCOMPARE(fs.snapshot(), before);
    }

    void noCgroupV2FallsBack()
    {
        FakeCgroupfs fs;
        CgroupDelegation d(fs.environment("2:pids:/\n1:cpu:/\n"));
        QVERIFY(!d.available());
        QVERIFY2(d.reason().contains("no cgroup v2"), qPrintable(d.reason()));
    }

    void cgroup2NotMountedFallsBack()
    {
        FakeCgroupfs fs;
        CgroupEnvironment env = fs.environment("0::" + kScope.toUtf8() + "\n");
        write(env.mountInfo, "22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/vda rw\n");
        CgroupDelegation d(env);
        QVERIFY(!d.available());
        QVERIFY2(d.reason().contains("not mounted"), qPrintable(d.reason()));
    }

    // Also this machine: the v2 tree has only hugetlb.
    void missingControllersFallBack()
    {
        FakeCgroupfs fs;
        const QString dir = fs.makeCgroup(kScope);
        write(dir + "/cgroup.controllers", "hugetlb\n");
        QVERIFY(setXattr(dir, "user.delegate"));
        CgroupDelegation d(fs.environment("0::" + kScope.toUtf8() + "\n"));
        QVERIFY(!d.available());
        QVERIFY2(d.reason().contains("memory, pids") && d.reason().contains("hugetlb"), qPrintable(d.reason()));
    }

    // Root can write anywhere in the tree; that does not make it ours.
    void aTreeMerelyWritableByRootIsNotUsed()
    {
        FakeCgroupfs fs;
        const QString dir = fs.makeCgroup(kScope);
        write(dir + "/cgroup.procs", QByteArray::number(::getpid()) + "\n");
        const auto before = fs.snapshot();
        CgroupDelegation d(fs.environment("0::" + kScope.toUtf8() + "\n", 0));
        QVERIFY(!d.available());
        QVERIFY2(d.reason().contains("not delegated"), qPrintable(d.reason()));
        QVERIFY(!d.create({1024 * MiB, 256}));
        QCOMPARE(fs.snapshot(), before);
    }

    void delegatedCgroupGetsOneChildPerSandbox_data()
    {
        QTest::addColumn<QString>("xattr");
        QTest::newRow("trusted.delegate") << QStringLiteral("trusted.delegate");
        QTest::newRow("user.delegate") << QStringLiteral("user.delegate");
    }
    void delegatedCgroupGetsOneChildPerSandbox()
    {
        QFETCH(QString, xattr);
        FakeCgroupfs fs;
        const QString dir = fs.makeCgroup(kScope);
        write(dir + "/cgroup.procs", "1234\n5678\n");
        if (!setXattr(dir, xattr.toLatin1().constData()))
            QSKIP("this file system takes no such xattr");
        CgroupDelegation d(fs.environment("0::" + kScope.toUtf8() + "\n", 0));
        QVERIFY2(d.available(), qPrintable(d.reason()));
        QCOMPARE(d.cgroupPath(), kScope);
        QCOMPARE(d.directory(), dir);
        QCOMPARE(d.describe(), "memory limit: cgroup v2 (delegated: " + kScope + ")");

        QString error;
        std::unique_ptr<SandboxCgroup> cg = d.create({1024 * MiB, 256}, &error);
        QVERIFY2(cg, qPrintable(error));
        // No internal processes: ours moved into a leaf first, then the controllers enabled.
        QCOMPARE(read(dir + "/sandpad-app/cgroup.procs"), QByteArray("1234\n5678\n"));
        QCOMPARE(read(dir + "/cgroup.subtree_control"), QByteArray("+memory +pids"));
        QCOMPARE(QFileInfo(cg->path()).path(), dir);
        QVERIFY(QFileInfo(cg->path()).fileName().startsWith(QStringLiteral("sandbox-%1-").arg(::getpid())));
        QCOMPARE(read(cg->path() + "/memory.max"), QByteArray::number(1024 * MiB));
        QCOMPARE(read(cg->path() + "/memory.swap.max"), QByteArray("0"));
        QCOMPARE(read(cg->path() + "/pids.max"), QByteArray("256"));
        QCOMPARE(read(cg->path() + "/memory.oom.group"), QByteArray("1"));

        QVERIFY(cg->attach(4321));
        QCOMPARE(::write(cg->procsFd(), "0", 1), 1); // what a child does between fork and exec
        QCOMPARE(read(cg->path() + "/cgroup.procs"), QByteArray("4321\n0"));

        QCOMPARE(cg->oomKills(), 0);
        QVERIFY(cg->message().isEmpty());
        write(cg->path() + "/memory.events", "low 0\nhigh 0\nmax 7\noom 1\noom_kill 1\noom_group_kill 1\n");
        write(cg->path() + "/memory.peak", "1073741824\n");
        write(cg->path() + "/pids.events", "max 3\n");
        QCOMPARE(cg->oomKills(), 1);
        QCOMPARE(cg->peakBytes(), 1024 * MiB);
        QCOMPARE(cg->processLimitHits(), 3);
        QCOMPARE(cg->message(), QStringLiteral("the run used more than 1024 MiB and was stopped"));

        QVERIFY(cg->kill());
        QCOMPARE(read(cg->path() + "/cgroup.kill"), QByteArray("1"));
        QString why;
        QVERIFY2(cg->remove(2000, &why), qPrintable(why));
        QVERIFY(!QFileInfo::exists(cg->path()));

        // The next sandbox: a sibling; our processes are not moved again.
        write(dir + "/sandpad-app/cgroup.procs", "moved\n");
        std::unique_ptr<SandboxCgroup> second = d.create({512 * MiB, 0});
        QVERIFY(second);
        QVERIFY(second->path() != cg->path());
        QCOMPARE(read(second->path() + "/pids.max"), QByteArray("max"));
        QCOMPARE(read(dir + "/sandpad-app/cgroup.procs"), QByteArray("moved\n"));
        const QString secondPath = second->path();
        second.reset(); // the destructor kills and removes
        QVERIFY(!QFileInfo::exists(secondPath));
    }

    // A normal user's cgroup under systemd's user manager is the user's own.
    void ownedByOurUidWithoutXattr()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to chown the fake tree");
        FakeCgroupfs fs;
        const QString dir = fs.makeCgroup(kScope);
        chownTree(dir, 1000);
        CgroupDelegation ours(fs.environment("0::" + kScope.toUtf8() + "\n", 1000));
        QVERIFY2(ours.available(), qPrintable(ours.reason()));
        CgroupDelegation theirs(fs.environment("0::" + kScope.toUtf8() + "\n", 1001));
        QVERIFY(!theirs.available());
        QVERIFY2(theirs.reason().contains("not delegated to uid 1001"), qPrintable(theirs.reason()));
        // Owned, but cgroup.procs is not writable: not delegated.
        QFile::setPermissions(dir + "/cgroup.procs", QFile::ReadOwner);
        CgroupDelegation readOnly(fs.environment("0::" + kScope.toUtf8() + "\n", 1000));
        QVERIFY(!readOnly.available());
        // Owned and writable, but not inside the user's own systemd manager: not delegated.
        const QString elsewhere = QStringLiteral("/system.slice/something.service");
        chownTree(fs.makeCgroup(elsewhere), 1000);
        CgroupDelegation outside(fs.environment("0::" + elsewhere.toUtf8() + "\n", 1000));
        QVERIFY(!outside.available());
    }

    // A second instance started from a process we moved: it is already in our leaf.
    void alreadyInTheLeaf()
    {
        FakeCgroupfs fs;
        const QString dir = fs.makeCgroup(kScope);
        fs.makeCgroup(kScope + "/sandpad-app");
        write(dir + "/sandpad-app/cgroup.procs", "42\n");
        QVERIFY(setXattr(dir, "user.delegate"));
        CgroupDelegation d(fs.environment("0::" + kScope.toUtf8() + "/sandpad-app\n"));
        QVERIFY2(d.available(), qPrintable(d.reason()));
        QCOMPARE(d.cgroupPath(), kScope);
        std::unique_ptr<SandboxCgroup> cg = d.create({256 * MiB, 64});
        QVERIFY(cg);
        QCOMPARE(QFileInfo(cg->path()).path(), dir);
        QCOMPARE(read(dir + "/sandpad-app/cgroup.procs"), QByteArray("42\n"));
    }

    // Inside a cgroup namespace or a bind mount the mount's root is not "/"; paths are escaped.
    void mountRootAndEscapes()
    {
        FakeCgroupfs fs(QStringLiteral("cgroup fs"));
        const QString dir = fs.makeCgroup("/app.slice/sandpad.scope");
        QVERIFY(setXattr(dir, "user.delegate"));
        const QByteArray escaped = QFile::encodeName(fs.mount).replace(" ", "\\040");
        CgroupDelegation d(fs.environment("0::/user.slice/app.slice/sandpad.scope\n", 0, "/user.slice", escaped));
        QVERIFY2(d.available(), qPrintable(d.reason()));
        QCOMPARE(d.directory(), dir);
        CgroupDelegation outside(fs.environment("0::/system.slice/x.service\n", 0, "/user.slice", escaped));
        QVERIFY(!outside.available());
        QVERIFY2(outside.reason().contains("not mounted"), qPrintable(outside.reason()));
    }

    void failuresFallBackWithAReason()
    {
        FakeCgroupfs fs;
        const QString dir = fs.makeCgroup(kScope);
        QVERIFY(setXattr(dir, "user.delegate"));
        // A sandbox's cgroup cannot be made: that run falls back; the next may still succeed.
        CgroupEnvironment env = fs.environment("0::" + kScope.toUtf8() + "\n");
        int makes = 0;
        const auto realMake = env.makeDir;
        env.makeDir = [&](const QString& path) {
            if (path.contains("sandbox-") && makes++ == 0) {
                errno = EACCES;
                return false;
            }
            return realMake(path);
        };
        CgroupDelegation d(env);
        QString error;
        QVERIFY(!d.create({1024 * MiB, 256}, &error));
        QVERIFY2(error.contains("Permission denied"), qPrintable(error));
        QVERIFY(d.available());
        QVERIFY(d.create({1024 * MiB, 256}));

        // The delegated cgroup cannot be prepared (its controls refuse writes): unavailable from
        // then on, and validation says why.
        FakeCgroupfs fs2;
        const QString dir2 = fs2.makeCgroup(kScope);
        QVERIFY(setXattr(dir2, "user.delegate"));
        QFile::remove(dir2 + "/cgroup.subtree_control");
        CgroupDelegation broken(fs2.environment("0::" + kScope.toUtf8() + "\n"));
        QVERIFY(broken.available());
        QVERIFY(!broken.create({1024 * MiB, 256}, &error));
        QVERIFY(!broken.available());
        QVERIFY2(broken.reason().startsWith("could not use " + kScope), qPrintable(broken.reason()));
        QVERIFY2(broken.describe().startsWith("memory limit: host watchdog"), qPrintable(broken.describe()));

        // A limit file that is missing (an older kernel without the controller's file).
        FakeCgroupfs fs3;
        const QString dir3 = fs3.makeCgroup(kScope);
        QVERIFY(setXattr(dir3, "user.delegate"));
        CgroupEnvironment env3 = fs3.environment("0::" + kScope.toUtf8() + "\n");
        const auto make3 = env3.makeDir;
        env3.makeDir = [make3](const QString& path) {
            const bool ok = make3(path);
            if (ok && path.contains("sandbox-"))
                QFile::remove(path + "/memory.oom.group");
            return ok;
        };
        CgroupDelegation old(env3);
        QVERIFY(!old.create({1024 * MiB, 256}, &error));
        QVERIFY2(error.contains("memory.oom.group"), qPrintable(error));
        QVERIFY(QDir(dir3).entryList({"sandbox-*"}, QDir::Dirs).isEmpty()); // removed again
    }

    void staleSandboxesOfADeadInstanceAreRemoved()
    {
        FakeCgroupfs fs;
        const QString dir = fs.makeCgroup(kScope);
        QVERIFY(setXattr(dir, "user.delegate"));
        fs.makeCgroup(kScope + "/sandbox-999999-1"); // pid_max is far below
        fs.makeCgroup(kScope + "/sandbox-999999-2");
        write(dir + "/sandbox-999999-2/cgroup.procs", "77\n");
        const QString alive = QStringLiteral("/sandbox-%1-1").arg(::getppid());
        fs.makeCgroup(kScope + alive);
        CgroupDelegation d(fs.environment("0::" + kScope.toUtf8() + "\n"));
        QVERIFY(d.create({1024 * MiB, 256}));
        QVERIFY(!QFileInfo::exists(dir + "/sandbox-999999-1"));
        QVERIFY(!QFileInfo::exists(dir + "/sandbox-999999-2"));
        QVERIFY(QFileInfo::exists(dir + alive));
    }

    // What this machine says (the real /proc/self/cgroup); validation prints the same line.
    void thisMachine()
    {
        CgroupDelegation& d = CgroupDelegation::forThisProcess();
        qInfo("%s", qPrintable(d.describe()));
        QVERIFY(d.available() || !d.reason().isEmpty());
        QVERIFY(d.describe().startsWith("memory limit: "));
    }
};

QTEST_GUILESS_MAIN(TestCgroupDelegation)
#include "test_cgroup_delegation.moc"
