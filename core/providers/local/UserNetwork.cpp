#include "core/providers/local/UserNetwork.h"

#include "core/providers/local/LocalSandbox.h"
#include "core/providers/local/LocalSandboxInternals.h"
#include "core/sandbox/ProviderError.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/nsfs.h>
#include <mutex>
#include <net/if.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sandpad {

using localsandbox::Fd;

namespace {

// The helper's fds (slirp4netns is told these numbers); nothing else is open in it.
constexpr int kReadyFd = 3;  // slirp4netns writes "1" when tap0 is configured
constexpr int kExitFd = 4;   // EOF when the app is gone: slirp4netns exits
constexpr int kNetnsFd = 5;  // the sandbox's network namespace
constexpr int kUsernsFd = 6; // the user namespace that owns it
constexpr int kStderrTail = 4096;

// /dev/net/tun: misc device 10:200.
constexpr unsigned kTunMajor = 10, kTunMinor = 200;

QString defaultProgram()
{
    const QString found = QStandardPaths::findExecutable(QStringLiteral("slirp4netns"));
    return found.isEmpty() ? QStringLiteral("/usr/bin/slirp4netns") : found;
}

QString errnoText(int e)
{
    return QString::fromLocal8Bit(::strerror(e));
}

[[noreturn]] void fail(const QString& message)
{
    throw ProviderError(ProviderError::Kind::Io, QStringLiteral("User-mode network: ") + message);
}

// --- In the forked helper: async-signal-safe calls only (the app has other threads). ---------

void writeAll(int fd, const char* text)
{
    ::write(fd, text, ::strlen(text));
}

[[noreturn]] void childFail(const char* what)
{
    char digits[12];
    int at = sizeof digits - 1;
    digits[at] = '\0';
    for (unsigned v = unsigned(errno); at == sizeof digits - 1 || v > 0; v /= 10)
        digits[--at] = char('0' + v % 10);
    writeAll(2, "sandpad: ");
    writeAll(2, what);
    writeAll(2, " failed (errno ");
    writeAll(2, digits + at);
    writeAll(2, ")\n");
    ::_exit(126);
}

// Everything the helper child needs, prepared before fork (no allocation after it).
struct Spawn {
    const char* program = nullptr;
    char* const* argv = nullptr;
    char* const* envp = nullptr;
    int sources[6] = {-1, -1, -1, -1, -1, -1}; // /dev/null, stderr, ready, exit, netns, userns
    bool dropFromRoot = false;             // root: a private /dev/net/tun, then the uid change
    uid_t uid = 0;
    gid_t gid = 0;
    pid_t parent = 0;
};

[[noreturn]] void helperChild(const Spawn& s)
{
    // Its own process group: stop() kills slirp4netns and its short-lived setup child together,
    // and a terminal's Ctrl+C reaches the app, not the helper.
    ::setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig)
        ::sigaction(sig, &dfl, nullptr); // fails harmlessly for SIGKILL/SIGSTOP and RT gaps

    // fds 0-6 (sources first moved above 10 so that no dup2 overwrites one still needed).
    int high[6];
    for (int i = 0; i < 6; ++i)
        if ((high[i] = ::fcntl(s.sources[i], F_DUPFD_CLOEXEC, 10)) < 0)
            ::_exit(125);
    if (::dup2(high[0], 0) < 0 || ::dup2(high[0], 1) < 0)
        ::_exit(125);
    const int targets[5] = {2, kReadyFd, kExitFd, kNetnsFd, kUsernsFd};
    for (int i = 0; i < 5; ++i)
        if (::dup2(high[i + 1], targets[i]) < 0)
            ::_exit(125);
    // Nothing else of the app: close every other fd now (the fallback loop for old kernels).
    if (::syscall(SYS_close_range, unsigned(kUsernsFd + 1), ~0U, 0U) != 0)
        for (int fd = kUsernsFd + 1; fd < 65536; ++fd)
            ::close(fd);

