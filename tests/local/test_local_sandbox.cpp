// Real bubblewrap: every test starts actual sandboxes and attacks them from inside.
#include "HostListeners.h"
#include "ProcessChecks.h"
#include "SandboxChecks.h"
#include "TestChecks.h"

#include "core/providers/local/LocalProvider.h"
#include "core/providers/local/LocalSandbox.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryFile>
#include <QtTest>

#include <atomic>
#include <sys/stat.h>
#include <utility>
#include <unistd.h>

using namespace sandpad;

namespace {

struct Result {
    CommandOutcome outcome;
    QByteArray out;
    QByteArray err;
    qint64 ms = 0;
    QString text() const { return QString::fromUtf8(out).trimmed(); }
};

Result runIn(Sandbox& sandbox, const QStringList& argv, qint64 timeoutMs = 20000,
             RunControl* control = nullptr)
{
    Result r;
    RunControl local;
    SandboxCommand cmd;
    cmd.argv = argv;
    cmd.timeoutMs = timeoutMs;
    QElapsedTimer t;
    t.start();
    r.outcome = sandbox.run(cmd, [&](OutputStream s, const QByteArray& chunk) {
        (s == OutputStream::Stdout ? r.out : r.err).append(chunk);
    }, control ? *control : local);
    r.ms = t.elapsed();
    return r;
}

qint64 peakRssKb()
{
    QFile f("/proc/self/status");
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    return 0;
}

} // namespace

class TestLocalSandbox : public QObject {
    Q_OBJECT

    std::unique_ptr<LocalProvider> provider;
    QTemporaryDir cacheHome;
    QTemporaryDir tempRoot; // this suite's TMPDIR: suites running at once make sandpad-* folders in /tmp too
    QString py;

