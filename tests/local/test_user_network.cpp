// UserNetwork against real bubblewrap sandboxes: from inside, the host's loopback and abstract
// Unix sockets are out of reach, a non-loopback address of this host is reachable, DNS points at
// slirp; and the helper never outlives the sandbox, its owner object or the owner process.
#include "HeldSandbox.h"

#include "core/providers/local/UserNetwork.h"
#include "core/sandbox/ProviderError.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

using namespace sandpad;
using sandpad::test::HeldSandbox;
using sandpad::test::hostAddress;

namespace {

// Runs inside the sandbox: one JSON object, a result per argument.
//   tcp=HOST:PORT  connect and send "hello"; "connected" or the error
//   unix=NAME      connect to the abstract Unix socket NAME
//   file=PATH      the file's text
//   dns=NAME       the first IPv4 address getaddrinfo finds, or the error
const char* const kProbe = R"(
import json, socket, sys
out = {}
for arg in sys.argv[1:]:
    kind, _, target = arg.partition('=')
    try:
        if kind == 'tcp':
            host, port = target.rsplit(':', 1)
            s = socket.create_connection((host, int(port)), timeout=5)
            s.sendall(b'hello')
            s.close()
            out[arg] = 'connected'
        elif kind == 'unix':
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(5)
            s.connect('\0' + target)
            s.close()
            out[arg] = 'connected'
        elif kind == 'file':
            out[arg] = open(target).read()
        elif kind == 'dns':
            out[arg] = socket.getaddrinfo(target, 443, socket.AF_INET)[0][4][0]
    except Exception as e:
        out[arg] = type(e).__name__ + ': ' + str(e)
print(json.dumps(out))
)";