    if (s.dropFromRoot) {
        // slirp4netns opens /dev/net/tun as the sandbox uid. Where the host's node is root-only
        // (0600 without udev, e.g. CI machines) a node of its own in a private mount namespace
        // lets it do so without changing the host: gone when the helper exits.
        if (::unshare(CLONE_NEWNS) != 0)
            childFail("unshare(CLONE_NEWNS)");
        if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
            childFail("making / private");
        if (::mount("sandpad-tun", "/dev/net", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=4k,nr_inodes=8,mode=0755") != 0)
            childFail("mounting a tmpfs on /dev/net");
        if (::mknod("/dev/net/tun", S_IFCHR | 0600, makedev(kTunMajor, kTunMinor)) != 0)
            childFail("mknod /dev/net/tun");
        if (::chown("/dev/net/tun", s.uid, s.gid) != 0)
            childFail("chown /dev/net/tun");
        // No capability can come back: empty bounding set, then the uid change (which clears
        // the permitted and effective sets), then empty inheritable sets.
        for (int cap = 0; cap <= 63; ++cap)
            ::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0); // EINVAL beyond the kernel's last cap
        if (::setgroups(0, nullptr) != 0)
            childFail("setgroups");
        if (::setresgid(s.gid, s.gid, s.gid) != 0)
            childFail("setresgid");
        if (::setresuid(s.uid, s.uid, s.uid) != 0)
            childFail("setresuid");
        __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
        __user_cap_data_struct data[2] = {};
        if (::syscall(SYS_capset, &header, data) != 0)
            childFail("capset");
    }
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        childFail("PR_SET_NO_NEW_PRIVS");
    // After the uid change (which clears it): die with the watcher thread, the one that forked
    // us; if the app is already gone, do not start at all.
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
        childFail("PR_SET_PDEATHSIG");
    if (::getppid() != s.parent)
        ::_exit(127);
    if (::chdir("/") != 0)
        childFail("chdir /");
    ::execve(s.program, s.argv, s.envp);
    childFail("exec slirp4netns");
}

// A throwaway "sandbox" for probe(): a child in a new user and network namespace, as the uid
// the sandboxes use, that waits until `hold` closes.
[[noreturn]] void probeChild(int ready, int hold, bool dropFromRoot, pid_t parent)
{
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (::getppid() != parent)
        ::_exit(127);
    if (dropFromRoot) {
        const uid_t id = LocalSandbox::kSandboxUid;
        if (::setgroups(0, nullptr) != 0 || ::setresgid(id, id, id) != 0 || ::setresuid(id, id, id) != 0)
            ::_exit(125);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    }
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0)
        ::_exit(124);
    // As bwrap does in a sandbox's new network namespace (start() waits for it).
    const int sock = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    ifreq lo {};
    std::memcpy(lo.ifr_name, "lo", 3);
    lo.ifr_flags = IFF_UP | IFF_RUNNING;
    if (sock < 0 || ::ioctl(sock, SIOCSIFFLAGS, &lo) != 0)
        ::_exit(123);
    ::close(sock);
    const char one = '1';
    ::write(ready, &one, 1);
    char buf;
    while (::read(hold, &buf, 1) < 0 && errno == EINTR) {
    }
    ::_exit(0);
}

// bwrap's child brings the sandbox's loopback up (address, then link) after --info-fd has named
// it, while --block-fd holds the program; slirp4netns sets lo up too, and if it is first, the
// kernel's automatic 127.0.0.1 makes bwrap's own RTM_NEWADDR fail and the sandbox exit. So wait
// until the namespace's local table has 127.0.0.1 (lo up with its address; ~1 ms). Its /proc
// entry is the only view of another namespace's routes that needs no setns. False when the
// sandbox ends or `deadline` passes first.
bool waitForLoopback(int pid, int pidFd, const QElapsedTimer& clock, qint64 deadlineMs)
{
    const QString path = QStringLiteral("/proc/%1/net/fib_trie").arg(pid);
    for (;;) {
        QFile trie(path);
        if (trie.open(QIODevice::ReadOnly) && trie.readAll().contains("/32 host LOCAL"))
            return true;
        if (clock.elapsed() >= deadlineMs)
            return false;
        pollfd p{pidFd, POLLIN, 0};
        if (::poll(&p, 1, 1) != 0) // doubles as the 1 ms pause
            return false;
    }
}

