#pragma once

// For the user-network test and benchmark: a real bubblewrap sandbox started the way LocalSandbox
// starts one (setpriv to uid 65534 when root, --unshare-all, --unshare-user --disable-userns
// --uid 65534, --die-with-parent, --info-fd for the child pid), held before its program by
// --block-fd until release(): the moment UserNetwork::start() runs in LocalSandbox.
#include <QByteArray>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStringList>

#include <arpa/inet.h>
#include <csignal>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

namespace sandpad::test {

class HeldSandbox {
public:
    // The fds inside bwrap: as LocalSandbox's --info-fd, then the block fd and the two files.
    static constexpr int kInfoFd = 5, kBlockFd = 7, kResolvFd = 8, kHostsFd = 9;

    struct Options {
        bool shareNet = false;  // the behaviour before UserNetwork: the host's network namespace
        QByteArray resolvConf;  // bound at /etc/resolv.conf when not empty
        QByteArray hosts;       // bound at /etc/hosts when not empty
    };

    HeldSandbox(const QStringList& argv, const Options& options)
    {
        m_clock.start();
        int p[2];
        if (::pipe2(p, O_CLOEXEC) != 0 || (m_infoRead = p[0], m_infoWrite = p[1], ::pipe2(p, O_CLOEXEC) != 0))
            return;
        m_blockRead = p[0];
        m_blockWrite = p[1];
        m_resolv = dataFd(options.resolvConf.isEmpty() ? QByteArray("\n") : options.resolvConf);
        m_hosts = dataFd(options.hosts.isEmpty() ? QByteArray("\n") : options.hosts);

        QStringList line;
        if (::geteuid() == 0)
            line << QStringLiteral("/usr/bin/setpriv") << QStringLiteral("--reuid=65534")
                 << QStringLiteral("--regid=65534") << QStringLiteral("--clear-groups")
                 << QStringLiteral("--inh-caps=-all") << QStringLiteral("--bounding-set=-all")
                 << QStringLiteral("--pdeathsig=SIGKILL") << QStringLiteral("--");
        line << QStringLiteral("/usr/bin/bwrap") << QStringLiteral("--unshare-all");
        if (options.shareNet)
            line << QStringLiteral("--share-net");
        line << QStringLiteral("--unshare-user") << QStringLiteral("--disable-userns") << QStringLiteral("--uid")
             << QStringLiteral("65534") << QStringLiteral("--gid") << QStringLiteral("65534")
             << QStringLiteral("--die-with-parent") << QStringLiteral("--new-session") << QStringLiteral("--cap-drop")
             << QStringLiteral("ALL") << QStringLiteral("--clearenv") << QStringLiteral("--setenv")
             << QStringLiteral("PATH") << QStringLiteral("/usr/bin:/bin") << QStringLiteral("--ro-bind")
             << QStringLiteral("/usr") << QStringLiteral("/usr");
        for (const char* top : {"/bin", "/sbin", "/lib", "/lib64"}) {
            const QFileInfo info{QLatin1String(top)};
            if (info.isSymLink())
                line << QStringLiteral("--symlink") << info.symLinkTarget() << QLatin1String(top);
            else if (info.isDir())
                line << QStringLiteral("--ro-bind") << QLatin1String(top) << QLatin1String(top);
        }
        line << QStringLiteral("--ro-bind") << QStringLiteral("/etc/ld.so.cache") << QStringLiteral("/etc/ld.so.cache");
        if (!options.resolvConf.isEmpty())
            line << QStringLiteral("--ro-bind-data") << QString::number(kResolvFd) << QStringLiteral("/etc/resolv.conf");
        if (!options.hosts.isEmpty())
            line << QStringLiteral("--ro-bind-data") << QString::number(kHostsFd) << QStringLiteral("/etc/hosts");
        line << QStringLiteral("--proc") << QStringLiteral("/proc") << QStringLiteral("--dev") << QStringLiteral("/dev")
             << QStringLiteral("--tmpfs") << QStringLiteral("/tmp") << QStringLiteral("--info-fd")
             << QString::number(kInfoFd) << QStringLiteral("--block-fd") << QString::number(kBlockFd)
             << QStringLiteral("--") << argv;

        m_process.setProgram(line.first());
        m_process.setArguments(line.mid(1));
        m_process.setStandardInputFile(QProcess::nullDevice());
        const int sources[4] = {m_infoWrite, m_blockRead, m_resolv, m_hosts};
        const pid_t parent = ::getpid();
        m_process.setChildProcessModifier([sources, parent] {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent)
                ::_exit(127);
            int high[4];
            for (int i = 0; i < 4; ++i)
                high[i] = ::fcntl(sources[i], F_DUPFD_CLOEXEC, 20);
            ::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
            const int targets[4] = {kInfoFd, kBlockFd, kResolvFd, kHostsFd};
            for (int i = 0; i < 4; ++i)
                ::dup2(high[i], targets[i]);
        });
        m_process.start();
        m_process.waitForStarted(10000);
        for (int* fd : {&m_infoWrite, &m_blockRead, &m_resolv, &m_hosts})
            closeFd(*fd);
        readChildPid();
    }

