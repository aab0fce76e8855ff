// The local sandbox's promises (docs/threat-model.md), each attacked from inside as a snippet
// would, through the real Executor, on the cold and on the pre-started (pooled) path. Run as root
// (CI) and, through run-unprivileged.sh, as uid 65534 (a desktop user). Every case here failed on
// the sandbox as it was before the hardening of issue 10 (see the note at each).
#include "ProcessChecks.h"
#include "TempDatabase.h"

#include "core/accounting/CreditsAccount.h"
#include "core/accounting/UsageLedger.h"
#include "core/engine/Executor.h"
#include "core/providers/local/LocalProvider.h"
#include "core/providers/local/SandboxPool.h"
#include "core/providers/local/UserNetwork.h"
#include "core/run/ExecutionRequest.h"
#include "core/run/ExecutionResult.h"
#include "core/run/Run.h"
#include "core/session/NotebookSession.h"
#include "ExecutionChecks.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLocalServer>
#include <QProcess>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace sandpad;

namespace {

// Session: an execution in a notebook session (a pre-started sandbox that takes many jobs).
enum class Path { Cold, Prestarted, Session };

QString describe(const ExecutionResult& r)
{
    return QStringLiteral("status=%1 cost=%2 reason=%3\nstdout=%4\nstderr=%5\nerror=%6")
        .arg(runStatusName(r.status)).arg(r.costMicros).arg(r.reason, r.stdoutText.left(1500), r.stderrText.left(800),
             r.error ? r.error->name + u':' + r.error->value : QStringLiteral("-"));
}

// (This suite is a child subreaper: a sandbox process that outlived its app is reparented here,
// among childProcessesOf(getpid()).)

// A non-loopback IPv4 address of this host, if it has one.
QString hostAddress()
{
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0)
        return {};
    QString found;
    for (ifaddrs* i = list; i && found.isEmpty(); i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
            continue;
        const auto* in = reinterpret_cast<sockaddr_in*>(i->ifa_addr);
        const quint32 a = ntohl(in->sin_addr.s_addr);
        if ((a >> 24) != 127)
            found = QHostAddress(a).toString();
    }
    ::freeifaddrs(list);
    return found;
}

const QByteArray kCanaryName = "SANDPAD_SECURITY_CANARY";

// Markers in the command lines of processes an attack tries to leave behind, unique to this test
// process (the root and the unprivileged run of this suite may run at the same time).
QString survivorMarker()
{
    return QStringLiteral("sandpad-survivor-%1").arg(::getpid());
}
QByteArray exploitMarker(int suitePid)
{
    return "sandpad-exploit-survivor-" + QByteArray::number(suitePid);
}

// The networking helpers this process started (they are its children).
QList<int> ownNetworkHelpers()
{
    QList<int> pids;
    for (int pid : childProcessesOf(::getpid()))
        if (readProcFile(pid, "comm").trimmed() == "slirp4netns")
            pids << pid;
    return pids;
}

// Python: `count` forked processes each start a thread running `body` (indented 8 spaces) once
// their main thread has ended alone with the raw exit system call (not exit_group): the group
// lives on.
QString leaderEndsAlone(const QString& body, int count)
{
    return QStringLiteral(
               "import ctypes, os, platform, threading, time\n"
               "EXIT = 60 if platform.machine() == 'x86_64' else 93\n"
               "for i in range(%1):\n"
               "    if os.fork() == 0:\n"
               "        def body():\n"
               // Only once the main thread has ended (/proc/self is the group's leader): what the
               // body holds is held by a group whose leader shows Z.
               "            while open('/proc/self/stat').read().rsplit(')', 1)[1].split()[0] != 'Z': time.sleep(0.01)\n").arg(count)
           + QString(body).replace(QStringLiteral("\n        "), QStringLiteral("\n            ")).prepend(QStringLiteral("    "))
           + QStringLiteral(
               "            os._exit(0)\n"
               "        threading.Thread(target=body).start()\n"
               "        ctypes.CDLL(None).syscall(EXIT, 0)\n");
}

// A JavaScript string literal of `text`.
QString jsString(const QString& text)
{
    QString out = QStringLiteral("\"");
    for (const QChar c : text) {
        if (c == u'\\' || c == u'"')
            out += u'\\';
        if (c == u'\n')
            out += QStringLiteral("\\n");
        else
            out += c;
    }
    return out + u'"';
}

} // namespace

class TestSecurity : public QObject {
    Q_OBJECT

    QByteArray m_canary;
    TempDatabase m_data;
    std::unique_ptr<UsageLedger> m_ledger;
    std::unique_ptr<CreditsAccount> m_credits;
    std::shared_ptr<LocalProvider> m_coldProvider, m_pooledProvider;
    std::unique_ptr<Executor> m_cold, m_pooled;
    SandboxOptions m_options;

    Executor& executor(Path path) { return path == Path::Cold ? *m_cold : *m_pooled; }

    std::unique_ptr<NotebookSession> m_session; // Path::Session's, new for each test function

    ExecutionResult run(Path path, Language language, const QString& code, int deadlineSeconds = 30)
    {
        if (path == Path::Session) {
            if (!m_session)
                m_session = std::make_unique<NotebookSession>(m_pooled.get());
            return waitForResult(m_session->execute(language, code, QStringLiteral("attack")));
        }
        int before = 0;
        if (path == Path::Prestarted) {
            [&] { QVERIFY2(m_pooledProvider->pool().waitUntilFull(120000), "the pool did not fill"); }();
            before = m_pooledProvider->pooledCreates();
        }
        ExecutionRequest request = ExecutionRequest::adHoc(language, code, QStringLiteral("attack"));
        request.deadlineSeconds = deadlineSeconds;
        ExecutionResult r = executor(path).run(request);
        if (path == Path::Prestarted)
            [&] { QVERIFY2(m_pooledProvider->pooledCreates() == before + 1, "the run did not take a pre-started sandbox"); }();
        return r;
    }

    static void addPaths(const char* name)
    {
        QTest::newRow((QByteArray(name) + "/cold").constData()) << int(Path::Cold);
        QTest::newRow((QByteArray(name) + "/pre-started").constData()) << int(Path::Prestarted);
    }

    void pathsOnly()
    {
        QTest::addColumn<int>("path");
        addPaths("local");
    }