QString statusText(int status)
{
    if (WIFEXITED(status))
        return QStringLiteral("exit status %1").arg(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return QStringLiteral("signal %1").arg(WTERMSIG(status));
    return QStringLiteral("status %1").arg(status);
}

} // namespace

// Shared between the caller and the watcher thread; guarded by `mutex` where both touch it.
struct UserNetwork::State {
    enum class Phase { Idle, Starting, Ready, Failed, Ended };

    QString program;
    std::thread watcher;
    Fd stopEvent; // eventfd: stop() asks the watcher to kill and reap

    // Handed to the watcher by start().
    int sandboxPid = -1;
    int timeoutMs = 0;
    Fd sandboxPidFd, netnsFd, usernsFd;
    uid_t uid = 0;
    gid_t gid = 0;
    bool dropFromRoot = false;
    QElapsedTimer clock;

    mutable std::mutex mutex;
    std::condition_variable changed;
    Phase phase = Phase::Idle;
    QString detail;
    QByteArray stderrTail;
    int helperPid = -1;
    qint64 readyMs = -1;

    void setPhase(Phase p, const QString& why = {})
    {
        std::lock_guard lock(mutex);
        phase = p;
        if (!why.isEmpty())
            detail = why;
        changed.notify_all();
    }
    QString tail() const
    {
        std::lock_guard lock(mutex);
        return QString::fromUtf8(stderrTail).trimmed();
    }
    void watch();
};

