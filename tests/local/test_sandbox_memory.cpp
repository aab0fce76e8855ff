// SandboxMemory against real bubblewrap trees: each case holds memory one way and checks that the
// sample counts it once.
#include "core/providers/local/SandboxMemory.h"
#include "core/providers/local/StrayProcesses.h"
#include "SandboxTree.h"

#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

using namespace sandpad;
using namespace sandpad::localsandbox;
using sandpad::test::SandboxTree;
using sandpad::test::pythonPrelude;

namespace {

constexpr qint64 MiB = 1024 * 1024;

#define START(tree, code)                                                                          \
    do {                                                                                           \
        QString why;                                                                               \
        QVERIFY2((tree).start(SandboxTree::python(pythonPrelude() + (code)), &why), qPrintable(why)); \
    } while (0)

QByteArray mibText(qint64 bytes) { return QByteArray::number(double(bytes) / double(MiB), 'f', 1) + " MiB"; }

} // namespace

class TestSandboxMemory : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty())
            QSKIP("bubblewrap is not installed");
    }

    void countsOneProcess()
    {
        SandboxTree tree;
        START(tree, "x = hold(200); ready(); forever()");
        SandboxMemory memory(tree.pid1());
        const SandboxMemorySample s = memory.sample(0);
        QVERIFY2(s.valid(), qPrintable(s.error));
        QCOMPARE(s.processes, 2); // bwrap's init and python
        QVERIFY(s.exact);
        QVERIFY2(s.anonBytes >= 200 * MiB && s.anonBytes < 260 * MiB, mibText(s.anonBytes));
        QVERIFY2(s.totalBytes < 300 * MiB, qPrintable(s.describe()));
        QCOMPARE(s.unreadable, 0);
    }

    // 400 MiB written before three forks: RSS says 1.6 GiB, the sandbox holds 400 MiB.
    void forkedCopyOnWritePagesAreCountedOnce()
    {
        SandboxTree tree;
        START(tree, "x = hold(400)\n"
                    "for i in range(3):\n"
                    "    r, w = os.pipe()\n"
                    "    if os.fork() == 0:\n"
                    "        os.write(w, b'x'); forever()\n"
                    "    os.read(r, 1)\n"
                    "ready(); forever()");
        SandboxMemory memory(tree.pid1());
        const SandboxMemorySample upper = memory.sample(qint64(1) << 50); // never exact
        QCOMPARE(upper.processes, 5);
        QVERIFY(!upper.exact);
        QVERIFY2(upper.anonBytes >= 1600 * MiB, qPrintable(upper.describe())); // what RSS sums give
        const SandboxMemorySample s = memory.sample(0);
        QVERIFY(s.exact);
        QVERIFY2(s.anonBytes >= 400 * MiB && s.anonBytes < 520 * MiB, qPrintable(s.describe()));
        // From the estimate: above the threshold the sample is exact as well.
        const SandboxMemorySample near = memory.sample(1024 * MiB);
        QVERIFY(near.exact);
        QVERIFY2(near.totalBytes < 600 * MiB, qPrintable(near.describe()));
    }

    void fourChildrenOf300MiBAreCountedAs1200()
    {
        SandboxTree tree;
        START(tree, "for i in range(4):\n"
                    "    r, w = os.pipe()\n"
                    "    if os.fork() == 0:\n"
                    "        x = hold(300); os.write(w, b'x'); forever()\n"
                    "    os.read(r, 1)\n"
                    "ready(); forever()");
        SandboxMemory memory(tree.pid1());
        for (const qint64 exactFrom : {qint64(0), 1024 * MiB}) {
            const SandboxMemorySample s = memory.sample(exactFrom);
            QCOMPARE(s.processes, 6);
            QVERIFY(s.exact);
            QVERIFY2(s.totalBytes >= 1200 * MiB && s.totalBytes < 1350 * MiB, qPrintable(s.describe()));
        }
    }

    // Written through write(), never mapped, open twice (dup) and in a child too: counted once.
    void memfdHeldOpenButNotMappedIsCountedOnce()
    {
        SandboxTree tree;
        START(tree, "fd = os.memfd_create('held')\n"
                    "chunk = b'\\x02' * MiB\n"
                    "for i in range(500): os.write(fd, chunk)\n"
                    "fd2 = os.dup(fd)\n"
                    "r, w = os.pipe()\n"
                    "if os.fork() == 0:\n"
                    "    os.write(w, b'x'); forever()\n"
                    "os.read(r, 1); ready(); forever()");
        SandboxMemory memory(tree.pid1());
        const SandboxMemorySample s = memory.sample(0);
        QCOMPARE(s.shmemObjects, 1);
        QVERIFY2(s.shmemBytes >= 500 * MiB && s.shmemBytes < 510 * MiB, qPrintable(s.describe()));
        QVERIFY2(s.totalBytes >= 500 * MiB && s.totalBytes < 600 * MiB, qPrintable(s.describe()));
    }

    // A memfd mapped, written through the mapping and closed; shared anonymous memory whose pages
    // were dropped from the mapping (MADV_DONTNEED: they stay in the object, out of RSS).
    void mappedSharedMemoryIsCountedByObject()
    {
        if (::geteuid() != 0)
            QSKIP("sizing an object through /proc/<pid>/map_files needs CAP_SYS_ADMIN");
        SandboxTree tree;
        START(tree, "chunk = b'\\x03' * MiB\n"
                    "fd = os.memfd_create('mapped')\n"
                    "os.ftruncate(fd, 300 * MiB)\n"
                    "m = mmap.mmap(fd, 300 * MiB)\n"
                    "for i in range(300): m[i * MiB:(i + 1) * MiB] = chunk\n"
                    "os.close(fd)\n"
                    "a = mmap.mmap(-1, 200 * MiB)\n"
                    "for i in range(200): a[i * MiB:(i + 1) * MiB] = chunk\n"
                    "a.madvise(mmap.MADV_DONTNEED)\n"
                    "del chunk; ready(); forever()");
        SandboxMemory memory(tree.pid1());
        const SandboxMemorySample s = memory.sample(0);
        QCOMPARE(s.shmemObjects, 2);
        QVERIFY(!s.shmemApproximate);
        // Once each: the memfd's resident pages are not added again from RssShmem.
        QVERIFY2(s.shmemBytes >= 500 * MiB && s.shmemBytes < 510 * MiB, qPrintable(s.describe()));
        QVERIFY2(s.totalBytes >= 500 * MiB && s.totalBytes < 600 * MiB, qPrintable(s.describe()));
        // And still counted in later cheap samples that do not re-read the maps.
        for (int i = 0; i < SandboxMemory::kRescanEvery + 1; ++i)
            QVERIFY2(memory.sample(qint64(1) << 50).shmemBytes >= 500 * MiB, "lost between maps scans");
    }

    void tmpfsFilesAreCounted()
    {
        SandboxTree tree;
        START(tree, "chunk = b'\\x04' * MiB\n"
                    "with open('/tmp/big', 'wb') as f:\n"
                    "    for i in range(300): f.write(chunk)\n"
                    "with open('/dev/shm/seg', 'wb') as f:\n"
                    "    for i in range(30): f.write(chunk)\n"
                    "held = open('/tmp/deleted', 'wb')\n"
                    "for i in range(50): held.write(chunk)\n"
                    "held.flush(); os.unlink('/tmp/deleted')\n"
                    "os.mkdir('/home/sandbox/many')\n"
                    "for i in range(20000): open('/home/sandbox/many/%d' % i, 'w').close()\n"
                    "del chunk; ready(); forever()");
        SandboxMemory memory(tree.pid1());
        const SandboxMemorySample s = memory.sample(0);
        QVERIFY2(s.tmpfsBytes >= 380 * MiB && s.tmpfsBytes < 400 * MiB, qPrintable(s.describe()));
        QVERIFY2(s.tmpfsFiles >= 20003, qPrintable(s.describe()));
        QCOMPARE(s.tmpfsInodeBytes, qint64(s.tmpfsFiles) * SandboxMemory::kTmpfsInodeBytes);
        QVERIFY2(s.totalBytes >= s.tmpfsBytes + s.tmpfsInodeBytes, qPrintable(s.describe()));
        QVERIFY2(s.notes.isEmpty(), qPrintable(s.notes.join("; ")));
    }

    void mountsThatAreNotTmpfsAreNotedNotCounted()
    {
        SandboxTree tree;
        START(tree, "ready(); forever()");
        SandboxMemory memory(tree.pid1(), {QStringLiteral("/usr"), QStringLiteral("/nonexistent")});
        const SandboxMemorySample s = memory.sample(0);
        QVERIFY(s.valid());
        QCOMPARE(s.tmpfsBytes, 0);
        QCOMPARE(s.notes.size(), 2);
    }

    // Buffers of sockets and pipes are in no process's RSS: a socket counts what is queued in it
    // (asked through a copy of it), a pipe its capacity.
    void socketQueuesAndPipesAreCounted()
    {
        SandboxTree tree;
        START(tree, "pairs = [socket.socketpair() for i in range(100)]\n"
                    "for a, b in pairs[:20]:\n"
                    "    a.setblocking(False)\n"
                    "    try:\n"
                    "        while True: a.send(b'x' * 4096)\n"
                    "    except BlockingIOError: pass\n"
                    "pipes = [os.pipe() for i in range(50)]\n"
                    "ready(); forever()");
        SandboxMemory memory(tree.pid1());
        const SandboxMemorySample s = memory.sample(0);
        QVERIFY2(s.sockets >= 200 && s.pipes >= 50, qPrintable(s.describe()));
        QVERIFY2(s.pipes < 60, "both ends of a pipe are one buffer");
        QVERIFY2(s.socketQueuedBytes >= 20 * 150 * 1024, qPrintable(s.describe()));
        QVERIFY2(s.bufferBytes >= s.socketQueuedBytes + s.sockets * SandboxMemory::kSocketBytes + 50 * SandboxMemory::kPipeBytes,
                 qPrintable(s.describe()));
        QVERIFY(s.totalBytes >= s.bufferBytes);
    }

    // Loopback TCP inside the sandbox's own network namespace: each connection holds MiBs in its
    // queues; sockets sent away in a message and closed still count (sockstat of the namespace).
    void tcpQueuesAndSocketsInFlightAreCounted()
    {
        SandboxTree tree;
        START(tree, "import array\n"
                    "srv = socket.socket(); srv.bind(('127.0.0.1', 0)); srv.listen(100)\n"
                    "conns = []\n"
                    "for i in range(30):\n"
                    "    c = socket.create_connection(srv.getsockname()); s, _ = srv.accept()\n"
                    "    c.setblocking(False)\n"
                    "    try:\n"
                    "        while True: c.send(b'x' * 65536)\n"
                    "    except BlockingIOError: pass\n"
                    "    conns.append((c, s))\n"
                    "a, b = socket.socketpair()\n"
                    "for i in range(20):\n"
                    "    x, y = socket.socketpair()\n"
                    "    a.sendmsg([b'.'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [x.fileno(), y.fileno()]))])\n"
                    "    x.close(); y.close()\n"
                    "ready(); forever()");
        SandboxMemory memory(tree.pid1());
        const SandboxMemorySample s = memory.sample(0);
        QVERIFY2(s.socketQueuedBytes >= 60 * MiB, qPrintable(s.describe()));
        QVERIFY2(s.sockets >= 61 + 2 + 40, qPrintable(s.describe())); // 61 TCP, the pair, 40 in flight
        // The ones in flight cannot be asked: each is charged a send buffer's bound.
        QVERIFY2(s.bufferBytes >= s.socketQueuedBytes + 40 * 400 * 1024, qPrintable(s.describe()));
        QVERIFY(s.totalBytes >= s.bufferBytes);
    }

    // Reading an 8 GiB sparse mapping every 2 MiB maps only the zero page but allocates 16 MiB of
    // page tables.
    void pageTablesAreCounted()
    {
        SandboxTree tree;
        START(tree, "m = mmap.mmap(-1, 8 << 30, flags=mmap.MAP_PRIVATE | getattr(mmap, 'MAP_NORESERVE', 0))\n"
                    "s = sum(m[i] for i in range(0, 8 << 30, 2 * MiB))\n"
                    "ready(); forever()");
        SandboxMemory memory(tree.pid1());
        const SandboxMemorySample s = memory.sample(0);
        QVERIFY2(s.pageTableBytes >= 16 * MiB, qPrintable(s.describe()));
        QVERIFY2(s.anonBytes < 64 * MiB, qPrintable(s.describe()));
        QVERIFY(s.totalBytes >= s.pageTableBytes);
    }

    // With no time for scans, one process's descriptors are read per cheap sample (new ones
    // first) and the rest wait; a total at the threshold is confirmed by a full sample.
    void scansWithinTheBudgetAndConfirmsAtTheThreshold()
    {
        SandboxTree tree;
        START(tree, "chunk = b'\\x06' * MiB\n"
                    "for i in range(8):\n"
                    "    r, w = os.pipe()\n"
                    "    if os.fork() == 0:\n"
                    "        fd = os.memfd_create('m%d' % i)\n"
                    "        for j in range(20): os.write(fd, chunk)\n"
                    "        os.write(w, b'x'); forever()\n"
                    "    os.read(r, 1)\n"
                    "ready(); forever()");
        SandboxMemory memory(tree.pid1());
        memory.setScanBudgetUs(0);
        const qint64 never = qint64(1) << 50;
        SandboxMemorySample s = memory.sample(never);
        QCOMPARE(s.processes, 10);
        QVERIFY(!s.full);
        QCOMPARE(s.stale, 9);
        QVERIFY2(s.shmemObjects <= 1, qPrintable(s.describe()));
        for (int i = 0; i < 9; ++i)
            s = memory.sample(never);
        QCOMPARE(s.shmemObjects, 8);
        QVERIFY2(s.shmemBytes >= 160 * MiB, qPrintable(s.describe()));
        // A fresh sampler that hits the threshold reads every process at once.
        SandboxMemory fresh(tree.pid1());
        fresh.setScanBudgetUs(0);
        s = fresh.sample(MiB);
        QVERIFY2(s.full && s.stale == 0 && s.shmemObjects == 8, qPrintable(s.describe()));
    }

    // A process whose main thread ended alone (the raw exit system call) shows Z and no memory
    // in /proc/PID/status while its other thread holds 300 MiB: it is live, counted and found
    // (issue 26; before: skipped as a zombie by both).
    void aGroupWhoseLeaderEndedAloneIsCountedAndFound()
    {
        SandboxTree tree;
        START(tree, "import ctypes, platform, threading\n"
                    "r, w = os.pipe()\n"
                    "child = os.fork()\n"
                    "if child == 0:\n"
                    "    def held():\n"
                    "        x = hold(300); os.write(w, b'x'); forever()\n"
                    "    threading.Thread(target=held).start()\n"
                    "    ctypes.CDLL(None).syscall(60 if platform.machine() == 'x86_64' else 93, 0)\n"
                    "os.read(r, 1)\n"
                    "ready(); forever()");
        SandboxMemory memory(tree.pid1());
        for (const qint64 exactFrom : {qint64(0), 1024 * MiB}) {
            const SandboxMemorySample s = memory.sample(exactFrom);
            QCOMPARE(s.processes, 3);
            QVERIFY2(s.anonBytes >= 300 * MiB && s.anonBytes < 400 * MiB, qPrintable(s.describe()));
        }
        const QList<int> python = [&] {
            QList<int> kids;
            QFile c(QStringLiteral("/proc/%1/task/%1/children").arg(tree.pid1()));
            if (c.open(QIODevice::ReadOnly))
                for (const QByteArray& p : c.readAll().trimmed().split(' '))
                    kids << p.toInt();
            return kids;
        }();
        QCOMPARE(python.size(), 1);
        QCOMPARE(StrayProcesses::find(tree.pid1(), python.first()).size(), 1); // the leaderless child
    }

    // A parent suspended in vfork() shares its memory with its child: 2 x 150 MiB, not 4 x 150.
    // Where a kill is decided (a full sample) it counts once; a cheap sample may count it twice
    // (an upper bound). Before: counted twice, and a program under its limit was stopped.
    void processesSharingOneMemoryCountItOnce()
    {
        SandboxTree tree;
        START(tree, "import ctypes, signal\n"
                    "libc = ctypes.CDLL(None)\n"
                    "libc.clone.restype = ctypes.c_int\n"
                    "libc.clone.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]\n"
                    "for i in range(2):\n"
                    "    r, w = os.pipe()\n"
                    "    if os.fork() == 0:\n"
                    "        x = hold(150)\n"
                    "        os.write(w, b'x')\n"
                    "        stack = ctypes.create_string_buffer(1 << 16)\n"
                    "        # the child runs pause() on its own stack: the parent waits in vfork for good\n"
                    "        libc.clone(ctypes.cast(libc.pause, ctypes.c_void_p), ctypes.addressof(stack) + (1 << 16) - 64,\n"
                    "                   0x100 | 0x4000 | signal.SIGCHLD, None)\n"
                    "        os._exit(0)\n"
                    "    os.read(r, 1)\n"
                    "time.sleep(1)\n"
                    "ready(); forever()");
        SandboxMemory memory(tree.pid1());
        QTRY_COMPARE_WITH_TIMEOUT(memory.sample(0).processes, 6, 30000); // PID 1, python, 2 x (parent in vfork, child)
        const SandboxMemorySample s = memory.sample(0);
        QVERIFY2(s.anonBytes >= 300 * MiB && s.anonBytes < 400 * MiB, qPrintable(s.describe()));
    }

    void aSandboxThatEndedGivesNoSample()
    {
        SandboxTree tree;
        START(tree, "ready(); forever()");
        SandboxMemory memory(tree.pid1());
        QVERIFY(memory.sample(0).valid());
        tree.kill();
        // PID 1 dies of --die-with-parent shortly after bwrap.
        QTRY_VERIFY_WITH_TIMEOUT(!memory.sample(0).valid(), 30000);
        const SandboxMemorySample s = memory.sample(0);
        QVERIFY2(s.error.contains("PID 1"), qPrintable(s.error));
        QCOMPARE(s.totalBytes, 0);
    }

    // The processes of a normal user's sandbox have that user's host uid; its PID 1 may be
    // unreadable. The probe samples as that user.
    void worksAsTheUnprivilegedOwner()
    {
        if (::geteuid() != 0)
            QSKIP("run as root to test another uid (as a user, every case above is this one)");
        const int uid = 4242;
        SandboxTree tree(uid);
        // The process holding the memfd makes itself non-dumpable: its owner may still read it.
        START(tree, "import ctypes\n"
                    "x = hold(300)\n"
                    "ctypes.CDLL(None).prctl(4, 0)\n"
                    "fd = os.memfd_create('held')\n"
                    "chunk = b'\\x05' * MiB\n"
                    "for i in range(200): os.write(fd, chunk)\n"
                    "with open('/tmp/f', 'wb') as f:\n"
                    "    for i in range(100): f.write(chunk)\n"
                    "a, b = socket.socketpair(); a.send(b'q' * 100000)\n"
                    "del chunk; ready(); forever()");
        const auto probe = [&](pid_t pid1) {
            QProcess p;
            p.start(QStringLiteral("setpriv"), {QStringLiteral("--reuid=%1").arg(uid), QStringLiteral("--regid=%1").arg(uid),
                                                QStringLiteral("--clear-groups"), QStringLiteral(SANDPAD_MEMORY_PROBE),
                                                QString::number(pid1)});
            p.waitForFinished(60000);
            return QString::fromUtf8(p.readAllStandardOutput());
        };
        const auto value = [](const QString& out, const QString& key) {
            return QRegularExpression(QStringLiteral("\\b%1=(\\d+)").arg(key)).match(out).captured(1).toLongLong();
        };
        QString out = probe(tree.pid1());
        QVERIFY2(value(out, "valid") == 1, qPrintable(out));
        QVERIFY2(value(out, "anon") >= 300 * MiB, qPrintable(out));
        QVERIFY2(value(out, "shmem") >= 200 * MiB, qPrintable(out));
        QVERIFY2(value(out, "tmpfs") >= 100 * MiB, qPrintable(out));
        QVERIFY2(value(out, "sockq") >= 100000, qPrintable(out)); // asked through pidfd_getfd, non-dumpable too
        QVERIFY2(value(out, "total") >= 600 * MiB && value(out, "total") < 700 * MiB, qPrintable(out));
        QVERIFY2(value(out, "unreadable") == 0, qPrintable(out));

        // A non-dumpable PID 1 (as the real init will be): unreadable to its owner, its
        // children still count, the tmpfs is reached through a child's root.
        SandboxTree init(uid, true);
        START(init, "import ctypes\n"
                    "ctypes.CDLL(None).prctl(4, 0)\n"
                    "r, w = os.pipe()\n"
                    "if os.fork() == 0:\n"
                    "    x = hold(200)\n"
                    "    with open('/tmp/f', 'wb') as f: f.write(hold(50))\n"
                    "    os.write(w, b'x'); forever()\n"
                    "os.read(r, 1); ready(); forever()");
        out = probe(init.pid1());
        QVERIFY2(value(out, "valid") == 1 && value(out, "processes") == 2, qPrintable(out));
        QVERIFY2(value(out, "anon") >= 200 * MiB, qPrintable(out));
        QVERIFY2(value(out, "tmpfs") >= 50 * MiB, qPrintable(out));
        QVERIFY2(value(out, "unreadable") == 0, qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestSandboxMemory)
#include "test_sandbox_memory.moc"