    ~HeldSandbox()
    {
        kill();
        for (int* fd : {&m_infoRead, &m_blockWrite, &m_pid1Fd})
            closeFd(*fd);
    }

    HeldSandbox(const HeldSandbox&) = delete;
    HeldSandbox& operator=(const HeldSandbox&) = delete;

    int childPid() const { return m_childPid; } // the sandbox's PID 1 on the host
    qint64 bwrapPid() const { return m_process.processId(); }
    qint64 startMs() const { return m_startMs; } // bwrap started to child-pid known

    // Lets the program run.
    void release()
    {
        const char go = 'x';
        if (m_blockWrite >= 0 && ::write(m_blockWrite, &go, 1) == 1)
            closeFd(m_blockWrite);
    }
    // Waits for the sandbox to end by itself; false if it did not within `ms`.
    bool wait(int ms = 60000)
    {
        if (m_process.state() == QProcess::NotRunning)
            return true;
        return m_process.waitForFinished(ms);
    }
    // Kills the sandbox's PID 1 through its pidfd (the whole PID namespace goes with it), then
    // bwrap. PID 1 first: bwrap 0.8 arms its parent-death signal only once the program starts, so
    // killing bwrap alone leaves a sandbox that is still held, or just released, running.
    void killPid1()
    {
        if (m_pid1Fd >= 0)
            ::syscall(SYS_pidfd_send_signal, m_pid1Fd, SIGKILL, nullptr, 0);
    }
    void kill()
    {
        killPid1();
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(10000);
        }
    }
    QByteArray out() { return m_out += m_process.readAllStandardOutput(); }
    QByteArray err() { return m_err += m_process.readAllStandardError(); }
    int exitCode() const { return m_process.exitCode(); }

private:
    static int dataFd(const QByteArray& data)
    {
        const int fd = ::memfd_create("sandpad-test-data", MFD_CLOEXEC);
        if (fd >= 0 && (::write(fd, data.constData(), size_t(data.size())) != data.size() || ::lseek(fd, 0, SEEK_SET) != 0)) {
            ::close(fd);
            return -1;
        }
        return fd;
    }
    static void closeFd(int& fd)
    {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
    void readChildPid()
    {
        QElapsedTimer t;
        t.start();
        QByteArray info;
        static const QRegularExpression re(QStringLiteral("\"child-pid\"\\s*:\\s*(\\d+)"));
        while (t.elapsed() < 20000) {
            pollfd p{m_infoRead, POLLIN, 0};
            if (::poll(&p, 1, 100) < 0)
                break;
            char buf[512];
            const ssize_t n = ::read(m_infoRead, buf, sizeof buf);
            if (n <= 0 && (p.revents & POLLIN))
                break; // EOF: bwrap failed
            if (n > 0)
                info.append(buf, n);
            const auto m = re.match(QString::fromUtf8(info));
            if (m.hasMatch()) {
                m_childPid = m.captured(1).toInt();
                m_startMs = m_clock.elapsed();
                m_pid1Fd = static_cast<int>(::syscall(SYS_pidfd_open, m_childPid, 0));
                return;
            }
        }
    }

    QElapsedTimer m_clock;
    QProcess m_process;
    int m_infoRead = -1, m_infoWrite = -1, m_blockRead = -1, m_blockWrite = -1, m_resolv = -1, m_hosts = -1;
    int m_childPid = -1;
    int m_pid1Fd = -1;
    qint64 m_startMs = -1;
    QByteArray m_out, m_err;
};

// The first up, non-loopback IPv4 address of this host (the way out a sandbox's user network must
// reach without the internet), or empty.
inline QByteArray hostAddress()
{
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0)
        return {};
    QByteArray found;
    for (ifaddrs* i = list; i && found.isEmpty(); i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || (i->ifa_flags & IFF_LOOPBACK) || !(i->ifa_flags & IFF_UP))
            continue;
        char text[INET_ADDRSTRLEN];
        if (::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr, text, sizeof text))
            found = text;
    }
    ::freeifaddrs(list);
    return found;
}

} // namespace sandpad::test