void UserNetwork::State::watch()
{
    // Prepared before fork: the child may not allocate.
    const QByteArray programBytes = QFile::encodeName(program);
    std::vector<QByteArray> args{programBytes,
                                 "--configure",
                                 "--mtu=65520",
                                 "--disable-host-loopback", // 10.0.2.2 is not the host's 127.0.0.1
                                 "--enable-seccomp",        // its own syscall filter (no execve, ptrace, setns after setup)
                                 "--ready-fd=" + QByteArray::number(kReadyFd),
                                 "--exit-fd=" + QByteArray::number(kExitFd),
                                 "--netns-type=path",
                                 "--userns-path=/proc/self/fd/" + QByteArray::number(kUsernsFd),
                                 "/proc/self/fd/" + QByteArray::number(kNetnsFd),
                                 "tap0"};
    std::vector<char*> argv;
    for (QByteArray& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    QByteArray envPath("PATH=/usr/sbin:/usr/bin:/sbin:/bin"), envLang("LC_ALL=C");
    char* envp[] = {envPath.data(), envLang.data(), nullptr};

    int p[2];
    Fd readyRead, readyWrite, exitRead, exitWrite, errRead, errWrite;
    if (::pipe2(p, O_CLOEXEC) == 0) {
        readyRead.reset(p[0]);
        readyWrite.reset(p[1]);
    }
    if (::pipe2(p, O_CLOEXEC) == 0) {
        exitRead.reset(p[0]);
        exitWrite.reset(p[1]);
    }
    if (::pipe2(p, O_CLOEXEC) == 0) {
        errRead.reset(p[0]);
        errWrite.reset(p[1]);
    }
    if (readyWrite.get() < 0 || exitWrite.get() < 0 || errWrite.get() < 0) {
        setPhase(Phase::Failed, QStringLiteral("pipe2: %1").arg(errnoText(errno)));
        return;
    }
    ::fcntl(errRead.get(), F_SETFL, O_NONBLOCK);

    Spawn s;
    s.program = programBytes.constData();
    s.argv = argv.data();
    s.envp = envp;
    const Fd null(::open("/dev/null", O_RDWR | O_CLOEXEC));
    const int sources[6] = {null.get(), errWrite.get(), readyWrite.get(), exitRead.get(), netnsFd.get(),
                            usernsFd.get()};
    if (null.get() < 0) {
        setPhase(Phase::Failed, QStringLiteral("cannot open /dev/null: %1").arg(errnoText(errno)));
        return;
    }
    std::copy(sources, sources + 6, s.sources);
    s.dropFromRoot = dropFromRoot;
    s.uid = uid;
    s.gid = gid;
    s.parent = ::getpid();

    const pid_t pid = ::fork();
    if (pid == 0)
        helperChild(s);
    if (pid < 0) {
        setPhase(Phase::Failed, QStringLiteral("fork: %1").arg(errnoText(errno)));
        return;
    }
    // The child has its copies; the namespaces were only needed to hand them over.
    readyWrite.reset();
    exitRead.reset();
    errWrite.reset();
    netnsFd.reset();
    usernsFd.reset();
    const Fd helperFd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
    {
        std::lock_guard lock(mutex);
        helperPid = pid;
    }

    bool killed = false;
    auto killHelper = [&] {
        if (killed)
            return;
        killed = true;
        ::kill(-pid, SIGKILL); // the group: slirp4netns and its setup child; not reaped yet, so ours
        if (helperFd.get() >= 0)
            ::syscall(SYS_pidfd_send_signal, helperFd.get(), SIGKILL, nullptr, 0);
    };
    auto drainStderr = [&] {
        char buf[4096];
        ssize_t n;
        while (errRead.get() >= 0 && (n = ::read(errRead.get(), buf, sizeof buf)) != 0) {
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return; // EAGAIN: nothing more now
            }
            std::lock_guard lock(mutex);
            stderrTail.append(buf, n);
            if (stderrTail.size() > kStderrTail)
                stderrTail = stderrTail.right(kStderrTail);
        }
        errRead.reset(); // EOF
    };

    if (helperFd.get() < 0) { // pidfds exist since Linux 5.3; without one the exit could not be watched
        const int e = errno;
        killHelper();
        while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        std::lock_guard lock(mutex);
        helperPid = -1;
        phase = Phase::Failed;
        detail = QStringLiteral("pidfd_open: %1").arg(errnoText(e));
        changed.notify_all();
        return;
    }

    QString reason; // why the helper is being ended, when we end it
    for (;;) {
        bool starting;
        {
            std::lock_guard lock(mutex);
            starting = phase == Phase::Starting;
        }
        int timeout = -1;
        if (starting && !killed) {
            timeout = int(qMax<qint64>(0, timeoutMs - clock.elapsed()));
            if (timeout == 0) {
                reason = QStringLiteral("slirp4netns was not ready within %1 ms").arg(timeoutMs);
                killHelper();
                continue;
            }
        }
        // Once the helper is being killed, only its exit (and its last words) matter: a stop
        // request or an exited sandbox would stay readable and make poll spin.
        pollfd fds[5] = {{helperFd.get(), POLLIN, 0},
                         {errRead.get(), POLLIN, 0},
                         {readyRead.get(), POLLIN, 0},
                         {killed ? -1 : stopEvent.get(), POLLIN, 0},
                         {killed ? -1 : sandboxPidFd.get(), POLLIN, 0}};
        if (::poll(fds, 5, timeout) < 0) {
            if (errno == EINTR)
                continue;
            reason = QStringLiteral("poll: %1").arg(errnoText(errno));
            killHelper();
            continue;
        }
        if (fds[1].revents)
            drainStderr();
        if (fds[2].revents) {
            char byte = 0;
            const ssize_t n = ::read(readyRead.get(), &byte, 1);
            readyRead.reset();
            if (n == 1 && !killed) {
                std::lock_guard lock(mutex);
                if (phase == Phase::Starting) {
                    phase = Phase::Ready;
                    readyMs = clock.elapsed();
                    changed.notify_all();
                }
            }
        }
        if (fds[3].revents && !killed) {
            reason = QStringLiteral("stopped");
            killHelper();
        }
        if (fds[4].revents && !killed) {
            reason = QStringLiteral("the sandbox ended");
            killHelper();
        }
        if (!fds[0].revents)
            continue;
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        drainStderr();
        const QString how = killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL
                                ? QStringLiteral("killed")
                                : QStringLiteral("exited with ") + statusText(status);
        const QString err = tail();
        std::lock_guard lock(mutex);
        helperPid = -1;
        if (phase == Phase::Starting) {
            phase = Phase::Failed;
            detail = (reason.isEmpty() ? QStringLiteral("slirp4netns %1 before the network was ready").arg(how)
                                       : reason + QStringLiteral(" (slirp4netns %1)").arg(how)) +
                     (err.isEmpty() ? QString() : QStringLiteral(": ") + err);
        } else {
            phase = Phase::Ended;
            detail = reason.isEmpty() ? QStringLiteral("slirp4netns %1 during the run%2")
                                            .arg(how, err.isEmpty() ? QString() : QStringLiteral(": ") + err)
                                      : reason + QStringLiteral(": slirp4netns ") + how;
        }
        changed.notify_all();
        return; // exitWrite closes here: nothing is left to tell
    }
}