    std::unique_ptr<Sandbox> make(SandboxOptions options = {})
    {
        RunControl control;
        return provider->create(options, control);
    }
    Result python(const QString& code, qint64 timeoutMs = 20000, SandboxOptions options = {})
    {
        auto sb = make(options);
        Result r = runIn(*sb, {py, "-c", code}, timeoutMs);
        const CleanupReport c = sb->destroy();
        if (!c.confirmed)
            qWarning() << "cleanup not confirmed:" << c.detail;
        return r;
    }

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists("/usr/bin/bwrap"))
            QSKIP("bubblewrap is not installed");
        // A private cache folder: the font cache is built by this run, not taken from an earlier one.
        QVERIFY(cacheHome.isValid());
        qputenv("XDG_CACHE_HOME", QFile::encodeName(cacheHome.path()));
        // What this suite counts in the temp folder is then its own (see filesAndResultFrames).
        QVERIFY(tempRoot.isValid());
        QFile::setPermissions(tempRoot.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                                   QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
        qputenv("TMPDIR", QFile::encodeName(tempRoot.path()));
        QCOMPARE(QDir::tempPath(), tempRoot.path());
        provider = std::make_unique<LocalProvider>();
        py = provider->pythonPath();
    }

    void stdoutAndStderrStream()
    {
        auto sb = make();
        QByteArray out, err;
        RunControl control;
        SandboxCommand cmd;
        cmd.argv = {py, "-c", "import sys, time\nprint('first', flush=True)\n"
                              "print('oops', file=sys.stderr, flush=True)\ntime.sleep(60)\nprint('second')"};
        // Both lines arrive while the program still sleeps (streamed live, each on its own stream):
        // cancelling once they are here ends the run before 'second'.
        const CommandOutcome o = runAndCancelWhen(*sb, control, cmd, [](const QByteArray& o, const QByteArray& e) {
            return o.contains("first\n") && e.contains("oops\n");
        }, &out, &err);
        QVERIFY(o.cancelled);
        QCOMPARE(out, QByteArray("first\n"));
        QCOMPARE(err, QByteArray("oops\n"));
        QVERIFY(sb->destroy().confirmed);
        // Without a cancel, both streams to the end.
        auto sb2 = make();
        const Result r = runIn(*sb2, {py, "-c", "import sys\nprint('first')\nprint('oops', file=sys.stderr)\nprint('second')"});
        QCOMPARE(r.outcome.exitCode, std::optional<int>(0));
        QCOMPARE(r.out, QByteArray("first\nsecond\n"));
        QCOMPARE(r.err, QByteArray("oops\n"));
        QVERIFY(sb2->destroy().confirmed);
    }

    void exitCodes()
    {
        auto sb = make();
        QCOMPARE(runIn(*sb, {py, "-c", "import sys; sys.exit(3)"}).outcome.exitCode, std::optional<int>(3));
        QCOMPARE(runIn(*sb, {py, "-c", "pass"}).outcome.exitCode, std::optional<int>(0));
        QCOMPARE(runIn(*sb, {provider->nodePath(), "-e", "process.exit(5)"}).outcome.exitCode, std::optional<int>(5));
        const Result killed = runIn(*sb, {py, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"});
        QCOMPARE(killed.outcome.exitCode, std::optional<int>(137));
        QVERIFY(killed.outcome.detail.contains("signal 9"));
        QVERIFY(sb->destroy().confirmed);
    }

    void filesAndResultFrames()
    {
        const qsizetype tempFoldersBefore = QDir(QDir::tempPath()).entryList({"sandpad-*"}, QDir::Dirs).size();
        auto sb = make();
        QCOMPARE(sb->workDir(), QString("/sandpad"));
        sb->writeFiles({{"/sandpad/sub/dir/main.py", "print(open('/sandpad/sub/dir/data.txt').read())", 0644},
                        {"/sandpad/sub/dir/data.txt", "payload", 0644}});
        const Result r = runIn(*sb, {py, "/sandpad/sub/dir/main.py"});
        QCOMPARE(r.text(), QString("payload"));
        // Frames written by hand on fd 3, the second larger than a pipe buffer.
        const Result f = runIn(*sb, {py, "-c",
            "import os\nassert os.environ['SANDPAD_RESULT_FD'] == '3'\n"
            "def frame(name, data):\n"
            "    os.write(3, ('{\"name\": \"%s\", \"size\": %d}\\n' % (name, len(data))).encode())\n"
            "    view = memoryview(data)\n"
            "    while view:\n"
            "        view = view[os.write(3, view):]\n"
            "frame('result.json', b'{\"status\": \"success\"}')\n"
            "frame('chart-1.png', b'\\x89PNG' * 100000)\n"
            "print(sorted(os.listdir('/proc/self/fd')))\n"});
        QCOMPARE(f.outcome.exitCode, std::optional<int>(0));
        QCOMPARE(sb->readFile("/sandpad/out/result.json"), std::optional<QByteArray>("{\"status\": \"success\"}"));
        QCOMPARE(sb->readFile("/sandpad/out/chart-1.png")->size(), 400000);
        QCOMPARE(sb->readFile("/sandpad/sub/dir/data.txt"), std::optional<QByteArray>("payload"));
        QVERIFY(!sb->readFile("/sandpad/out/nothing.json"));
        QVERIFY(!sb->readFile("/etc/passwd"));
        QVERIFY(!sb->readFile("/sandpad/../etc/passwd"));
        // Only stdio and the result channel reach the program (no seccomp or info fd, no app fds).
        QCOMPARE(f.text(), QString("['0', '1', '2', '3', '4']")); // 4: listdir's own handle
        // Nothing of a sandbox is on the host's disk: no folder to leave behind or to read.
        QCOMPARE(QDir(QDir::tempPath()).entryList({"sandpad-*"}, QDir::Dirs).size(), tempFoldersBefore);
        // The work dir is the program's own scratch space (a tmpfs inside the sandbox).
        const Result w = runIn(*sb, {py, "-c", "open('/sandpad/out.csv', 'w').write('a,b')\n"
                                               "print(open('/sandpad/out.csv').read())"});
        QCOMPARE(w.text(), QString("a,b"));
        QVERIFY(sb->destroy().confirmed);
        QVERIFY(sb->destroy().confirmed); // twice is fine
    }

    void identityAndEnvironment()
    {
        qputenv("SANDPAD_TEST_CANARY", "leaked-secret");
        const Result r = python(
            "import os, json, getpass\n"
            "print(json.dumps({'uid': os.getuid(), 'gid': os.getgid(), 'user': getpass.getuser(),"
            " 'home': os.environ.get('HOME'), 'cwd': os.getcwd(), 'env': dict(os.environ),"
            " 'pids': sorted(int(p) for p in os.listdir('/proc') if p.isdigit()),"
            " 'caps': [l for l in open('/proc/self/status') if l.startswith(('CapEff', 'CapBnd'))]}))");
        QCOMPARE(r.outcome.exitCode, std::optional<int>(0));
        const QString text = r.text();
        QVERIFY2(text.contains("\"uid\": 65534"), qPrintable(text));
        QVERIFY(text.contains("\"gid\": 65534"));
        QVERIFY(text.contains("\"user\": \"sandbox\""));
        QVERIFY(text.contains("\"home\": \"/home/sandbox\""));
        QVERIFY(text.contains("\"cwd\": \"/tmp\""));
        QVERIFY(text.contains("MPLBACKEND"));
        QVERIFY(!text.contains("leaked-secret"));
        QVERIFY(!text.contains("SANDPAD_TEST_CANARY"));
        QVERIFY(text.contains("CapEff:\\t0000000000000000"));
        QVERIFY(text.contains("CapBnd:\\t0000000000000000"));
        QVERIFY2(text.contains("\"pids\": [1, 2") || text.contains("\"pids\": [1, 3"), qPrintable(text));
        const Result id = python("import subprocess; print(subprocess.run(['id', '-u'], capture_output=True, text=True).stdout)");
        QCOMPARE(id.text(), QString("65534"));
    }

    void hostFilesInvisible()
    {
        QTemporaryFile tmpCanary(QDir::tempPath() + "/sandpad-canary-XXXXXX");
        QVERIFY(tmpCanary.open());
        const QString homeCanary = QDir::homePath() + "/.sandpad-canary-" + QString::number(getpid());
        QFile home(homeCanary);
        QVERIFY(home.open(QIODevice::WriteOnly));
        home.write("secret");
        home.close();
        const Result r = python(QString(
            "import os\n"
            "for p in ['%1', '%2', '%3', '/root', '/home/sandbox/..', '/run', '/var', '/etc/shadow']:\n"
            "    print(p, os.path.exists(p) and p not in ('/home/sandbox/..',))\n"
            "print('home', os.listdir('/home'))\n"
            "print('etc', sorted(os.listdir('/etc')))\n")
            .arg(tmpCanary.fileName(), homeCanary, QDir::homePath()));
        QFile::remove(homeCanary);
        QCOMPARE(r.outcome.exitCode, std::optional<int>(0));
        const QString text = r.text();
        QVERIFY2(!text.contains("True"), qPrintable(text));
        QVERIFY(text.contains("home ['sandbox']"));
        QVERIFY2(text.contains("etc ['alternatives', 'fonts', 'group', 'ld.so.cache'"), qPrintable(text));
        QVERIFY(!text.contains("'shadow'") && !text.contains("'hostname'"));
    }

    void readOnlySystem()
    {
        const Result r = python(
            "import os\n"
            "for p in ['/x', '/etc/x', '/usr/x', '/.sandpad/init', '/usr/bin/python3', '/proc/sys/kernel/hostname']:\n"
            "    try:\n"
            "        open(p, 'a').write('x'); print(p, 'WRITABLE')\n"
            "    except OSError as e:\n"
            "        print(p, 'denied', e.errno)\n"
            "open('/tmp/ok', 'w').write('fine'); print('tmp', open('/tmp/ok').read())\n"
            "open('/home/sandbox/ok', 'w').write('fine'); print('home', open('/home/sandbox/ok').read())\n"
            "open('/sandpad/ok', 'w').write('fine'); print('work', open('/sandpad/ok').read())\n");
        QCOMPARE(r.outcome.exitCode, std::optional<int>(0));
        QVERIFY2(!r.text().contains("WRITABLE"), qPrintable(r.text()));
        QVERIFY(r.text().contains("work fine")); // the work dir is the program's scratch tmpfs
        QVERIFY(r.text().contains("tmp fine"));
        QVERIFY(r.text().contains("home fine"));
    }

    void networkBlocked()
    {
        HostListeners host;
        SANDPAD_CHECK(host.listen(QStringLiteral("sandpad-test-")));
        const Result r = python(HostListeners::attemptFunction(2) + QString(
            "attempt('tcp', socket.AF_INET, ('127.0.0.1', %1))\n"
            "attempt('unix', socket.AF_UNIX, '\\0%2')\n"
            "attempt('remote', socket.AF_INET, ('192.0.2.1', 80))\n"
            "try:\n"
            "    socket.getaddrinfo('localhost.example', 80); print('dns CONNECTED')\n"
            "except OSError as e:\n"
            "    print('dns blocked')\n"
            "print('ifaces', [n for _, n in socket.if_nameindex()])\n")
            .arg(host.tcpPort()).arg(host.abstractName()));
        QCOMPARE(r.outcome.exitCode, std::optional<int>(0));
        QVERIFY2(!r.text().contains("CONNECTED"), qPrintable(r.text()));
        QVERIFY(r.text().contains("tcp blocked"));
        QVERIFY(r.text().contains("unix blocked"));
        QVERIFY2(r.text().contains("ifaces ['lo']"), qPrintable(r.text()));
        SANDPAD_CHECK(host.verifyNotReached());
    }

    void networkWhenAllowedKeepsHostLoopbackOut()
    {
        // With the network allowed the sandbox still has its own network namespace: the host's
        // loopback services and abstract sockets stay out of reach.
        HostListeners host;
        SANDPAD_CHECK(host.listen(QStringLiteral("sandpad-test-net-")));
        SandboxOptions options;
        options.allowNetwork = true;
        auto sb = make(options);
        QVERIFY(!sb->pipArguments().contains("--no-index"));
        const Result r = runIn(*sb, {py, "-c", HostListeners::attemptFunction(2) + QString(
            "attempt('tcp', socket.AF_INET, ('127.0.0.1', %1))\n"
            "attempt('unix', socket.AF_UNIX, '\\0%2')\n"
            "print('resolv', open('/etc/resolv.conf').read().strip())\n")
            .arg(host.tcpPort()).arg(host.abstractName())});
        QVERIFY2(!r.text().contains("CONNECTED"), qPrintable(r.text() + r.err));
        QVERIFY2(r.text().contains("tcp blocked") && r.text().contains("unix blocked"), qPrintable(r.text() + r.err));
        QVERIFY2(r.text().contains("resolv nameserver 10.0.2.3"), qPrintable(r.text()));
        SANDPAD_CHECK(host.verifyNotReached());
        QVERIFY(sb->destroy().confirmed);
    }

    void setupFailureIsInfrastructureError()
    {
        auto sb = make();
        SandboxCommand cmd;
        cmd.argv = {py, "-c", "pass"};
        cmd.cwd = "/does/not/exist";
        RunControl control;
        QVERIFY_THROWS_EXCEPTION(ProviderError, sb->run(cmd, {}, control));
        QVERIFY(sb->destroy().confirmed);
    }

    void fontCacheIsUsed()
    {
        const Result r = python(
            "import time; t = time.time()\n"
            "import matplotlib.font_manager as fm\n"
            "print('fonts', len(fm.fontManager.ttflist) > 0)\n");
        QCOMPARE(r.outcome.exitCode, std::optional<int>(0));
        QCOMPARE(r.text(), QString("fonts True"));
        QVERIFY2(!r.err.contains("building the font cache"), r.err.constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        // Built into the cache folder, and reused (not rebuilt) by the next app start.
        const QString file = provider->fontCacheFile();
        QVERIFY2(file.startsWith(cacheHome.path() + "/sandpad/mpl/fontlist-"), qPrintable(file));
        const QDateTime built = QFileInfo(file).lastModified();
        LocalProvider again;
        QCOMPARE(again.fontCacheFile(), file);
        QCOMPARE(QFileInfo(file).lastModified(), built);
    }

    void concurrentSandboxes()
    {
        // Worker threads, as the Executor uses them: each run waits in its own local loop. They
        // run at once: every program had started (said 'up') before any of them ended. The 3 s
        // sleep only leaves room for a slow start; the order of events is what is checked.
        QList<QThread*> threads;
        QList<QString> outputs(3);
        QList<bool> confirmed(3, false);
        std::atomic<int> up{0};
        QList<int> upWhenEnded(3, -1);
        for (int i = 0; i < 3; ++i) {
            threads << QThread::create([&, i] {
                auto sb = make();
                RunControl control;
                SandboxCommand cmd;
                cmd.argv = {py, "-c", QString("import time; print('up', flush=True); time.sleep(3); print(%1)").arg(i)};
                QByteArray out;
                bool counted = false;
                sb->run(cmd, [&](OutputStream, const QByteArray& chunk) {
                    out += chunk;
                    if (!counted && out.startsWith("up\n")) {
                        counted = true;
                        ++up;
                    }
                }, control);
                upWhenEnded[i] = up.load();
                outputs[i] = QString::fromUtf8(out).section(u'\n', 1).trimmed();
                confirmed[i] = sb->destroy().confirmed;
            });
            threads.last()->start();
        }
        for (QThread* th : threads) {
            QVERIFY(th->wait(60000));
            delete th;
        }
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(outputs[i], QString::number(i));
            QVERIFY(confirmed[i]);
            QCOMPARE(upWhenEnded[i], 3);
        }
    }

    void forkBombContained()
    {
        // Bounded loop: stops at RLIMIT_NPROC; the sleepers die with the namespace.
        const Result r = python(
            "import os, time\nn = 0\n"
            "try:\n"
            "    while n < 5000:\n"
            "        if os.fork() == 0:\n"
            "            time.sleep(600); os._exit(0)\n"
            "        n += 1\n"
            "    print('unlimited', n)\n"
            "except OSError as e:\n"
            "    print('limited', n, type(e).__name__)\n", 20000);
        QVERIFY2(r.text().startsWith("limited"), qPrintable(r.text()));
        QVERIFY(r.text().split(' ').value(1).toInt() <= 256);
        // A real exponential bomb, killed by the deadline.
        auto sb = make();
        const Result bomb = runIn(*sb, {"/bin/bash", "-c", "b(){ b | b & }; b; sleep 60"}, 2500);
        QVERIFY(bomb.outcome.timedOut); // how fast: tests/bench/bench_stop
        const CleanupReport c = sb->destroy();
        QVERIFY2(c.confirmed, qPrintable(c.detail));
    }

    void memoryBombGivesMemoryError()
    {
        SandboxOptions options;
        options.memoryLimitMb = 768;
        const Result r = python(
            "try:\n    x = bytearray(10**10)\nexcept MemoryError:\n    print('MemoryError 1')\n"
            "chunks = []\n"
            "try:\n    while True:\n        chunks.append(bytearray(16 * 2**20))\n"
            "except MemoryError:\n    n = len(chunks); chunks = None; print('MemoryError 2', n)\n",
            30000, options);
        QVERIFY2(r.text().contains("MemoryError 1") && r.text().contains("MemoryError 2"), qPrintable(r.text() + r.err));
        QCOMPARE(r.outcome.exitCode, std::optional<int>(0));
    }

    void diskFillContained()
    {
        const Result r = python(
            "import errno, os\n"
            "block = b'x' * (1 << 20)\n"
            "def fill(path, limit):\n"
            "    try:\n"
            "        with open(path, 'wb') as f:\n"
            "            for _ in range(limit):\n"
            "                f.write(block); f.flush()\n"
            "        return 'ok'\n"
            "    except OSError as e:\n"
            "        return errno.errorcode[e.errno]\n"
            "print('one', fill('/tmp/big', 2048))\n"
            "os.remove('/tmp/big')\n"
            "print('many', [fill('/tmp/f%d' % i, 200) for i in range(4)])\n"
            "print('shm', fill('/dev/shm/x', 2048))\n"
            "st = os.statvfs('/dev/shm'); print('shmsize', st.f_blocks * st.f_frsize)\n", 60000);
        QCOMPARE(r.outcome.exitCode, std::optional<int>(0));
        QVERIFY2(r.text().contains("one EFBIG"), qPrintable(r.text() + r.err));
        QVERIFY2(r.text().contains("ENOSPC"), qPrintable(r.text()));
        QVERIFY2(r.text().contains("shm ENOSPC"), qPrintable(r.text()));
        QVERIFY(r.text().contains(QString("shmsize %1").arg(64 * 1024 * 1024)));
    }

    void backgroundProcessGone()
    {
        auto sb = make();
        const QByteArray marker = "987.654";
        const Result r = runIn(*sb, {"/bin/sh", "-c",
            "setsid sh -c 'sleep " + QString(marker) + " & sleep " + QString(marker) + "' </dev/null >/dev/null 2>&1 &"
            " sleep 0.3; echo started"});
        QCOMPARE(r.text(), QString("started"));
        const CleanupReport c = sb->destroy();
        QVERIFY2(c.confirmed, qPrintable(c.detail));
        QCOMPARE(hostProcessesWith("sleep " + marker), 0);
    }

    void timeoutKills()
    {
        auto sb = make();
        const Result r = runIn(*sb, {py, "-c", "import time; print('sleeping', flush=True); time.sleep(60)"}, 2000);
        QVERIFY(r.outcome.timedOut);
        QVERIFY(!r.outcome.cancelled);
        QVERIFY(!r.outcome.exitCode);
        QCOMPARE(r.text(), QString("sleeping"));
        // Not before its deadline (how soon after it: tests/bench/bench_stop).
        QVERIFY2(r.ms >= 1900, qPrintable(QString::number(r.ms)));
        const CleanupReport c = sb->destroy();
        QVERIFY2(c.confirmed, qPrintable(c.detail));
    }

    void cancelFromTimer()
    {
        // A cancel delivered by this thread's own event loop while the run waits in it: a timer
        // started once the program said it is up.
        auto sb = make();
        RunControl control;
        SandboxCommand cmd;
        cmd.argv = {py, "-c", "import time; print('up', flush=True); time.sleep(60)"};
        cmd.timeoutMs = 30000;
        bool armed = false;
        const CommandOutcome o = sb->run(cmd, [&](OutputStream, const QByteArray&) {
            if (!std::exchange(armed, true))
                QTimer::singleShot(0, &control, &RunControl::cancel);
        }, control);
        QVERIFY(armed);
        QVERIFY(o.cancelled);
        QVERIFY(!o.timedOut);
        QVERIFY(sb->destroy().confirmed);
    }

    void cancelFromAnotherThread()
    {
        auto sb = make();
        RunControl control;
        SandboxCommand cmd;
        cmd.argv = {provider->nodePath(), "-e", "console.log('up'); setTimeout(() => {}, 60000)"};
        cmd.timeoutMs = 30000;
        const CommandOutcome o = runAndCancelWhen(*sb, control, cmd, [](const QByteArray& out, const QByteArray&) {
            return out.contains("up");
        });
        QVERIFY(o.cancelled);
        QVERIFY(!o.timedOut);
        QVERIFY(sb->destroy().confirmed);
        // Already cancelled: nothing starts.
        auto sb2 = make();
        QVERIFY(runIn(*sb2, {py, "-c", "pass"}, 30000, &control).outcome.cancelled);
    }

    void seccompDenials()
    {
#if !defined(__x86_64__)
        QSKIP("syscall numbers below are x86_64");
#endif
        const Result r = python(
            "import ctypes, errno, os, subprocess\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "def call(label, *args):\n"
            "    rc = libc.syscall(*args)\n"
            "    print(label, errno.errorcode.get(ctypes.get_errno(), 'OK') if rc < 0 else 'ALLOWED')\n"
            "call('unshare', 272, 0x10000000)\n"             // SYS_unshare, CLONE_NEWUSER
            "call('ptrace', 101, 0, 0, 0, 0)\n"              // PTRACE_TRACEME
            "call('keyctl', 250, 0, 0, 0, 0)\n"
            "call('bpf', 321, 0, 0, 0)\n"
            "call('io_uring', 425, 1, 0)\n"
            "call('clone3', 435, 0, 0)\n"
            "c = ctypes.c_char(b'x')\n"
            "call('tiocsti_hi', 16, 0, ctypes.c_ulong(0x100005412), ctypes.byref(c))\n"
            "call('tiocsti', 16, 0, ctypes.c_ulong(0x5412), ctypes.byref(c))\n"
            "call('tiocgwinsz', 16, 0, ctypes.c_ulong(0x5413), ctypes.byref(ctypes.create_string_buffer(8)))\n"
            "rc = libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0)\n"   // clone(CLONE_NEWUSER|SIGCHLD)
            "if rc == 0: os._exit(0)\n"
            "print('clone-newuser', errno.errorcode.get(ctypes.get_errno(), 'OK') if rc < 0 else 'ALLOWED')\n"
            "p = subprocess.run(['unshare', '-U', 'true'], capture_output=True)\n"
            "print('unshare-cmd', p.returncode)\n"
            "print('fork-ok', subprocess.run(['true']).returncode)\n");
        QCOMPARE(r.outcome.exitCode, std::optional<int>(0));
        const QString t = r.text();
        for (const char* line : {"unshare EPERM", "ptrace EPERM", "keyctl EPERM", "bpf EPERM",
                                 "io_uring EPERM", "clone3 ENOSYS", "tiocsti_hi EPERM", "tiocsti EPERM",
                                 "tiocgwinsz ENOTTY", "fork-ok 0", "clone-newuser EPERM"})
            QVERIFY2(t.contains(QLatin1String(line)), qPrintable(QString("%1 missing in:\n%2").arg(line, t)));
        QVERIFY(!t.contains("unshare-cmd 0"));
        QVERIFY(!t.contains("ALLOWED"));
        // node's threads and child processes still work under the filter (clone3 -> clone).
        auto sb = make();
        const Result node = runIn(*sb, {provider->nodePath(), "-e",
            "const { Worker } = require('worker_threads');"
            "const cp = require('child_process');"
            "new Worker('require(\"worker_threads\").parentPort.postMessage(41)', { eval: true })"
            ".on('message', m => console.log('worker', m + 1, cp.execFileSync('echo', ['child']).toString().trim()));"});
        QCOMPARE(node.text(), QString("worker 42 child"));
        QVERIFY(sb->destroy().confirmed);
    }

    void numpyAndMatplotlibWork()
    {
        const Result r = python(
            "import os, numpy, multiprocessing, threading\n"
            "import matplotlib.pyplot as plt\n"
            "plt.plot([1, 2, 3]); plt.savefig('/tmp/x.png')\n"
            "print('fontcache', [f for f in os.listdir('/tmp/mpl') if f.startswith('fontlist')])\n"
            "print('matmul', int((numpy.ones((200, 200)) @ numpy.ones((200, 200)))[0, 0]))\n"
            "with multiprocessing.Pool(2) as p: print('pool', p.map(abs, [-1, -2]))\n", 60000);
        QCOMPARE(r.outcome.exitCode, std::optional<int>(0));
        QVERIFY2(r.text().contains("matmul 200"), qPrintable(r.text() + r.err));
        QVERIFY(r.text().contains("pool [1, 2]"));
        QVERIFY2(r.text().contains("fontcache ['fontlist-"), qPrintable(r.text()));
        QVERIFY(!provider->fontCacheFile().isEmpty());
    }

    void millionLines()
    {
        const qint64 before = peakRssKb();
        auto sb = make();
        qint64 bytes = 0, lines = 0;
        RunControl control;
        SandboxCommand cmd;
        cmd.argv = {py, "-c", "for i in range(1000000):\n    print(i)"};
        cmd.timeoutMs = 60000;
        const CommandOutcome o = sb->run(cmd, [&](OutputStream s, const QByteArray& chunk) {
            if (s == OutputStream::Stdout) {
                bytes += chunk.size();
                lines += chunk.count('\n');
            }
        }, control);
        QCOMPARE(o.exitCode, std::optional<int>(0));
        QCOMPARE(lines, qint64(1000000));
        QCOMPARE(bytes, qint64(6888890));
        QVERIFY(sb->destroy().confirmed);
        const qint64 grown = peakRssKb() - before;
        QVERIFY2(grown < 64 * 1024, qPrintable(QString("peak RSS grew by %1 kB").arg(grown)));
    }

    void pipArgumentsFollowOptions()
    {
        SandboxOptions offline;
        QVERIFY(make(offline)->pipArguments().contains("--no-index"));
        SandboxOptions index;
        index.pipIndexUrl = "https://pypi.example/simple";
        index.allowNetwork = true;
        const QStringList a = make(index)->pipArguments();
        QCOMPARE(a.value(a.indexOf("--index-url") + 1), QString("https://pypi.example/simple"));
        QTemporaryDir wheels;
        ::chmod(QFile::encodeName(wheels.path()).constData(), 0755);
        QFile w(wheels.path() + "/demo-1.0-py3-none-any.whl");
        QVERIFY(w.open(QIODevice::WriteOnly));
        w.close();
        SandboxOptions wheelOpt;
        wheelOpt.pipWheelDir = wheels.path();
        auto sb = make(wheelOpt);
        QVERIFY(sb->pipArguments().contains("/sandpad-wheels"));
        const Result r = runIn(*sb, {"ls", "/sandpad-wheels"});
        QCOMPARE(r.text(), QString("demo-1.0-py3-none-any.whl"));
        QVERIFY(sb->destroy().confirmed);
    }

    void interpreters()
    {
        auto sb = make();
        QCOMPARE(sb->interpreter(Language::Python), QString("/usr/bin/python3"));
        QVERIFY(sb->interpreter(Language::JavaScript).endsWith("node"));
        LocalProviderOptions opts;
        opts.python = "/opt/py/bin/python3";
        LocalProvider custom(opts);
        QCOMPARE(custom.pythonPath(), QString("/opt/py/bin/python3"));
        LocalProviderOptions bad;
        bad.bwrap = "/nonexistent/bwrap";
        LocalProvider missing(bad);
        RunControl control;
        QVERIFY_THROWS_EXCEPTION(ProviderError, missing.create({}, control));
        const ValidationReport report = missing.validate();
        QVERIFY(!report.usable());
    }

    void validateReport()
    {
        const ValidationReport report = provider->validate();
        const QString text = report.toText();
        qInfo().noquote() << text;
        QVERIFY2(report.usable(), qPrintable(text));
        QStringList names;
        for (const auto& item : report.items)
            names << item.name;
        for (const char* n : {"privileges", "seccomp filter", "bubblewrap", "python3", "node",
                              "package matplotlib", "package pandas", "package numpy",
                              "package sympy", "package plotly", "package yfinance", "package jedi", "cleanup"})
            QVERIFY2(names.contains(QLatin1String(n)), n);
        for (const auto& item : report.items)
            if (item.name == "package yfinance" && item.level != ValidationItem::Level::Ok)
                QVERIFY(item.detail.contains("missing"));
    }
};

QTEST_GUILESS_MAIN(TestLocalSandbox)
#include "test_local_sandbox.moc"