struct Listener {
    int fd = -1;
    int port = 0;
    ~Listener()
    {
        if (fd >= 0)
            ::close(fd);
    }
    // Something connected and sent data (accepted after the fact: the kernel queued it).
    QByteArray acceptedData() const
    {
        const int c = ::accept4(fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (c < 0)
            return {};
        char buf[64];
        pollfd p{c, POLLIN, 0};
        ::poll(&p, 1, 2000);
        const ssize_t n = ::read(c, buf, sizeof buf);
        ::close(c);
        return n > 0 ? QByteArray(buf, n) : QByteArray("(connected, no data)");
    }
};

// A TCP listener on `address`, port chosen by the kernel; non-blocking accept.
void listenTcp(Listener& l, const QByteArray& address)
{
    l.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    ::inet_pton(AF_INET, address.constData(), &a.sin_addr);
    socklen_t len = sizeof a;
    if (::bind(l.fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(l.fd, 8) != 0 ||
        ::getsockname(l.fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
        return;
    l.port = ntohs(a.sin_port);
}

// An abstract Unix socket (the kind X11 and D-Bus listen on), per network namespace.
void listenAbstract(Listener& l, const QByteArray& name)
{
    l.fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::memcpy(a.sun_path + 1, name.constData(), size_t(name.size()));
    const socklen_t len = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    if (::bind(l.fd, reinterpret_cast<sockaddr*>(&a), len) == 0 && ::listen(l.fd, 8) == 0)
        l.port = 1;
}

// Starts the network of a held sandbox; on failure the reason, with what bwrap said.
QString startFor(UserNetwork& net, HeldSandbox& sandbox)
{
    try {
        net.start(sandbox.childPid());
        return {};
    } catch (const std::exception& e) {
        sandbox.kill();
        return QString::fromUtf8(e.what()) + QStringLiteral(" / bwrap: ") + QString::fromUtf8(sandbox.err());
    }
}
#define START_NETWORK(net, sandbox)                                                                                    \
    do {                                                                                                               \
        const QString startError = startFor(net, sandbox);                                                             \
        QVERIFY2(startError.isEmpty(), qPrintable(startError));                                                        \
    } while (0)

// The behaviour before UserNetwork: "network allowed" was bwrap --share-net.
HeldSandbox::Options hostNetwork()
{
    HeldSandbox::Options options;
    options.shareNet = true;
    return options;
}

QStringList probeCommand(const QStringList& checks)
{
    return QStringList{QStringLiteral("/usr/bin/python3"), QStringLiteral("-c"), QString::fromUtf8(kProbe)} + checks;
}

QJsonObject parse(HeldSandbox& sandbox)
{
    const QByteArray out = sandbox.out();
    return QJsonDocument::fromJson(out.trimmed().split('\n').last()).object();
}

// Live (not zombie) processes named `comm` whose parent is `parent`.
int liveChildren(pid_t parent, const QByteArray& comm)
{
    int n = 0;
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = f.readAll();
        const qsizetype open = text.indexOf('('), close = text.lastIndexOf(')');
        if (open < 0 || close < 0)
            continue;
        const QList<QByteArray> fields = text.mid(close + 2).split(' ');
        if (text.mid(open + 1, close - open - 1) == comm && fields.size() > 1 && fields[0] != "Z" &&
            fields[1].toInt() == parent)
            ++n;
    }
    return n;
}

bool processGone(int pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return true;
    const QByteArray text = f.readAll();
    const QByteArray state = text.mid(text.lastIndexOf(')') + 2, 1);
    return state == "Z" || state == "X";
}

// A stand-in for slirp4netns that reports how it was started on stderr and exits 3 (or, with
// "sleep", never gets ready).
QString writeFakeHelper(const QTemporaryDir& dir, const QByteArray& mode)
{
    const QString path = dir.path() + QStringLiteral("/fake-slirp-") + QString::fromLatin1(mode);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write("#!/usr/bin/python3\n"
            "import os, sys, time\n"
            "if sys.argv[1:] == ['--version']:\n"
            "    print('slirp4netns version 0.0-fake'); sys.exit(0)\n");
    if (mode == "sleep")
        f.write("time.sleep(600)\n");
    f.write("def isopen(fd):\n"
            "    try:\n"
            "        os.fstat(fd); return True\n"
            "    except OSError:\n"
            "        return False\n"
            "status = dict(l.split(':', 1) for l in open('/proc/self/status').read().splitlines() if ':' in l)\n"
            "report = {'uid': os.getuid(), 'euid': os.geteuid(), 'gid': os.getgid(), 'groups': os.getgroups(),\n"
            "          'fds': [fd for fd in range(1024) if isopen(fd)], 'env': sorted(os.environ),\n"
            "          'nnp': status['NoNewPrivs'].strip(), 'capeff': status['CapEff'].strip(),\n"
            "          'capbnd': status['CapBnd'].strip(), 'args': sys.argv[1:],\n"
            "          'net': os.readlink('/proc/self/fd/5'), 'user': os.readlink('/proc/self/fd/6')}\n"
            "import json; sys.stderr.write('REPORT ' + json.dumps(report) + '\\n'); sys.exit(3)\n");
    f.close();
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                    QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                    QFileDevice::ExeOther);
    return path;
}

// `sandpad-test --owner`: the owner process of the SIGKILL test. Starts a held sandbox and its
// network, prints "helper=<pid> pid1=<pid>" and waits to be killed.
int ownerMain(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    HeldSandbox sandbox({QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("echo up; exec sleep 600")}, {});
    UserNetwork net;
    try {
        net.start(sandbox.childPid());
    } catch (const std::exception& e) {
        std::fprintf(stdout, "error %s\n", e.what());
        return 1;
    }
    sandbox.release();
    // The program runs: bwrap has armed its parent-death signals (see HeldSandbox::killPid1).
    for (int i = 0; i < 200 && !sandbox.out().contains("up"); ++i)
        sandbox.wait(50);
    std::fprintf(stdout, "helper=%d pid1=%d\n", net.helperPid(), sandbox.childPid());
    std::fflush(stdout);
    for (;;)
        ::pause();
}

} // namespace

class TestUserNetwork : public QObject {
    Q_OBJECT