UserNetwork::UserNetwork(const QString& program) : m_state(std::make_unique<State>())
{
    m_state->program = program.isEmpty() ? defaultProgram() : program;
}

UserNetwork::~UserNetwork()
{
    stop();
}

QString UserNetwork::program() const
{
    return m_state->program;
}

void UserNetwork::start(int sandboxPid, int timeoutMs)
{
    State& s = *m_state;
    {
        std::lock_guard lock(s.mutex);
        if (s.phase != State::Phase::Idle)
            fail(QStringLiteral("start() was already called"));
    }
    s.clock.start();
    if (sandboxPid <= 0)
        fail(QStringLiteral("no sandbox process (pid %1)").arg(sandboxPid));
    const Availability a = availability(s.program);
    if (!a.available)
        fail(a.detail);

    // The pidfd first: the namespace opened next then provably belongs to this process.
    s.sandboxPidFd.reset(static_cast<int>(::syscall(SYS_pidfd_open, sandboxPid, 0)));
    if (s.sandboxPidFd.get() < 0)
        fail(QStringLiteral("the sandbox process %1 is not there: %2").arg(sandboxPid).arg(errnoText(errno)));
    const QByteArray nsPath = "/proc/" + QByteArray::number(sandboxPid) + "/ns/net";
    s.netnsFd.reset(::open(nsPath.constData(), O_RDONLY | O_CLOEXEC));
    if (s.netnsFd.get() < 0)
        fail(QStringLiteral("cannot open %1: %2").arg(QString::fromLatin1(nsPath), errnoText(errno)));
    pollfd alive{s.sandboxPidFd.get(), POLLIN, 0};
    if (::poll(&alive, 1, 0) != 0)
        fail(QStringLiteral("the sandbox process %1 ended before its network was started").arg(sandboxPid));
    struct stat theirs {}, ours {};
    if (::fstat(s.netnsFd.get(), &theirs) != 0 || ::stat("/proc/self/ns/net", &ours) != 0)
        fail(QStringLiteral("cannot compare network namespaces: %1").arg(errnoText(errno)));
    if (theirs.st_ino == ours.st_ino && theirs.st_dev == ours.st_dev)
        fail(QStringLiteral("process %1 shares the host's network namespace (bwrap --share-net?); "
                            "it needs its own (--unshare-net)").arg(sandboxPid));

    // The user namespace that owns the network namespace (bwrap nests another one inside it, so
    // /proc/<pid>/ns/user is not it), and its owner: the uid the helper must run as.
    s.usernsFd.reset(::ioctl(s.netnsFd.get(), NS_GET_USERNS));
    if (s.usernsFd.get() < 0)
        fail(QStringLiteral("cannot find the owner of the sandbox's network namespace: %1").arg(errnoText(errno)));
    ::fcntl(s.usernsFd.get(), F_SETFD, FD_CLOEXEC);
    uid_t owner = 0;
    if (::ioctl(s.usernsFd.get(), NS_GET_OWNER_UID, &owner) != 0)
        fail(QStringLiteral("cannot read the owner of the sandbox's user namespace: %1").arg(errnoText(errno)));
    if (owner == 0)
        fail(QStringLiteral("the sandbox's user namespace belongs to root; the network helper never runs as "
                            "root (start bwrap as an unprivileged uid, e.g. through setpriv)"));
    const uid_t self = ::geteuid();
    if (self != 0 && self != owner)
        fail(QStringLiteral("the sandbox's user namespace belongs to uid %1, this process runs as uid %2")
                 .arg(owner).arg(self));
    s.uid = owner;
    s.gid = ::getegid();
    s.dropFromRoot = self == 0;
    if (s.dropFromRoot) {
        // The owner's primary group (65534 "nogroup" for the sandbox uid).
        passwd pw {};
        passwd* found = nullptr;
        char buf[1024];
        s.gid = ::getpwuid_r(owner, &pw, buf, sizeof buf, &found) == 0 && found ? found->pw_gid : gid_t(owner);
    }
    s.sandboxPid = sandboxPid;
    s.timeoutMs = qMax(1, timeoutMs);
    if (!waitForLoopback(sandboxPid, s.sandboxPidFd.get(), s.clock, s.timeoutMs)) {
        pollfd ended{s.sandboxPidFd.get(), POLLIN, 0};
        fail(::poll(&ended, 1, 0) != 0
                 ? QStringLiteral("the sandbox process %1 ended before its network was started").arg(sandboxPid)
                 : QStringLiteral("the sandbox's loopback did not come up within %1 ms (bwrap brings it up "
                                  "in a namespace of its own)").arg(s.timeoutMs));
    }
    s.stopEvent.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    if (s.stopEvent.get() < 0)
        fail(QStringLiteral("eventfd: %1").arg(errnoText(errno)));

    s.setPhase(State::Phase::Starting);
    // The watcher forks the helper: its parent-death signal then follows this object's own
    // thread, which lives until the helper is reaped, not the caller's.
    s.watcher = std::thread([&s] { s.watch(); });
    std::unique_lock lock(s.mutex);
    s.changed.wait(lock, [&s] { return s.phase != State::Phase::Starting; });
    if (s.phase == State::Phase::Ready)
        return;
    const QString why = s.detail;
    lock.unlock();
    stop();
    fail(why);
}