    // The rows of a table of attacks: each row is (path, language, code).
    static void attackColumns()
    {
        QTest::addColumn<int>("path");
        QTest::addColumn<int>("language");
        QTest::addColumn<QString>("code");
    }
    static void attack(const char* name, Language language, const QString& code, bool inSession = false)
    {
        for (Path path : {Path::Cold, Path::Prestarted, Path::Session}) {
            if (path == Path::Session && !inSession)
                continue;
            const char* suffix = path == Path::Cold ? "/cold" : path == Path::Prestarted ? "/pre-started" : "/session";
            QTest::newRow((QByteArray(name) + suffix).constData()) << int(path) << int(language) << code;
        }
    }

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty())
            QSKIP("bubblewrap is not installed");
        // A secret in the app's environment, as VERCEL_TOKEN or a cloud credential would be.
        m_canary = "canary-" + QByteArray::number(QRandomGenerator::system()->generate64(), 16);
        qputenv(kCanaryName.constData(), m_canary);
        QVERIFY2(m_data.open(), qPrintable(m_data.error()));
        m_ledger = std::make_unique<UsageLedger>(m_data.db());
        m_credits = std::make_unique<CreditsAccount>(m_data.db());
        m_options.memoryLimitMb = 512;
        m_coldProvider = std::make_shared<LocalProvider>();
        m_coldProvider->setPoolSize(0);
        m_pooledProvider = std::make_shared<LocalProvider>();
        m_pooledProvider->setPoolSize(1);
        m_pooledProvider->setPoolOptions(m_options);
        m_pooledProvider->startPool();
        m_pooledProvider->warmLanguage(Language::JavaScript);
        ExecutorConfig config;
        config.sandbox = m_options;
        m_cold = std::make_unique<Executor>(m_coldProvider, m_ledger.get(), nullptr, m_credits.get());
        m_cold->setConfig(config);
        m_pooled = std::make_unique<Executor>(m_pooledProvider, m_ledger.get(), nullptr, m_credits.get());
        m_pooled->setConfig(config);
    }

    void init() { m_session.reset(); }
    void cleanup() { m_session.reset(); }

    void cleanupTestCase()
    {
        m_session.reset();
        m_pooled.reset();
        m_cold.reset();
        m_pooledProvider.reset();
        m_coldProvider.reset();
        m_credits.reset();
        m_ledger.reset();
        m_data.close();
    }

    // 1. Nothing of the host's environment reaches the sandbox. (Before: /proc/1/environ of bwrap's
    // PID 1 held the app's whole environment, on both paths.)
    void hostEnvironmentIsUnreachable_data() { pathsOnly(); }
    void hostEnvironmentIsUnreachable()
    {
        QFETCH(int, path);
        const ExecutionResult r = run(Path(path), Language::Python, QStringLiteral(
            "import os\n"
            "seen = []\n"
            "for pid in [p for p in os.listdir('/proc') if p.isdigit()] + ['self', 'thread-self']:\n"
            "    for f in ('environ', 'cmdline', 'status', 'maps', 'task/%s/environ' % pid):\n"
            "        try:\n"
            "            seen.append(open('/proc/%s/%s' % (pid, f), 'rb').read().decode('latin-1'))\n"
            "        except OSError as e:\n"
            "            seen.append('%s/%s: %s' % (pid, f, e.strerror))\n"
            "seen.append(repr(dict(os.environ)))\n"
            "print('\\n'.join(seen))\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QVERIFY2(!r.stdoutText.toUtf8().contains(m_canary), "the app's environment is readable from the sandbox");
        QVERIFY2(!r.stdoutText.contains(QString::fromLatin1(kCanaryName)), qPrintable(r.stdoutText.left(2000)));
        QVERIFY2(r.stdoutText.contains(QStringLiteral("1/environ: Permission denied")), qPrintable(r.stdoutText.left(2000)));
    }

    // ... and the host processes that start it (setpriv, bwrap) carry none of it either.
    void hostProcessesGetAMinimalEnvironment_data() { pathsOnly(); }
    void hostProcessesGetAMinimalEnvironment()
    {
        QFETCH(int, path);
        if (Path(path) == Path::Prestarted)
            [&] { QVERIFY(m_pooledProvider->pool().waitUntilFull(120000)); }();
        Run* handle = executor(Path(path)).start(ExecutionRequest::adHoc(
            Language::Python, QStringLiteral("import time\nprint('up', flush=True)\ntime.sleep(2)"), QStringLiteral("sleeper")));
        QElapsedTimer t;
        t.start();
        int looked = 0;
        while (!handle->isFinished() && t.elapsed() < 20000) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
            for (int pid : childProcessesOf(::getpid())) {
                const QByteArray env = readProcFile(pid, "environ");
                if (env.isEmpty())
                    continue;
                ++looked;
                QVERIFY2(!env.contains(m_canary) && !env.contains(kCanaryName),
                         qPrintable(QStringLiteral("pid %1 (%2) has the app's environment").arg(pid).arg(QString::fromUtf8(readProcFile(pid, "comm")).trimmed())));
            }
        }
        QVERIFY(handle->isFinished());
        QVERIFY2(looked > 0, "no sandbox process was seen");
        QCOMPARE(handle->result().status, RunStatus::Success);
        handle->deleteLater();
    }

    // 2. The snippet cannot read or write PID 1, signal it or take its descriptors. (Before:
    // PID 1 was bwrap, dumpable with the snippet's uid: /proc/1/mem was writable.)
    void pid1IsUntouchable_data() { pathsOnly(); }
    void pid1IsUntouchable()
    {
        QFETCH(int, path);
        const ExecutionResult r = run(Path(path), Language::Python, QStringLiteral(
            "import ctypes, os, signal, errno\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "def attempt(name, f):\n"
            "    try:\n"
            "        f(); print(name, 'POSSIBLE')\n"
            "    except OSError as e:\n"
            "        print(name, 'denied', errno.errorcode.get(e.errno))\n"
            "def sys(name, *args):\n"
            "    rc = libc.syscall(*args)\n"
            "    print(name, 'POSSIBLE' if rc >= 0 else 'denied ' + errno.errorcode.get(ctypes.get_errno(), '?'))\n"
            "attempt('mem-write', lambda: open('/proc/1/mem', 'r+b'))\n"
            "attempt('mem-read', lambda: open('/proc/1/mem', 'rb').read(1))\n"
            "attempt('environ', lambda: open('/proc/1/environ', 'rb').read())\n"
            "attempt('fd', lambda: os.listdir('/proc/1/fd'))\n"
            "attempt('root', lambda: os.listdir('/proc/1/root/'))\n"
            "sys('ptrace', 101, 16, 1, 0, 0)\n"               // ptrace(PTRACE_ATTACH, 1)
            "pidfd = libc.syscall(434, 1, 0)\n"                // pidfd_open(1)
            "sys('pidfd_getfd', 438, pidfd, 0, 0)\n"
            "sys('process_vm_readv', 310, 1, 0, 0, 0, 0, 0)\n"
            "os.kill(1, signal.SIGKILL); os.kill(1, signal.SIGTERM); os.kill(1, signal.SIGSTOP)\n"
            "print('pid1 alive', os.path.exists('/proc/1/status'), open('/proc/1/status').read().split()[1])\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QVERIFY2(!r.stdoutText.contains(QStringLiteral("POSSIBLE")), qPrintable(r.stdoutText));
        for (const char* name : {"mem-write", "mem-read", "environ", "fd", "root", "ptrace", "pidfd_getfd", "process_vm_readv"})
            QVERIFY2(r.stdoutText.contains(QLatin1String(name) + QStringLiteral(" denied")), qPrintable(r.stdoutText));
        QVERIFY2(r.stdoutText.contains(QStringLiteral("pid1 alive True init")), qPrintable(r.stdoutText));
        QCOMPARE(r.costMicros, 50000); // a normal, billed run
    }

    // A sandbox never outlives its run: double-forked daemons, ignored signals and new sessions
    // included, whether the run ends, times out or is cancelled.
    void nothingOutlivesTheRun_data()
    {
        attackColumns();
        const QString daemon = QStringLiteral(
            "import os, signal, subprocess, sys, time\n"
            "if os.fork() == 0:\n"
            "    os.setsid()\n"
            "    if os.fork() == 0:\n"
            "        for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):\n"
            "            signal.signal(s, signal.SIG_IGN)\n"
            "        os.execv('/bin/sleep', ['MARKER', '300'])\n"
            "    os._exit(0)\n"
            "time.sleep(0.3)\n"
            "up = any(b'MARKER' in open('/proc/%s/cmdline' % p, 'rb').read() for p in os.listdir('/proc') if p.isdigit())\n"
            "print('survivor up' if up else 'survivor missing', flush=True)\n");
        attack("daemon, run ends", Language::Python, QString(daemon).replace("MARKER", survivorMarker()) + "print('bye')\n");
        attack("daemon, timeout", Language::Python,
               QString(daemon).replace("MARKER", survivorMarker()) + "while True: pass\n");
        attack("node detached child", Language::JavaScript, QStringLiteral(
            "const { spawn } = require('node:child_process');\n"
            "spawn('/bin/sleep', ['300'], { argv0: 'MARKER', detached: true, stdio: 'ignore' }).unref();\n"
            "await new Promise((r) => setTimeout(r, 300));\n"
            "const fs = require('node:fs');\n"
            "const up = fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).some((p) => {\n"
            "  try { return fs.readFileSync(`/proc/${p}/cmdline`, 'latin1').includes('MARKER'); } catch { return false; } });\n"
            "console.log(up ? 'survivor up' : 'survivor missing');\n").replace("MARKER", survivorMarker()));
    }
    void nothingOutlivesTheRun()
    {
        QFETCH(int, path);
        QFETCH(int, language);
        QFETCH(QString, code);
        const bool timesOut = code.contains("while True");
        const ExecutionResult r = run(Path(path), Language(language), code, timesOut ? 2 : 30);
        QVERIFY2(r.status == (timesOut ? RunStatus::Timeout : RunStatus::Success), qPrintable(describe(r)));
        QVERIFY2(r.stdoutText.contains(QStringLiteral("survivor up")), qPrintable(describe(r))); // the attack ran
        QVERIFY(r.cleanupConfirmed);
        // Cleanup is confirmed once PID 1 has exited, which the kernel allows only after every other
        // process of its namespace is gone: nothing may be left by the time the result is there.
        QCOMPARE(hostProcessesWith(survivorMarker().toUtf8()), 0);
    }

    // 3/4. Billing follows what the program did: once its program started, any end without a valid
    // result is the program's error, billed, with how it ended. (Before: all of these were
    // "infrastructure errors" at $0.)
    void billingFollowsWhatTheProgramDid_data()
    {
        attackColumns();
        attack("os._exit after the work", Language::Python, QStringLiteral("print('work done')\nimport os\nos._exit(0)"));
        attack("SIGKILL itself", Language::Python, QStringLiteral("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"));
        attack("garbage on the result fd", Language::Python, QStringLiteral("import os\nos.write(3, b'not a frame\\n')"));
        attack("a fake bwrap error", Language::Python, QStringLiteral(
            "import os, sys\nsys.stderr.write('bwrap: Can\\'t mount proc on /newroot/proc: Operation not permitted\\n')\n"
            "sys.stderr.flush()\nos._exit(1)"));
        attack("a forged empty result", Language::Python, QStringLiteral(
            "import os\nos.write(3, b'{\"name\": \"result.json\", \"size\": 2}\\n{}')\nos._exit(0)"));
        attack("node kills itself", Language::JavaScript, QStringLiteral("console.log('work done');\nprocess.kill(process.pid, 'SIGKILL');"));
        attack("node garbage on the result fd", Language::JavaScript, QStringLiteral(
            "const fs = require('node:fs');\n"
            "for (const fd of fs.readdirSync('/proc/self/fd')) {\n"
            "  try { if (fs.readlinkSync('/proc/self/fd/' + fd).startsWith('pipe:') && Number(fd) > 2) fs.writeSync(Number(fd), 'junk\\n'); } catch {}\n"
            "}\n"
            "process.reallyExit(0);\n"));
    }
    void billingFollowsWhatTheProgramDid()
    {
        QFETCH(int, path);
        QFETCH(int, language);
        QFETCH(QString, code);
        const ExecutionResult r = run(Path(path), Language(language), code);
        QVERIFY2(r.status == RunStatus::Error, qPrintable(describe(r)));
        QVERIFY2(r.costMicros == 50000, qPrintable(describe(r)));
        QVERIFY(r.error.has_value());
        QVERIFY2(r.error->name == QStringLiteral("ResultError"), qPrintable(describe(r)));
        const auto entry = m_ledger->find(r.runId);
        QVERIFY(entry.has_value());
        QCOMPARE(entry->costMicros, 50000);
    }

    // Credits are reserved before a sandbox exists: runs started at once against a balance for one
    // cannot all run. (Before: all four ran; three were recorded at $0.)
    void creditsCannotBeOverspent_data() { pathsOnly(); }
    void creditsCannotBeOverspent()
    {
        QFETCH(int, path);
        m_credits->setEnabled(true);
        QVERIFY(m_credits->balanceMicros() < 50000); // the last row spent it
        m_credits->topUp(50000 - m_credits->balanceMicros());
        QCOMPARE(m_credits->balanceMicros(), 50000LL); // a balance for one run
        if (Path(path) == Path::Prestarted)
            [&] { QVERIFY(m_pooledProvider->pool().waitUntilFull(120000)); }();
        QList<Run*> handles;
        for (int i = 0; i < 4; ++i)
            handles << executor(Path(path)).start(ExecutionRequest::adHoc(
                Language::Python, QStringLiteral("import time\ntime.sleep(0.5)\nprint('ran')"), QStringLiteral("paid")));
        QElapsedTimer t;
        t.start();
        auto allDone = [&] {
            for (Run* h : handles)
                if (!h->isFinished())
                    return false;
            return true;
        };
        while (!allDone() && t.elapsed() < 60000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QVERIFY(allDone());
        int ran = 0, refused = 0;
        for (Run* h : handles) {
            const ExecutionResult r = h->result();
            if (r.status == RunStatus::Success && r.costMicros == 50000)
                ++ran;
            else if (r.status == RunStatus::InfrastructureError && r.reason.startsWith(QStringLiteral("refused")))
                ++refused;
            else
                QFAIL(qPrintable(describe(r)));
            h->deleteLater();
        }
        QCOMPARE(ran, 1);
        QCOMPARE(refused, 3);
        QCOMPARE(m_credits->balanceMicros(), 0LL);
        m_credits->setEnabled(false);
    }

    // 3. One process budget per sandbox: a fork bomb in one sandbox does not starve another.
    void forkBombDoesNotStarveAnotherSandbox_data() { pathsOnly(); }
    void forkBombDoesNotStarveAnotherSandbox()
    {
        QFETCH(int, path);
        if (Path(path) == Path::Prestarted)
            [&] { QVERIFY(m_pooledProvider->pool().waitUntilFull(120000)); }();
        Run* bomb = executor(Path(path)).start(ExecutionRequest::adHoc(Language::Python, QStringLiteral(
            "import os, time\n"
            "n = 0\n"
            "try:\n"
            "    while True:\n"
            "        if os.fork() == 0:\n"
            "            time.sleep(6); os._exit(0)\n"
            "        n += 1\n"
            "except OSError as e:\n"
            "    print('bomb stopped at', n, e.strerror, flush=True)\n"
            "time.sleep(4)\n"), QStringLiteral("bomb")));
        QElapsedTimer t;
        t.start();
        while (!bomb->isFinished() && t.elapsed() < 1500)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        // The other sandbox is cold: the pool's refill waits a second.
        const ExecutionResult other = run(Path::Cold, Language::Python, QStringLiteral(
            "import os\nkids = []\nfor i in range(40):\n    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n"
            "    kids.append(pid)\nfor k in kids:\n    os.waitpid(k, 0)\nprint('forked', len(kids))"));
        QVERIFY2(other.status == RunStatus::Success && other.stdoutText.contains(QStringLiteral("forked 40")), qPrintable(describe(other)));
        while (!bomb->isFinished() && t.elapsed() < 30000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        const ExecutionResult b = bomb->result();
        QVERIFY2(b.stdoutText.contains(QStringLiteral("bomb stopped at")), qPrintable(describe(b)));
        bomb->deleteLater();
    }

    // 3. One memory limit for the whole sandbox (512 MiB here), whatever holds the memory: forked
    // processes, node's Buffers and child processes, shared mappings, tmpfs files. (Before: a
    // per-process RLIMIT_AS for Python and nothing at all for node.)
    void memoryLimitIsForTheWholeSandbox_data()
    {
        attackColumns();
        attack("4 forked processes of 200 MiB", Language::Python, QStringLiteral(
            "import os, time\n"
            "for i in range(4):\n"
            "    if os.fork() == 0:\n"
            "        b = bytearray(200 << 20)\n"
            "        for j in range(0, len(b), 4096): b[j] = 1\n"
            "        time.sleep(20); os._exit(0)\n"
            "time.sleep(20)\n"));
        attack("shared anonymous mappings", Language::Python, QStringLiteral(
            "import mmap, os, time\n"
            "for i in range(3):\n"
            "    if os.fork() == 0:\n"
            "        m = mmap.mmap(-1, 250 << 20, mmap.MAP_SHARED)\n"
            "        for j in range(0, len(m), 4096): m[j] = 1\n"
            "        time.sleep(20); os._exit(0)\n"
            "time.sleep(20)\n"));
        attack("tmpfs files and memory", Language::Python, QStringLiteral(
            "import time\n"
            "for path in ('/tmp/a', '/tmp/b', '/sandpad/c'):\n"
            "    with open(path, 'wb') as f:\n"
            "        for i in range(200): f.write(b'x' * (1 << 20))\n"
            "time.sleep(20)\n"));
        attack("node Buffers", Language::JavaScript, QStringLiteral(
            "const held = [];\n"
            "for (let i = 0; i < 40; i++) { held.push(Buffer.alloc(32 << 20, 1)); }\n"
            "await new Promise((r) => setTimeout(r, 20000));\n"));
        attack("node child processes", Language::JavaScript, QStringLiteral(
            "const { spawn } = require('node:child_process');\n"
            "for (let i = 0; i < 4; i++)\n"
            "  spawn(process.execPath, ['-e', 'const b = Buffer.alloc(200 << 20, 1); setTimeout(() => {}, 20000)'], { stdio: 'ignore' });\n"
            "await new Promise((r) => setTimeout(r, 20000));\n"));
    }
    void memoryLimitIsForTheWholeSandbox()
    {
        QFETCH(int, path);
        QFETCH(int, language);
        QFETCH(QString, code);
        // (Not stopped at its limit, the snippet would sleep 20 s and succeed.)
        const ExecutionResult r = run(Path(path), Language(language), code, 60);
        QVERIFY2(r.status == RunStatus::Error && r.error && r.error->name == QStringLiteral("SandboxLimitError"),
                 qPrintable(describe(r)));
        QVERIFY2(r.error->value.contains(QStringLiteral("more than 512 MiB")), qPrintable(r.error->value));
        QCOMPARE(r.costMicros, 50000); // the program's own error
        QVERIFY(r.cleanupConfirmed);
    }

    // ... and a program under it is left alone (copy-on-write pages after fork are not counted
    // twice), and memfds cannot be made to hide memory.
    void memoryUnderTheLimitIsFine_data() { pathsOnly(); }
    void memoryUnderTheLimitIsFine()
    {
        QFETCH(int, path);
        const ExecutionResult r = run(Path(path), Language::Python, QStringLiteral(
            "import ctypes, errno, os, time\n"
            "data = bytearray(100 << 20)\n"
            "for j in range(0, len(data), 4096): data[j] = 1\n"
            "kids = []\n"
            "for i in range(3):\n"
            "    pid = os.fork()\n"
            "    if pid == 0:\n"
            "        mine = bytearray(40 << 20)\n"
            "        for j in range(0, len(mine), 4096): mine[j] = 1\n"
            "        time.sleep(1); os._exit(0)\n"
            "    kids.append(pid)\n"
            "for k in kids: os.waitpid(k, 0)\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "rc = libc.syscall(319, b'x', 0)\n"
            "print('memfd', 'POSSIBLE' if rc >= 0 else errno.errorcode.get(ctypes.get_errno()))\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QVERIFY2(r.stdoutText.contains(QStringLiteral("memfd ENOSYS")), qPrintable(r.stdoutText));
    }

    // ---- The process model (issue 26). A thread group is live while any of its threads is: a
    // process whose main thread ended alone (the raw exit system call) shows Z and no memory in
    // /proc/PID/status, yet runs, holds memory and forks.

    // 1. Its memory counts (before: skipped as "a zombie"; 800 MiB held under 512 MiB and the
    // run succeeded), on every path, also when node starts it.
    void aProcessWhoseLeaderEndedAloneIsCounted_data()
    {
        attackColumns();
        attack("python", Language::Python, leaderEndsAlone(QStringLiteral(
                   "        b = bytearray(200 << 20)\n"
                   "        for j in range(0, len(b), 4096): b[j] = 1\n"
                   "        time.sleep(60)\n"), 4) + QStringLiteral("time.sleep(20)\nprint('not stopped')\n"), true);
        attack("node through python3", Language::JavaScript, QStringLiteral(
                   "const { spawn } = require('node:child_process');\n"
                   "spawn('python3', ['-c', %1], { stdio: 'ignore' }).unref();\n"
                   "await new Promise((r) => setTimeout(r, 20000));\n"
                   "console.log('not stopped');\n").arg(jsString(leaderEndsAlone(QStringLiteral(
                   "        b = bytearray(200 << 20)\n"
                   "        for j in range(0, len(b), 4096): b[j] = 1\n"
                   "        time.sleep(60)\n"), 4) + QStringLiteral("time.sleep(60)\n"))), true);
        // Other states of a process the host must read as live and count: stopped (T), an
        // orphan in a new session (PID 1 adopts it), a child forked by a thread of a group
        // whose leader ended, a process running a program it cannot read (non-dumpable).
        attack("stopped", Language::Python, QStringLiteral(
                   "import os, signal, time\n"
                   "for i in range(4):\n"
                   "    if os.fork() == 0:\n"
                   "        b = bytearray(200 << 20)\n"
                   "        for j in range(0, len(b), 4096): b[j] = 1\n"
                   "        os.kill(os.getpid(), signal.SIGSTOP)\n"
                   "        os._exit(0)\n"
                   "time.sleep(20)\nprint('not stopped')\n"), true);
        attack("orphans in new sessions", Language::Python, QStringLiteral(
                   "import os, time\n"
                   "for i in range(4):\n"
                   "    if os.fork() == 0:\n"
                   "        os.setsid()\n"
                   "        if os.fork() == 0:\n"
                   "            b = bytearray(200 << 20)\n"
                   "            for j in range(0, len(b), 4096): b[j] = 1\n"
                   "            time.sleep(60)\n"
                   "        os._exit(0)\n"
                   "time.sleep(20)\nprint('not stopped')\n"), true);
        attack("children of a thread, leader ended", Language::Python, QStringLiteral(
                   "import ctypes, os, platform, threading, time\n"
                   "EXIT = 60 if platform.machine() == 'x86_64' else 93\n"
                   "if os.fork() == 0:\n"
                   "    def spawn():\n"
                   "        for i in range(4):\n"
                   "            if os.fork() == 0:\n"
                   "                b = bytearray(200 << 20)\n"
                   "                for j in range(0, len(b), 4096): b[j] = 1\n"
                   "                time.sleep(60); os._exit(0)\n"
                   "        time.sleep(60); os._exit(0)\n"
                   "    threading.Thread(target=spawn).start()\n"
                   "    ctypes.CDLL(None).syscall(EXIT, 0)\n"
                   "time.sleep(20)\nprint('not stopped')\n"), true);
        attack("a program it cannot read", Language::Python, QStringLiteral(
                   "import os, shutil, sys, time\n"
                   "shutil.copy(os.path.realpath(sys.executable), '/tmp/hidden')\n"
                   "os.chmod('/tmp/hidden', 0o111)\n"
                   "for i in range(4):\n"
                   "    if os.fork() == 0:\n"
                   "        os.execv('/tmp/hidden', ['hidden', '-c', 'import time\\nb = bytearray(200 << 20)\\n"
                   "for j in range(0, len(b), 4096): b[j] = 1\\ntime.sleep(60)'])\n"
                   "time.sleep(20)\nprint('not stopped')\n"), true);
    }
    void aProcessWhoseLeaderEndedAloneIsCounted()
    {
        QFETCH(int, path);
        QFETCH(int, language);
        QFETCH(QString, code);
        const ExecutionResult r = run(Path(path), Language(language), code, 60);
        QVERIFY2(r.status == RunStatus::Error && r.error && r.error->name == QStringLiteral("SandboxLimitError"),
                 qPrintable(describe(r)));
        QVERIFY2(r.error->value.contains(QStringLiteral("more than 512 MiB")), qPrintable(r.error->value));
        QCOMPARE(r.costMicros, 50000);
        QVERIFY(r.cleanupConfirmed);
    }

    // 2. A child of a process whose leader ended alone is killed after the execution and the
    // execution is billed (before: the sweep did not see the parent, refused to kill the child as
    // not of the sandbox, and every execution of the session was an infrastructure error at $0).
    void aSessionKillsWhatALeaderlessProcessStarted_data()
    {
        QTest::addColumn<int>("language");
        QTest::addColumn<QString>("code");
        const QString python = leaderEndsAlone(QStringLiteral(
            "        if os.fork() == 0:\n"
            "            os.execv('/bin/sleep', ['MARKER', '300'])\n"
            "        time.sleep(300)\n"), 1).replace(QStringLiteral("MARKER"), survivorMarker())
            + QStringLiteral("time.sleep(0.5)\nprint('started')\n");
        QTest::newRow("python") << int(Language::Python) << python;
        QTest::newRow("node through python3") << int(Language::JavaScript) << QStringLiteral(
            "const { spawnSync } = require('node:child_process');\n"
            "spawnSync('python3', ['-c', %1], { stdio: 'ignore' });\n"
            "console.log('started');\n").arg(jsString(python.left(python.indexOf(QStringLiteral("time.sleep(0.5)")))
                                                     + QStringLiteral("time.sleep(0.5)\n")));
    }
    void aSessionKillsWhatALeaderlessProcessStarted()
    {
        QFETCH(int, language);
        QFETCH(QString, code);
        for (int i = 0; i < 2; ++i) { // and the next execution too
            const ExecutionResult r = run(Path::Session, Language(language), code);
            QVERIFY2(r.status == RunStatus::Success && r.stdoutText.contains(QStringLiteral("started")), qPrintable(describe(r)));
            QVERIFY2(r.cleanupConfirmed, qPrintable(describe(r)));
            QCOMPARE(r.costMicros, 50000);
            QCOMPARE(hostProcessesWith(survivorMarker().toUtf8()), 0);
        }
        const ExecutionResult state = run(Path::Session, Language(language), QStringLiteral("1 + 1"));
        QCOMPARE(state.result.value_or(QString()), QStringLiteral("2")); // the same session goes on
    }

    // 3. Such a process cannot watch a later execution (before: it survived every later one,
    // each billed "cleaned up", and read a file a later cell wrote and deleted).
    void aLeftoverCannotWatchALaterExecution()
    {
        const ExecutionResult first = run(Path::Session, Language::Python, leaderEndsAlone(QStringLiteral(
            "        while True:\n"
            "            try:\n"
            "                data = open('/tmp/secret').read()\n"
            "                open('/tmp/seen', 'w').write(data)\n"
            "            except OSError:\n"
            "                pass\n"
            "            time.sleep(0.01)\n"), 1) + QStringLiteral("time.sleep(0.3)\nprint('watching')\n"));
        QVERIFY2(first.status == RunStatus::Success && first.cleanupConfirmed, qPrintable(describe(first)));
        const ExecutionResult second = run(Path::Session, Language::Python, QStringLiteral(
            "import os, time\nopen('/tmp/secret', 'w').write('the later cell')\ntime.sleep(1)\nos.remove('/tmp/secret')\n"));
        QVERIFY2(second.status == RunStatus::Success, qPrintable(describe(second)));
        const ExecutionResult third = run(Path::Session, Language::Python, QStringLiteral("import os\nos.path.exists('/tmp/seen')"));
        QCOMPARE(third.result.value_or(QString()), QStringLiteral("False"));
    }

    // 4. The memory limit holds between executions too: a thread an execution left running
    // grows the sandbox while the session is idle, and the session ends with the usual message
    // (before: nothing watched it until the next execution).
    void aSessionHasItsMemoryLimitWhileIdle_data()
    {
        QTest::addColumn<int>("language");
        QTest::addColumn<QString>("code");
        QTest::newRow("python") << int(Language::Python) << QStringLiteral(
            "import threading, time\n"
            "def grow():\n"
            "    time.sleep(0.5)\n"
            "    global held\n"
            "    held = []\n"
            "    try:\n" // the address-space limit stops this first: files in the tmpfs do the rest
            "        for i in range(12):\n"
            "            b = bytearray(64 << 20)\n"
            "            for j in range(0, len(b), 4096): b[j] = 1\n"
            "            held.append(b)\n"
            "    except MemoryError:\n"
            "        pass\n"
            "    for i in range(6):\n"
            "        with open('/tmp/fill%d' % i, 'wb') as f:\n"
            "            for j in range(64): f.write(b'x' * (1 << 20))\n"
            "    time.sleep(3600)\n"
            "threading.Thread(target=grow, daemon=True).start()\n"
            "print('armed')\n");
        QTest::newRow("javascript") << int(Language::JavaScript) << QStringLiteral(
            "globalThis.held = [];\n"
            "setTimeout(() => { for (let i = 0; i < 12; i++) globalThis.held.push(Buffer.alloc(64 << 20, 1)); }, 500);\n"
            "console.log('armed');\n");
    }
    void aSessionHasItsMemoryLimitWhileIdle()
    {
        QFETCH(int, language);
        QFETCH(QString, code);
        m_session = std::make_unique<NotebookSession>(m_pooled.get());
        QSignalSpy ended(m_session.get(), &NotebookSession::sessionEnded);
        const int rows = m_ledger->entries().size();
        const ExecutionResult r = run(Path::Session, Language(language), code);
        QVERIFY2(r.status == RunStatus::Success && r.stdoutText.contains(QStringLiteral("armed")), qPrintable(describe(r)));
        QVERIFY(ended.wait(30000)); // a bound for the watchdog, not a timing check
        const QString why = ended.first().first().toString();
        QVERIFY2(why.contains(QStringLiteral("more than 512 MiB")), qPrintable(why));
        const QList<UsageEntry> entries = m_ledger->entries();
        QVERIFY(entries.size() > rows);
        QVERIFY2(entries.first().reason.contains(QStringLiteral("the memory limit")), qPrintable(entries.first().reason));
        // The next execution starts a new session.
        const ExecutionResult after = run(Path::Session, Language(language), QStringLiteral("1 + 1"));
        QVERIFY2(after.status == RunStatus::Success && after.result.value_or(QString()) == QStringLiteral("2"), qPrintable(describe(after)));
    }

    // One step further: no process of the sandbox can be traced (state t) - seccomp denies
    // ptrace, PTRACE_TRACEME included - so the host never meets a tracer holding a stray.
    void noProcessCanBeTraced_data() { QTest::addColumn<int>("path"); addPaths("local"); }
    void noProcessCanBeTraced()
    {
        QFETCH(int, path);
        const ExecutionResult r = run(Path(path), Language::Python, QStringLiteral(
            "import ctypes, errno, os\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    rc = libc.ptrace(0, 0, 0, 0)\n"
            "    os._exit(0 if rc == -1 and ctypes.get_errno() == errno.EPERM else 1)\n"
            "print('traceme', 'denied' if os.waitpid(pid, 0)[1] == 0 else 'POSSIBLE')\n"));
        QVERIFY2(r.status == RunStatus::Success && r.stdoutText.contains(QStringLiteral("traceme denied")), qPrintable(describe(r)));
    }

    // 6. Socket families outside the allow-list fail with EAFNOSUPPORT (before: AF_VSOCK sockets
    // could be created and bound; AF_ALG, AF_PACKET and the rest reached the kernel).
    void socketFamiliesAreAllowListed_data() { pathsOnly(); }
    void socketFamiliesAreAllowListed()
    {
        QFETCH(int, path);
        const ExecutionResult r = run(Path(path), Language::Python, QStringLiteral(
            "import ctypes, errno, socket\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "def fam(f, t=socket.SOCK_DGRAM):\n"
            "    rc = libc.socket(f, t, 0)\n"
            "    return 'ok' if rc >= 0 else errno.errorcode.get(ctypes.get_errno())\n"
            "def raw(f):\n"
            "    rc = libc.syscall(41, f, 1, 0)\n"
            "    return 'ok' if rc >= 0 else errno.errorcode.get(ctypes.get_errno())\n"
            "print('unix', fam(1), 'inet', fam(2), 'inet6', fam(10), 'netlink', fam(16, 3))\n"
            "print('vsock', fam(40, 1), 'alg', fam(38, 5), 'packet', fam(17, 3), 'tipc', fam(30), 'bluetooth', fam(31), 'key', fam(15, 3), 'xdp', fam(44, 3))\n"
            "print('big', fam(1000), 'negative', fam(-1), 'vsock-high-bits', raw((1 << 32) | 40))\n"
            "sp = (ctypes.c_int * 2)()\n"
            "print('socketpair-vsock', 'ok' if libc.socketpair(40, 1, 0, sp) >= 0 else errno.errorcode.get(ctypes.get_errno()))\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        const QString out = r.stdoutText;
        QVERIFY2(out.contains(QStringLiteral("unix ok inet ok inet6 ok netlink ok")), qPrintable(out));
        for (const char* denied : {"vsock EAFNOSUPPORT", "alg EAFNOSUPPORT", "packet EAFNOSUPPORT", "tipc EAFNOSUPPORT",
                                   "bluetooth EAFNOSUPPORT", "key EAFNOSUPPORT", "xdp EAFNOSUPPORT", "big EAFNOSUPPORT",
                                   "negative EAFNOSUPPORT", "vsock-high-bits EAFNOSUPPORT", "socketpair-vsock EAFNOSUPPORT"})
            QVERIFY2(out.contains(QLatin1String(denied)), qPrintable(out));
    }

    // 6. Network allowed: the internet through user-mode networking, but not the host's loopback
    // services or abstract sockets (before: the host's own network namespace).
    void networkAllowedKeepsTheHostOut_data() { pathsOnly(); }
    void networkAllowedKeepsTheHostOut()
    {
        QFETCH(int, path);
        const UserNetwork::Availability network = UserNetwork::availability();
        if (!network.available)
            QSKIP(qPrintable(QStringLiteral("no user-mode networking here: %1").arg(network.detail)));
        QTcpServer loopback;
        QVERIFY(loopback.listen(QHostAddress::LocalHost));
        const QString address = hostAddress();
        QTcpServer outside;
        const bool haveOutside = !address.isEmpty() && outside.listen(QHostAddress(address));
        QLocalServer abstractServer;
        abstractServer.setSocketOptions(QLocalServer::AbstractNamespaceOption);
        const QString abstractName = QStringLiteral("sandpad-security-%1").arg(::getpid());
        QVERIFY(abstractServer.listen(abstractName));

        SandboxOptions options = m_options;
        options.allowNetwork = true;
        ExecutorConfig config = m_cold->config();
        config.sandbox = options;
        std::shared_ptr<LocalProvider> provider = Path(path) == Path::Cold ? m_coldProvider : m_pooledProvider;
        Executor executor(provider, nullptr);
        executor.setConfig(config);
        const auto restore = qScopeGuard([&] { provider->setPoolOptions(m_options); });
        if (Path(path) == Path::Prestarted) {
            provider->setPoolOptions(options);
            QVERIFY(provider->pool().waitUntilFull(120000));
        }
        const int before = provider->pooledCreates();
        const QList<int> helpersBefore = ownNetworkHelpers(); // idle pre-started ones
        const ExecutionResult r = executor.run(ExecutionRequest::adHoc(Language::Python, QStringLiteral(
            "import socket\n"
            "def attempt(label, family, addr):\n"
            "    s = socket.socket(family, socket.SOCK_STREAM)\n"
            "    s.settimeout(3)\n"
            "    try:\n"
            "        s.connect(addr); s.sendall(b'x'); print(label, 'CONNECTED')\n"
            "    except OSError as e:\n"
            "        print(label, 'blocked', type(e).__name__)\n"
            "attempt('loopback', socket.AF_INET, ('127.0.0.1', %1))\n"
            "attempt('gateway', socket.AF_INET, ('10.0.2.2', %1))\n"
            "attempt('abstract', socket.AF_UNIX, '\\0%2')\n"
            "if '%3':\n"
            "    attempt('outside', socket.AF_INET, ('%3', %4))\n"
            "print('ifaces', sorted(n for _, n in socket.if_nameindex()))\n")
            .arg(loopback.serverPort()).arg(abstractName).arg(haveOutside ? address : QString())
            .arg(haveOutside ? outside.serverPort() : 0), QStringLiteral("net")));
        // The run's own networking helper is gone with it (the pool's other idle ones remain, and
        // the pool may already have started the next one).
        const QList<int> helpersAfter = ownNetworkHelpers();
        if (Path(path) == Path::Prestarted) {
            int gone = 0;
            for (int pid : helpersBefore)
                gone += helpersAfter.contains(pid) ? 0 : 1;
            QCOMPARE(gone, 1);
        } else {
            QCOMPARE(helpersAfter.size(), 0);
        }
        if (Path(path) == Path::Prestarted)
            QCOMPARE(provider->pooledCreates(), before + 1);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QVERIFY2(r.stdoutText.contains(QStringLiteral("loopback blocked")), qPrintable(r.stdoutText));
        QVERIFY2(r.stdoutText.contains(QStringLiteral("gateway blocked")), qPrintable(r.stdoutText));
        QVERIFY2(r.stdoutText.contains(QStringLiteral("abstract blocked")), qPrintable(r.stdoutText));
        QVERIFY2(r.stdoutText.contains(QStringLiteral("'tap0'")), qPrintable(r.stdoutText));
        if (haveOutside)
            QVERIFY2(r.stdoutText.contains(QStringLiteral("outside CONNECTED")), qPrintable(r.stdoutText));
        QCoreApplication::processEvents();
        QVERIFY(!loopback.hasPendingConnections());
        QVERIFY(!abstractServer.hasPendingConnections());
    }

    // 8. No host path shows inside (before: /proc/1/cmdline and mountinfo named the sandbox's host
    // folder), and calls that weaken the process are refused.
    void noHostPathsAndNoWeakeningCalls_data() { pathsOnly(); }
    void noHostPathsAndNoWeakeningCalls()
    {
        QFETCH(int, path);
        const ExecutionResult r = run(Path(path), Language::Python, QStringLiteral(
            "import ctypes, errno\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "print(open('/proc/self/mountinfo').read())\n"
            "print(open('/proc/1/cmdline').read().replace('\\0', ' '))\n"
            "def sys(name, *args):\n"
            "    rc = libc.syscall(*args)\n"
            "    print(name, 'POSSIBLE' if rc >= 0 else 'denied')\n"
            "sys('personality-no-aslr', 135, 0x0040000)\n"
            "sys('personality-exec-data', 135, 0x0400000)\n"
            "sys('modify_ldt', 154, 1, 0, 0)\n"
            "sys('memfd_secret', 447, 0)\n"
            "sys('shmget', 29, 0, 4096, 0o1600)\n"
            "sys('io_uring_setup', 425, 1, 0)\n"
            "sys('userfaultfd', 323, 0)\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        const QString out = r.stdoutText;
        QVERIFY2(!out.contains(QStringLiteral("POSSIBLE")), qPrintable(out));
        QVERIFY2(!out.contains(QDir::tempPath() + QStringLiteral("/")), qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral(SANDPAD_BINARY_DIR)), qPrintable(out));
        const QString home = QDir::homePath();
        if (home.size() > 1)
            QVERIFY2(!out.contains(home + u'/'), qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral("/sandpad-")), qPrintable(out));
    }

    // A GUI killed by a signal leaves no sandbox process and no folder behind, whatever moment it
    // dies at, on the pre-started and the cold path (before: idle sandboxes' /tmp/sandpad-*
    // folders stayed forever, and a kill during a sandbox's start could leave it running).
    void appKilledLeavesNothing_data()
    {
        QTest::addColumn<int>("path");
        QTest::addColumn<int>("delayMs");
        for (int delay : {0, 5, 15, 40, 120, 400, 1500})
            for (Path path : {Path::Cold, Path::Prestarted})
                QTest::newRow(QStringLiteral("%1 ms/%2").arg(delay).arg(path == Path::Cold ? "cold" : "pre-started").toUtf8().constData())
                    << int(path) << delay;
    }
    void appKilledLeavesNothing()
    {
        QFETCH(int, path);
        QFETCH(int, delayMs);
        // This suite's own pre-started sandboxes are children of this process too: none now.
        m_pooledProvider->setPoolSize(0);
        (void)QTest::qWaitFor([] { return childProcessesOf(::getpid()).isEmpty(); }, 120000); // one may still be importing
        for (int pid : childProcessesOf(::getpid()))
            qWarning("still a child: %d %s", pid, readProcFile(pid, "cmdline").replace('\0', ' ').left(300).constData());
        QVERIFY(childProcessesOf(::getpid()).isEmpty());
        // The "app" gets a temp folder of its own: whatever it leaves there is its own.
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        // This process is a child subreaper: whatever the child's sandboxes leave is reparented here.
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), tmp.path());
        child.setProcessEnvironment(env);
        child.setProgram(QCoreApplication::applicationFilePath());
        child.setArguments({QStringLiteral("--app"), Path(path) == Path::Cold ? QStringLiteral("cold") : QStringLiteral("pooled")});
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start();
        QVERIFY(child.waitForStarted(5000));
        if (delayMs >= 400) // the run is going: wait until the snippet is up
            child.waitForReadyRead(20000);
        QTest::qWait(delayMs); // the moment the app dies at: what this case varies, not a wait for an event
        ::kill(pid_t(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished(5000));
        QList<int> left;
        (void)QTest::qWaitFor([&left] {
            left = childProcessesOf(::getpid());
            return left.isEmpty();
        }, 3000);
        QStringList names;
        for (int pid : left) {
            names << QStringLiteral("%1 %2").arg(pid).arg(QString::fromUtf8(readProcFile(pid, "cmdline").replace('\0', ' ')).left(200));
            ::kill(pid, SIGKILL);
        }
        while (::waitpid(-1, nullptr, WNOHANG) > 0) {
        }
        QVERIFY2(left.isEmpty(), qPrintable(names.join(u'\n')));
        const QStringList folders = QDir(tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
        QVERIFY2(folders.isEmpty(), qPrintable(folders.join(u' ')));
    }

    // The attack that broke the old sandbox: rewrite PID 1's code through /proc/1/mem so that it
    // clears its parent-death signal and sleeps, then outlive the app. (Before: the patch worked,
    // and a process of the sandbox was still running after the app was killed.)
    void rewritingPid1DoesNotOutliveTheApp_data() { pathsOnly(); }
    void rewritingPid1DoesNotOutliveTheApp()
    {
        QFETCH(int, path);
        m_pooledProvider->setPoolSize(0); // its sandboxes are this process's children too
        QProcess child;
        child.setProgram(QCoreApplication::applicationFilePath());
        child.setArguments({QStringLiteral("--app"), Path(path) == Path::Cold ? QStringLiteral("cold") : QStringLiteral("pooled"),
                            QStringLiteral("exploit")});
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start();
        QVERIFY(child.waitForStarted(5000));
        QByteArray out;
        QElapsedTimer t;
        t.start();
        while (!out.contains("ready") && t.elapsed() < 60000 && child.state() == QProcess::Running) {
            child.waitForReadyRead(500);
            out += child.readAllStandardOutput();
        }
        QVERIFY2(out.contains("ready"), out.constData());
        ::kill(pid_t(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished(5000));
        // Until the sandbox's processes are gone (at once when PID 1's death takes them along); a
        // survivor keeps the count up until the wait gives up.
        (void)QTest::qWaitFor([] { return hostProcessesWith(exploitMarker(::getpid())) == 0; }, 5000);
        const int survivors = hostProcessesWith(exploitMarker(::getpid()));
        for (int pid : childProcessesOf(::getpid()))
            ::kill(pid, SIGKILL);
        while (::waitpid(-1, nullptr, WNOHANG) > 0) {
        }
        QCOMPARE(survivors, 0);
        QVERIFY2(out.contains("patch denied"), out.constData());
    }
};

// `test_security --app cold|pooled`: a stand-in for the app that the suite kills. It starts a
// provider (with its pool for "pooled"), runs a long snippet and prints "up" once it runs.
static int appMain(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const bool pooled = QString::fromLocal8Bit(argv[2]) == QStringLiteral("pooled");
    const bool exploit = argc > 3 && QByteArray(argv[3]) == "exploit";
    auto provider = std::make_shared<LocalProvider>();
    provider->setPoolSize(pooled ? 1 : 0);
    if (pooled) {
        provider->startPool();
        provider->warmLanguage(Language::JavaScript);
        provider->pool().waitUntilFull(60000);
    }
    Executor executor(provider, nullptr);
    const QString victim = QStringLiteral(
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    time.sleep(300)\n"
        "print('up', flush=True)\n"
        "time.sleep(300)\n");
    // x86_64: prctl(PR_SET_PDEATHSIG, 0), then pause() forever, written over PID 1's code at the
    // instruction after its current system call; an orphan's exit makes that call return.
    const QString rewrite = QStringLiteral(
        "import os, time\n"
        "try:\n"
        "    pc = int(open('/proc/1/syscall').read().split()[-1], 16)\n"
        "    with open('/proc/1/mem', 'r+b', buffering=0) as mem:\n"
        "        mem.seek(pc)\n"
        "        mem.write(bytes.fromhex('b89d000000bf0100000031f60f05b8220000000f05ebf7'))\n"
        "    print('patched PID 1', flush=True)\n"
        "except OSError as e:\n"
        "    print('patch denied:', e, flush=True)\n"
        "if os.fork() == 0:\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(0.5); os._exit(0)\n"
        "    os._exit(0)\n"
        "os.wait()\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    os.execv('/bin/sleep', ['MARKER', '120'])\n"
        "time.sleep(1)\n"
        "print('ready', flush=True)\n"
        "time.sleep(120)\n");
    Run* handle = executor.start(ExecutionRequest::adHoc(
        Language::Python, exploit ? QString(rewrite).replace("MARKER", QString::fromUtf8(exploitMarker(::getppid()))) : victim,
        QStringLiteral("victim")));
    QObject::connect(handle, &Run::output, &app, [](OutputStream, const QString& text) {
        fputs(qPrintable(text), stdout);
        fflush(stdout);
    });
    return app.exec();
}

int main(int argc, char** argv)
{
    if (argc >= 3 && QByteArray(argv[1]) == "--app")
        return appMain(argc, argv);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    QCoreApplication app(argc, argv);
    TestSecurity test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_security.moc"