    bool root = ::geteuid() == 0;

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(QStringLiteral("/usr/bin/bwrap")), "bubblewrap is needed");
        const UserNetwork::Availability a = UserNetwork::availability();
        // A normal user needs /dev/net/tun 0666 (udev's default on Debian; not on a bare VM).
        if (!a.available && !root && a.detail.contains(QLatin1String("/dev/net/tun")))
            QSKIP(qPrintable(a.detail));
        QVERIFY2(a.available, qPrintable(a.detail)); // packaging/install-deps.sh installs slirp4netns
        QVERIFY2(a.detail.startsWith(QStringLiteral("user-mode (slirp4netns ")), qPrintable(a.detail));
    }

    // The probes below detect exposure: in the host's network namespace (what "network allowed"
    // meant before, bwrap --share-net) they reach the host's loopback and abstract sockets.
    void sharedNetworkReachesHostLoopback()
    {
        Listener loopback, abstract;
        listenTcp(loopback, "127.0.0.1");
        const QByteArray name = "sandpad-test-" + QByteArray::number(::getpid()) + "-shared";
        listenAbstract(abstract, name);
        QVERIFY(loopback.port > 0 && abstract.port > 0);
        const QString tcp = QStringLiteral("tcp=127.0.0.1:%1").arg(loopback.port);
        const QString unix = QStringLiteral("unix=") + QString::fromLatin1(name);
        HeldSandbox sandbox(probeCommand({tcp, unix}), hostNetwork());
        QVERIFY(sandbox.childPid() > 0);
        sandbox.release();
        QVERIFY(sandbox.wait());
        const QJsonObject r = parse(sandbox);
        QCOMPARE(r.value(tcp).toString(), QStringLiteral("connected"));
        QCOMPARE(r.value(unix).toString(), QStringLiteral("connected"));
    }

    // (a) and (b): the host's 127.0.0.1 (directly, through slirp's gateway 10.0.2.2 and through
    // the host's own address) and its abstract Unix sockets are out of reach.
    void hostLoopbackAndAbstractSocketsUnreachable()
    {
        Listener loopback, abstract;
        listenTcp(loopback, "127.0.0.1");
        const QByteArray name = "sandpad-test-" + QByteArray::number(::getpid()) + "-private";
        listenAbstract(abstract, name);
        QVERIFY(loopback.port > 0 && abstract.port > 0);
        const QString direct = QStringLiteral("tcp=127.0.0.1:%1").arg(loopback.port);
        const QString gateway = QStringLiteral("tcp=10.0.2.2:%1").arg(loopback.port);
        const QString unix = QStringLiteral("unix=") + QString::fromLatin1(name);
        QStringList checks{direct, gateway, unix};
        const QByteArray address = hostAddress();
        const QString viaAddress = QStringLiteral("tcp=%1:%2").arg(QString::fromLatin1(address)).arg(loopback.port);
        if (!address.isEmpty())
            checks << viaAddress;

        HeldSandbox sandbox(probeCommand(checks), {});
        QVERIFY(sandbox.childPid() > 0);
        UserNetwork net;
        START_NETWORK(net, sandbox);
        QVERIFY(net.isRunning());
        sandbox.release();
        QVERIFY(sandbox.wait());
        const QJsonObject r = parse(sandbox);
        QVERIFY2(r.size() == checks.size(), sandbox.err().constData());
        for (const QString& check : checks)
            QVERIFY2(r.value(check).toString() != QLatin1String("connected"), qPrintable(check));
        // Refused by the sandbox's own loopback, not a timeout.
        QVERIFY2(r.value(direct).toString().startsWith(QLatin1String("ConnectionRefusedError")),
                 qPrintable(r.value(direct).toString()));
        QVERIFY2(r.value(unix).toString().startsWith(QLatin1String("ConnectionRefusedError")),
                 qPrintable(r.value(unix).toString()));
        QVERIFY(loopback.acceptedData().isEmpty());
        QVERIFY(abstract.acceptedData().isEmpty());
    }

    // (c): the way out works: a server on a non-loopback address of this host is reachable and
    // receives what the sandbox sends (without needing the internet).
    void hostAddressReachable()
    {
        const QByteArray address = hostAddress();
        if (address.isEmpty())
            QSKIP("this host has no non-loopback IPv4 address that is up");
        Listener server;
        listenTcp(server, address);
        QVERIFY(server.port > 0);
        const QString check = QStringLiteral("tcp=%1:%2").arg(QString::fromLatin1(address)).arg(server.port);

        HeldSandbox sandbox(probeCommand({check}), {});
        UserNetwork net;
        START_NETWORK(net, sandbox);
        sandbox.release();
        QVERIFY(sandbox.wait());
        QCOMPARE(parse(sandbox).value(check).toString(), QStringLiteral("connected"));
        QCOMPARE(server.acceptedData(), QByteArray("hello"));
        QVERIFY(net.readyMs() >= 0);
        qInfo("user-mode network ready %lld ms after start()", net.readyMs());
    }

    // Without the user network, the sandbox's own namespace has no way out at all.
    void noWayOutWithoutUserNetwork()
    {
        const QByteArray address = hostAddress();
        if (address.isEmpty())
            QSKIP("this host has no non-loopback IPv4 address that is up");
        Listener server;
        listenTcp(server, address);
        const QString check = QStringLiteral("tcp=%1:%2").arg(QString::fromLatin1(address)).arg(server.port);
        HeldSandbox sandbox(probeCommand({check}), {});
        sandbox.release();
        QVERIFY(sandbox.wait());
        QVERIFY(parse(sandbox).value(check).toString().contains(QLatin1String("unreachable")));
    }

    // (d): the sandbox's resolver is slirp's, and /etc/hosts names nothing of the host.
    void dnsConfigPointsAtSlirp()
    {
        QVERIFY(UserNetwork::resolvConf().contains("nameserver 10.0.2.3\n"));
        QCOMPARE(UserNetwork::resolvConf().count("nameserver"), 1);
        QVERIFY(!UserNetwork::hosts().contains(QSysInfo::machineHostName().toUtf8() + '\n'));
        QVERIFY(UserNetwork::hosts(QStringLiteral("sandbox")).contains("127.0.1.1\tsandbox\n"));
        HeldSandbox sandbox(probeCommand({QStringLiteral("file=/etc/resolv.conf"), QStringLiteral("file=/etc/hosts")}),
                            {.resolvConf = UserNetwork::resolvConf(), .hosts = UserNetwork::hosts()});
        UserNetwork net;
        START_NETWORK(net, sandbox);
        sandbox.release();
        QVERIFY(sandbox.wait());
        const QJsonObject r = parse(sandbox);
        QCOMPARE(r.value(QStringLiteral("file=/etc/resolv.conf")).toString().toUtf8(), UserNetwork::resolvConf());
        QCOMPARE(r.value(QStringLiteral("file=/etc/hosts")).toString().toUtf8(), UserNetwork::hosts());
    }

    // (d), live: a name resolves inside through 10.0.2.3 when the host resolves it.
    void dnsResolvesThroughSlirp()
    {
        const char* name = "deb.debian.org";
        addrinfo hints{};
        hints.ai_family = AF_INET;
        addrinfo* found = nullptr;
        if (::getaddrinfo(name, "443", &hints, &found) != 0)
            QSKIP("the host itself cannot resolve deb.debian.org");
        ::freeaddrinfo(found);
        const QString check = QStringLiteral("dns=") + QLatin1String(name);
        HeldSandbox sandbox(probeCommand({check}), {.resolvConf = UserNetwork::resolvConf(), .hosts = UserNetwork::hosts()});
        UserNetwork net;
        START_NETWORK(net, sandbox);
        sandbox.release();
        QVERIFY(sandbox.wait());
        const QString answer = parse(sandbox).value(check).toString();
        QVERIFY2(QHostAddress(answer).protocol() == QAbstractSocket::IPv4Protocol, qPrintable(answer));
    }

    // (e1): the helper ends with the sandbox (its PID 1 exits), with no zombie left.
    void helperEndsWithSandbox()
    {
        HeldSandbox sandbox({QStringLiteral("/bin/true")}, {});
        UserNetwork net;
        START_NETWORK(net, sandbox);
        const int helper = net.helperPid();
        QVERIFY(helper > 0);
        QCOMPARE(liveChildren(::getpid(), "slirp4netns"), 1);
        sandbox.release();
        QVERIFY(sandbox.wait());
        QTRY_VERIFY_WITH_TIMEOUT(!net.isRunning() && net.helperPid() < 0, 10000);
        QVERIFY(processGone(helper));
        QCOMPARE(liveChildren(::getpid(), "slirp4netns"), 0);
        QVERIFY2(net.detail().startsWith(QLatin1String("the sandbox ended")), qPrintable(net.detail()));
    }

    // (e2): killed sandbox (bwrap SIGKILLed: --die-with-parent takes PID 1 with it).
    void helperEndsWhenSandboxKilled()
    {
        HeldSandbox sandbox({QStringLiteral("/bin/sleep"), QStringLiteral("600")}, {});
        UserNetwork net;
        START_NETWORK(net, sandbox);
        const int helper = net.helperPid();
        sandbox.release();
        QVERIFY(net.isRunning());
        sandbox.killPid1(); // as LocalSandbox ends a run: PID 1 through its pidfd
        sandbox.kill();
        QTRY_VERIFY_WITH_TIMEOUT(net.helperPid() < 0, 10000);
        QVERIFY(processGone(helper));
        QCOMPARE(liveChildren(::getpid(), "slirp4netns"), 0);
    }

    // The destructor kills and reaps a helper whose sandbox still runs.
    void destructorKillsAndReaps()
    {
        HeldSandbox sandbox({QStringLiteral("/bin/sleep"), QStringLiteral("600")}, {});
        int helper = -1;
        {
            UserNetwork net;
            START_NETWORK(net, sandbox);
            helper = net.helperPid();
            QVERIFY(helper > 0);
        }
        QVERIFY(processGone(helper)); // reaped, not a zombie: the destructor waited for it
        QCOMPARE(liveChildren(::getpid(), "slirp4netns"), 0);
        UserNetwork stopped;
        START_NETWORK(stopped, sandbox);
        stopped.stop();
        stopped.stop(); // idempotent
        QCOMPARE(stopped.helperPid(), -1);
        QVERIFY(!stopped.isRunning());
        QCOMPARE(liveChildren(::getpid(), "slirp4netns"), 0);
    }

    // (e3): the owner process is SIGKILLed: the exit-fd EOF and the parent-death signal end the
    // helper (and bwrap's --die-with-parent the sandbox).
    void helperEndsWhenOwnerKilled()
    {
        // Orphans are reparented to this test, which reaps them: the helper's end is then seen
        // through waitpid, not guessed from /proc.
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);
        QProcess owner;
        owner.setProgram(QCoreApplication::applicationFilePath());
        owner.setArguments({QStringLiteral("--owner")});
        owner.start();
        QVERIFY(owner.waitForStarted());
        QByteArray line;
        while (!line.contains('\n') && owner.waitForReadyRead(20000))
            line += owner.readAllStandardOutput();
        static const QRegularExpression re(QStringLiteral("helper=(\\d+) pid1=(\\d+)"));
        const auto m = re.match(QString::fromUtf8(line));
        QVERIFY2(m.hasMatch(), line.constData());
        const int helper = m.captured(1).toInt(), pid1 = m.captured(2).toInt();
        const int helperFd = static_cast<int>(::syscall(SYS_pidfd_open, helper, 0));
        const int pid1Fd = static_cast<int>(::syscall(SYS_pidfd_open, pid1, 0));
        QVERIFY(helperFd >= 0 && pid1Fd >= 0);

        ::kill(pid_t(owner.processId()), SIGKILL);
        QVERIFY(owner.waitForFinished(10000));
        pollfd p[2] = {{helperFd, POLLIN, 0}, {pid1Fd, POLLIN, 0}};
        QElapsedTimer t;
        t.start();
        while (!((p[0].revents & POLLIN) && (p[1].revents & POLLIN)) && t.elapsed() < 20000) {
            pollfd q[2] = {{helperFd, short(p[0].revents ? 0 : POLLIN), 0}, {pid1Fd, short(p[1].revents ? 0 : POLLIN), 0}};
            ::poll(q, 2, 100);
            p[0].revents |= q[0].revents;
            p[1].revents |= q[1].revents;
        }
        const bool helperEnded = p[0].revents & POLLIN, sandboxEnded = p[1].revents & POLLIN;
        // Whatever the outcome, leave nothing behind.
        ::syscall(SYS_pidfd_send_signal, helperFd, SIGKILL, nullptr, 0);
        ::syscall(SYS_pidfd_send_signal, pid1Fd, SIGKILL, nullptr, 0);
        int status = 0;
        const pid_t reaped = ::waitpid(helper, &status, 0); // reparented to us
        // Which of the two fired first: the parent-death signal (signal 9) or the exit-fd (exit 0).
        qInfo("slirp4netns after its owner was killed: %s",
              qPrintable(WIFSIGNALED(status) ? QStringLiteral("signal %1").arg(WTERMSIG(status))
                                             : QStringLiteral("exit %1").arg(WEXITSTATUS(status))));
        ::close(helperFd);
        ::close(pid1Fd);
        ::prctl(PR_SET_CHILD_SUBREAPER, 0);
        while (::waitpid(-1, nullptr, WNOHANG) > 0) { // the sandbox's other orphans
        }
        QVERIFY2(helperEnded, "slirp4netns outlived its owner process");
        QCOMPARE(reaped, pid_t(helper));
        QVERIFY2(sandboxEnded, "the sandbox outlived its owner process");
    }

    // The helper runs as the namespace owner's uid (never root), no capabilities, no new
    // privileges, with an explicit two-variable environment and exactly fds 0-6.
    void helperIsUnprivilegedWithMinimalEnvironmentAndFds()
    {
        QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/sandpad-fake-XXXXXX"));
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                              QFileDevice::ReadOther | QFileDevice::ExeOther);
        const QString fake = writeFakeHelper(dir, "report");
        qputenv("SANDPAD_TEST_SECRET", "must-not-leak");
        const int leaked = ::open("/dev/null", O_RDONLY); // inheritable on purpose
        HeldSandbox sandbox({QStringLiteral("/bin/sleep"), QStringLiteral("600")}, {});
        UserNetwork net(fake);
        QString message;
        try {
            net.start(sandbox.childPid());
        } catch (const ProviderError& e) {
            message = e.message();
        }
        ::close(leaked);
        qunsetenv("SANDPAD_TEST_SECRET");
        QVERIFY2(message.contains(QLatin1String("exited with exit status 3")), qPrintable(message));
        const qsizetype at = message.indexOf(QLatin1String("REPORT "));
        QVERIFY2(at >= 0, qPrintable(message));
        const QJsonObject r = QJsonDocument::fromJson(message.mid(at + 7).section(u'\n', 0, 0).toUtf8()).object();
        const int expectedUid = root ? 65534 : int(::geteuid());
        QCOMPARE(r.value(QStringLiteral("uid")).toInt(), expectedUid);
        QCOMPARE(r.value(QStringLiteral("euid")).toInt(), expectedUid);
        if (root) {
            QCOMPARE(r.value(QStringLiteral("gid")).toInt(), 65534);
            QVERIFY(r.value(QStringLiteral("groups")).toArray().isEmpty());
            QCOMPARE(r.value(QStringLiteral("capbnd")).toString(), QStringLiteral("0000000000000000"));
        }
        QCOMPARE(r.value(QStringLiteral("capeff")).toString(), QStringLiteral("0000000000000000"));
        QCOMPARE(r.value(QStringLiteral("nnp")).toString(), QStringLiteral("1"));
        QCOMPARE(r.value(QStringLiteral("env")).toVariant().toStringList(), (QStringList{"LC_ALL", "PATH"}));
        QCOMPARE(r.value(QStringLiteral("fds")).toVariant().toList().size(), 7);
        for (int fd = 0; fd <= 6; ++fd)
            QVERIFY(r.value(QStringLiteral("fds")).toArray().contains(fd));
        const QStringList args = r.value(QStringLiteral("args")).toVariant().toStringList();
        for (const char* arg : {"--disable-host-loopback", "--enable-seccomp", "--configure", "--ready-fd=3", "--exit-fd=4"})
            QVERIFY2(args.contains(QLatin1String(arg)), arg);
        // fd 5 is the sandbox's network namespace, fd 6 a user namespace (its owner, not ours).
        QCOMPARE(r.value(QStringLiteral("net")).toString(),
                 QFile::symLinkTarget(QStringLiteral("/proc/%1/ns/net").arg(sandbox.childPid())).section(u'/', -1));
        QVERIFY(r.value(QStringLiteral("user")).toString().startsWith(QLatin1String("user:[")));
        QVERIFY(r.value(QStringLiteral("user")).toString() != QFile::symLinkTarget(QStringLiteral("/proc/self/ns/user")).section(u'/', -1));
        QCOMPARE(net.helperPid(), -1);
    }

    // A helper that never gets ready: a clear error after the timeout, and nothing left running.
    void readyTimeoutIsAClearError()
    {
        QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/sandpad-fake-XXXXXX"));
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                              QFileDevice::ReadOther | QFileDevice::ExeOther);
        const QString fake = writeFakeHelper(dir, "sleep");
        HeldSandbox sandbox({QStringLiteral("/bin/sleep"), QStringLiteral("600")}, {});
        UserNetwork net(fake);
        QString message;
        try {
            net.start(sandbox.childPid(), 300);
        } catch (const ProviderError& e) {
            message = e.message();
        }
        QVERIFY2(message.contains(QLatin1String("was not ready within 300 ms")), qPrintable(message));
        QCOMPARE(net.helperPid(), -1);
        QCOMPARE(liveChildren(::getpid(), "fake-slirp-slee"), 0);
    }

    // Bad input: clear errors, and nothing is started.
    void badTargetsAreRefused()
    {
        auto errorOf = [](int pid, UserNetwork& net) {
            try {
                net.start(pid);
            } catch (const ProviderError& e) {
                return e.message();
            }
            return QString();
        };
        UserNetwork a;
        QVERIFY(errorOf(-1, a).contains(QLatin1String("no sandbox process")));
        UserNetwork b;
        QVERIFY(errorOf(::getpid(), b).contains(QLatin1String("shares the host's network namespace")));
        HeldSandbox shared({QStringLiteral("/bin/sleep"), QStringLiteral("600")}, hostNetwork());
        UserNetwork c;
        QVERIFY(errorOf(shared.childPid(), c).contains(QLatin1String("shares the host's network namespace")));
        HeldSandbox gone({QStringLiteral("/bin/true")}, {});
        const int pid = gone.childPid();
        gone.release();
        QVERIFY(gone.wait());
        QTRY_VERIFY(processGone(pid));
        UserNetwork d;
        const QString message = errorOf(pid, d);
        QVERIFY2(message.contains(QLatin1String("is not there")) || message.contains(QLatin1String("ended before")) ||
                     message.contains(QLatin1String("cannot open")),
                 qPrintable(message));
        HeldSandbox sandbox({QStringLiteral("/bin/sleep"), QStringLiteral("600")}, {});
        UserNetwork e;
        START_NETWORK(e, sandbox);
        QVERIFY(errorOf(sandbox.childPid(), e).contains(QLatin1String("already called")));
        QVERIFY(e.isRunning());
        QCOMPARE(liveChildren(::getpid(), "slirp4netns"), 1);
    }

    // The validation item: a real start against a throwaway namespace.
    void probeForValidation()
    {
        const ValidationItem item = UserNetwork::validationItem();
        QCOMPARE(item.name, QStringLiteral("network"));
        QVERIFY2(item.level == ValidationItem::Level::Ok, qPrintable(item.detail));
        QVERIFY2(item.detail.contains(QLatin1String("user-mode (slirp4netns ")) &&
                     item.detail.contains(QLatin1String("host loopback disabled")),
                 qPrintable(item.detail));
        const ValidationItem missing = UserNetwork::validationItem(QStringLiteral("/nonexistent/slirp4netns"));
        QVERIFY(missing.level == ValidationItem::Level::Warning);
        QVERIFY2(missing.detail.contains(QLatin1String("not installed")), qPrintable(missing.detail));
        QCOMPARE(liveChildren(::getpid(), "slirp4netns"), 0);
    }
};

int main(int argc, char* argv[])
{
    if (argc > 1 && qstrcmp(argv[1], "--owner") == 0)
        return ownerMain(argc, argv);
    QCoreApplication app(argc, argv);
    TestUserNetwork test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_user_network.moc"