void UserNetwork::stop()
{
    State& s = *m_state;
    if (!s.watcher.joinable())
        return;
    const uint64_t one = 1;
    if (::write(s.stopEvent.get(), &one, sizeof one) < 0) {
        // An eventfd write fails only at its counter's maximum: a stop is already pending.
    }
    s.watcher.join();
    s.sandboxPidFd.reset();
    s.stopEvent.reset();
}

bool UserNetwork::isRunning() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->phase == State::Phase::Ready && m_state->helperPid > 0;
}

int UserNetwork::helperPid() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->helperPid;
}

qint64 UserNetwork::readyMs() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->readyMs;
}

QString UserNetwork::detail() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->detail;
}

QByteArray UserNetwork::resolvConf()
{
    // slirp4netns answers DNS on 10.0.2.3 by forwarding to the host's resolver. No search domains:
    // they would name the host's network.
    return QByteArrayLiteral("nameserver 10.0.2.3\n");
}

QByteArray UserNetwork::hosts(const QString& hostname)
{
    QByteArray text = QByteArrayLiteral("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n");
    if (!hostname.isEmpty())
        text += "127.0.1.1\t" + hostname.toUtf8() + '\n';
    return text;
}

UserNetwork::Availability UserNetwork::availability(const QString& programIn)
{
    const QString program = programIn.isEmpty() ? defaultProgram() : programIn;
    static QMutex cacheMutex;
    static QHash<QString, Availability> cache;
    {
        QMutexLocker lock(&cacheMutex);
        if (const auto it = cache.constFind(program); it != cache.constEnd())
            return *it;
    }
    Availability a;
    struct stat tun {};
    if (!QFileInfo(program).isExecutable()) {
        a.detail = QStringLiteral("slirp4netns is not installed (Debian: apt install slirp4netns); runs with the "
                                  "network allowed cannot start");
    } else if (::stat("/dev/net/tun", &tun) != 0 || !S_ISCHR(tun.st_mode) || major(tun.st_rdev) != kTunMajor ||
               minor(tun.st_rdev) != kTunMinor) {
        a.detail = QStringLiteral("/dev/net/tun is missing (a kernel without TUN, or a container without the "
                                  "device); runs with the network allowed cannot start");
    } else if (::geteuid() != 0 && ::access("/dev/net/tun", R_OK | W_OK) != 0) {
        a.detail = QStringLiteral("/dev/net/tun (mode %1) is not readable and writable by uid %2 (udev makes it "
                                  "0666 on Debian); runs with the network allowed cannot start")
                       .arg(tun.st_mode & 0777, 4, 8, QLatin1Char('0'))
                       .arg(::geteuid());
    } else {
        // Its version, started with nothing of the app's environment.
        QProcess version;
        QProcessEnvironment env;
        env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        version.setProcessEnvironment(env);
        version.start(program, {QStringLiteral("--version")});
        QString number;
        if (version.waitForFinished(5000) && version.exitCode() == 0) {
            static const QRegularExpression re(QStringLiteral("slirp4netns version (\\S+)"));
            number = re.match(QString::fromUtf8(version.readAllStandardOutput())).captured(1);
        } else {
            version.kill();
            version.waitForFinished(1000);
        }
        a.available = !number.isEmpty();
        a.detail = a.available ? QStringLiteral("user-mode (slirp4netns %1)").arg(number)
                               : QStringLiteral("%1 --version does not run; runs with the network allowed cannot "
                                                "start").arg(program);
    }
    if (a.available) { // a failure is cheap to find again, and may be fixed meanwhile
        QMutexLocker lock(&cacheMutex);
        cache.insert(program, a);
    }
    return a;
}

UserNetwork::Availability UserNetwork::probe(const QString& program)
{
    Availability a = availability(program);
    if (!a.available)
        return a;
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0)
        return {false, QStringLiteral("pipe2: %1").arg(errnoText(errno))};
    Fd readyRead(p[0]), readyWrite(p[1]);
    if (::pipe2(p, O_CLOEXEC) != 0)
        return {false, QStringLiteral("pipe2: %1").arg(errnoText(errno))};
    Fd holdRead(p[0]), holdWrite(p[1]);
    const bool root = ::geteuid() == 0;
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0)
        probeChild(readyWrite.get(), holdRead.get(), root, parent);
    if (pid < 0)
        return {false, QStringLiteral("fork: %1").arg(errnoText(errno))};
    readyWrite.reset();
    holdRead.reset();
    char byte = 0;
    ssize_t n;
    while ((n = ::read(readyRead.get(), &byte, 1)) < 0 && errno == EINTR) {
    }
    Availability result;
    if (n != 1) {
        result = {false, QStringLiteral("a user and network namespace cannot be created here; runs with the "
                                        "network allowed cannot start")};
    } else {
        try {
            UserNetwork net(program);
            net.start(pid);
            result = {true, a.detail + QStringLiteral(", host loopback disabled; ready in %1 ms").arg(net.readyMs())};
        } catch (const ProviderError& e) {
            result = {false, e.message() + QStringLiteral("; runs with the network allowed cannot start")};
        }
    }
    holdWrite.reset(); // the throwaway namespace's process exits
    ::kill(pid, SIGKILL);
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    return result;
}

ValidationItem UserNetwork::validationItem(const QString& program)
{
    const Availability a = probe(program);
    return {QStringLiteral("network"), a.available ? ValidationItem::Level::Ok : ValidationItem::Level::Warning,
            a.detail};
}

} // namespace sandpad
