#include "core/providers/local/SandboxMemory.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <numeric>
#include <tuple>
#include <string_view>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <unordered_set>

namespace sandpad::localsandbox {

namespace {

constexpr long kTmpfsMagic = 0x01021994;
constexpr int kKcmpVm = 1;                  // KCMP_VM
constexpr size_t kMaxDistinctPerSignature = 8; // kcmp calls per process at most (beyond: counted, an upper bound)
constexpr int kMaxKcmpPerSample = 256;         // and per sample (255 identical forks would take ~2,000)
constexpr qint64 kKiB = 1024;

// The devices of the kernel's internal shmem mounts: memfds, shared anonymous mappings and SysV
// segments live there (not in any mount of the sandbox), hugetlb memfds on hugetlbfs' own.
// Learned once from memfds of our own.
const std::vector<dev_t>& shmemDevices()
{
    static const std::vector<dev_t> devices = [] {
        std::vector<dev_t> d;
        for (unsigned flags : {0u, unsigned(MFD_HUGETLB)}) {
            const int fd = ::memfd_create("sandpad-shmem-probe", MFD_CLOEXEC | flags);
            struct stat st {};
            if (fd >= 0 && ::fstat(fd, &st) == 0)
                d.push_back(st.st_dev);
            if (fd >= 0)
                ::close(fd);
        }
        return d;
    }();
    return devices;
}

bool isShmemDevice(dev_t dev)
{
    const auto& d = shmemDevices();
    return std::find(d.begin(), d.end(), dev) != d.end();
}

// What a socket we cannot read can hold at most: its send buffer, which SO_SNDBUF can raise to
// twice net.core.wmem_max (a unix socket's data waits in the peer's queue, charged to the
// sender). 416 KiB with Debian's defaults; 8 MiB on this machine (wmem_max 4 MiB).
qint64 socketBoundBytes()
{
    static const qint64 bytes = [] {
        qint64 wmemMax = 212992;
        if (FILE* f = std::fopen("/proc/sys/net/core/wmem_max", "re")) {
            long long v = 0;
            if (std::fscanf(f, "%lld", &v) == 1 && v > 0)
                wmemMax = v;
            std::fclose(f);
        }
        return 2 * wmemMax;
    }();
    return bytes;
}

// Reads a whole /proc file into `buf`, NUL-terminated (strtol must not run into an earlier
// file's bytes); the length, or -1 with errno.
ssize_t readFile(const char* path, std::vector<char>& buf)
{
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t len = 0;
    for (;;) {
        if (buf.size() - len < 4096)
            buf.resize(std::max<size_t>(buf.size() * 2, 16384));
        const ssize_t n = ::read(fd, buf.data() + len, buf.size() - len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int e = errno;
            ::close(fd);
            errno = e;
            return -1;
        }
        if (n == 0)
            break;
        len += size_t(n);
    }
    ::close(fd);
    buf[len] = '\0'; // there is always room: the loop leaves >= 4096 bytes free before reading
    return ssize_t(len);
}

// The number after "\n<key>" (e.g. "\nRssAnon:"), 0 if absent (a zombie has no memory lines).
qint64 field(std::string_view text, std::string_view key)
{
    size_t at = 0;
    while ((at = text.find(key, at)) != std::string_view::npos) {
        if (at > 0 && text[at - 1] == '\n')
            return std::strtoll(text.data() + at + key.size(), nullptr, 10);
        at += key.size();
    }
    return 0;
}

// Field 22 of /proc/<pid>/stat (start time in clock ticks since boot: a reused pid has another),
// and false for a process that is gone or a zombie.
bool startTime(pid_t pid, std::vector<char>& buf, unsigned long long& out)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", int(pid));
    const ssize_t n = readFile(path, buf);
    if (n <= 0)
        return false;
    const std::string_view text(buf.data(), size_t(n));
    size_t at = text.rfind(')'); // the command name may contain spaces and parentheses
    if (at == std::string_view::npos || at + 2 >= text.size() || text[at + 2] == 'Z' || text[at + 2] == 'X')
        return false;
    for (int spaces = 0; at < text.size(); ++at)
        if (text[at] == ' ' && ++spaces == 20)
            break;
    if (at >= text.size())
        return false;
    out = std::strtoull(text.data() + at + 1, nullptr, 10);
    return true;
}

void appendPids(const char* path, std::vector<char>& buf, std::vector<pid_t>& out)
{
    const ssize_t n = readFile(path, buf);
    for (ssize_t i = 0; i < n;) {
        char* end = nullptr;
        const long child = std::strtol(buf.data() + i, &end, 10);
        if (end == buf.data() + i)
            break;
        if (child > 0)
            out.push_back(pid_t(child));
        i = end - buf.data();
    }
}

// Appends the children of every thread of `pid` (a forked process hangs off the thread that
// forked it; orphans are reparented to the namespace's PID 1). With one thread there is no
// need to list the task directory (that costs as much as the rest).
void appendChildren(pid_t pid, int threads, std::vector<char>& buf, std::vector<pid_t>& out)
{
    char path[320];
    if (threads == 1) {
        std::snprintf(path, sizeof path, "/proc/%d/task/%d/children", int(pid), int(pid));
        appendPids(path, buf, out);
        return;
    }
    std::snprintf(path, sizeof path, "/proc/%d/task", int(pid));
    DIR* dir = ::opendir(path);
    if (!dir)
        return;
    while (const dirent* entry = ::readdir(dir)) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
            continue;
        std::snprintf(path, sizeof path, "/proc/%d/task/%s/children", int(pid), entry->d_name);
        appendPids(path, buf, out);
    }
    ::closedir(dir);
}

// Bytes queued in a socket (a copy of it in our process): its receive queue and what it sent
// that is not consumed yet (for a unix socket: in its peer's queue), -1 if it cannot be asked.
qint64 socketQueued(int fd)
{
    int in = 0, out = 0;
    if (::ioctl(fd, SIOCINQ, &in) != 0)
        in = 0; // a listener, or a datagram socket with nothing queued
    if (::ioctl(fd, SIOCOUTQ, &out) != 0)
        return -1;
    return qint64(std::max(in, 0)) + qint64(std::max(out, 0));
}

// A pidfd whose pidfd_getfd() reads the descriptor table of `tid`: the group's own pidfd, or
// when tid is another thread than the leader (one that ended alone holds no table any more)
// that thread's (PIDFD_THREAD, Linux >= 6.9; older kernels: -1, the sockets count at their bound).
int openPidfd(pid_t tid, pid_t group)
{
    constexpr unsigned kPidfdThread = O_EXCL; // PIDFD_THREAD, missing from older headers
    return int(::syscall(SYS_pidfd_open, tid, tid == group ? 0u : kPidfdThread));
}

// The descriptors of a process whose /proc/<pid>/fd is denied: a non-dumpable one, as its owner
// (the directory then belongs to root). pidfd_getfd() copies each descriptor below FDSize to us
// (allowed: we own the process's user namespace), just to fstat it.
template <class Visit>
bool visitFdsThroughPidfd(pid_t pid, pid_t group, int fdTableSize, const Visit& visit)
{
    const int pidfd = openPidfd(pid, group);
    if (pidfd < 0)
        return false;
    bool any = false;
    for (int fd = 0; fd < fdTableSize; ++fd) {
        const int copy = int(::syscall(SYS_pidfd_getfd, pidfd, fd, 0));
        if (copy < 0) {
            if (errno == EBADF)
                continue;
            break; // EPERM: not ours after all; ESRCH: gone
        }
        any = true;
        struct stat st {};
        if (::fstat(copy, &st) == 0)
            visit(st, copy);
        ::close(copy);
    }
    ::close(pidfd);
    return any;
}

QString mib(qint64 bytes)
{
    if (bytes >= 1024 * 1024 * 1024)
        return QStringLiteral("%1 GiB").arg(double(bytes) / (1024.0 * 1024 * 1024), 0, 'f', 2);
    return QStringLiteral("%1 MiB").arg(double(bytes) / (1024.0 * 1024), 0, 'f', 1);
}

} // namespace

QString SandboxMemorySample::describe() const
{
    if (!valid())
        return error;
    QStringList parts;
    parts << QStringLiteral("processes %1 (%2, %3)").arg(mib(anonBytes)).arg(processes)
                 .arg(exact ? QStringLiteral("PSS") : QStringLiteral("RSS"));
    parts << QStringLiteral("page tables %1").arg(mib(pageTableBytes));
    parts << QStringLiteral("shared memory %1 (%2 objects%3)").arg(mib(shmemBytes)).arg(shmemObjects)
                 .arg(shmemApproximate ? QStringLiteral(", some by resident size") : QString());
    parts << QStringLiteral("tmpfs %1 + %2 for %3 files").arg(mib(tmpfsBytes), mib(tmpfsInodeBytes)).arg(tmpfsFiles);
    parts << QStringLiteral("buffers %1 (%2 sockets holding %3, %4 pipes)")
                 .arg(mib(bufferBytes)).arg(sockets).arg(mib(socketQueuedBytes)).arg(pipes);
    QString text = mib(totalBytes) + QStringLiteral(" = ") + parts.join(QStringLiteral(" + "));
    if (unreadable > 0)
        text += QStringLiteral("; %1 process(es) unreadable").arg(unreadable);
    if (!notes.isEmpty())
        text += QStringLiteral("; ") + notes.join(QStringLiteral("; "));
    return text;
}

QStringList SandboxMemory::defaultTmpfsMounts()
{
    return {QStringLiteral("/tmp"), QStringLiteral("/home/sandbox"), QStringLiteral("/dev/shm")};
}

SandboxMemory::SandboxMemory(pid_t pid1, QStringList tmpfsMounts) : m_pid1(pid1), m_mounts(std::move(tmpfsMounts))
{
    m_buffer.resize(16384);
    if (!startTime(m_pid1, m_buffer, m_pid1Start))
        m_pid1Start = 0;
    shmemDevices(); // learn them now, not during the first sample
}

std::string_view SandboxMemory::readProc(pid_t pid, const char* name)
{
    char path[96];
    std::snprintf(path, sizeof path, "/proc/%d/%s", int(pid), name);
    const ssize_t n = readFile(path, m_buffer);
    return n > 0 ? std::string_view(m_buffer.data(), size_t(n)) : std::string_view();
}

bool SandboxMemory::readStatus(pid_t pid, Status& status)
{
    const std::string_view text = readProc(pid, "status");
    if (text.empty())
        return false;
    status.vmSizeKb = field(text, "VmSize:");
    status.rssAnonKb = field(text, "RssAnon:");
    status.rssShmemKb = field(text, "RssShmem:");
    status.swapKb = field(text, "VmSwap:");
    status.pteKb = field(text, "VmPTE:");
    status.hugetlbKb = field(text, "HugetlbPages:");
    status.fdSize = int(field(text, "FDSize:"));
    status.threads = int(field(text, "Threads:"));
    const size_t state = text.find("\nState:\t");
    status.state = state == std::string_view::npos || state + 8 >= text.size() ? '?' : text[state + 8];
    return true;
}

pid_t SandboxMemory::liveThread(pid_t pid, Status& status)
{
    // The leader ended alone (the raw exit system call on the main thread): it shows Z and no
    // memory, while the group's other threads run on in the same memory. Any of them tells it.
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/task", int(pid));
    DIR* dir = ::opendir(path);
    if (!dir)
        return -1;
    pid_t found = -1;
    while (const dirent* entry = ::readdir(dir)) {
        const pid_t tid = pid_t(std::atoi(entry->d_name));
        if (tid <= 0 || tid == pid)
            continue;
        Status thread;
        if (readStatus(tid, thread) && !isDead(thread.state) && thread.vmSizeKb > 0) { // /proc/TID: the thread's view
            status = thread;
            found = tid;
            break;
        }
    }
    ::closedir(dir);
    return found;
}

// What the process's descriptors hold: shmem objects (memfds) by allocated size, pipes, and
// sockets with the bytes queued in them (asked through a copy from pidfd_getfd(); ~3 us each).
void SandboxMemory::scanDescriptors(pid_t pid, pid_t group, const Status& status, Process& process)
{
    process.scannedAt = m_sampleNo;
    process.fdObjects.clear();
    process.pipes.clear();
    process.sockets.clear();
    int pidfd = -2; // opened when a socket needs it
    const auto classify = [&](const struct stat& st, int copy, int fd) {
        const Key key{st.st_dev, st.st_ino};
        if (S_ISSOCK(st.st_mode)) {
            qint64 queued = -1;
            if (copy >= 0) {
                queued = socketQueued(copy);
            } else {
                if (pidfd == -2)
                    pidfd = openPidfd(pid, group);
                const int c = pidfd >= 0 ? int(::syscall(SYS_pidfd_getfd, pidfd, fd, 0)) : -1;
                if (c >= 0) {
                    queued = socketQueued(c);
                    ::close(c);
                }
            }
            process.sockets.emplace_back(key, queued);
        } else if (S_ISFIFO(st.st_mode)) {
            process.pipes.push_back(key);
        } else if (S_ISREG(st.st_mode) && isShmemDevice(st.st_dev)) {
            process.fdObjects.emplace_back(key, qint64(st.st_blocks) * 512);
        }
    };
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/fd", int(pid));
    process.fdDenied = false;
    if (DIR* dir = ::opendir(path)) {
        const int dfd = ::dirfd(dir);
        while (const dirent* entry = ::readdir(dir)) {
            struct stat st {};
            if (entry->d_name[0] != '.' && ::fstatat(dfd, entry->d_name, &st, 0) == 0) // the open file
                classify(st, -1, std::atoi(entry->d_name));
        }
        ::closedir(dir);
    } else if (errno != ENOENT && group != m_pid1) { // our own init may be non-dumpable: it holds nothing
        process.fdDenied = !visitFdsThroughPidfd(pid, group, status.fdSize, [&](const struct stat& st, int copy) { classify(st, copy, -1); });
    }
    if (pidfd >= 0)
        ::close(pidfd);
}

// The shared mappings of `pid` whose object lives on the internal shmem mount, sized through
// /proc/<pid>/map_files (needs CAP_SYS_ADMIN; else the process's RssShmem counts). Their pages
// may sit in the object but not in the mapping (MADV_DONTNEED, a partial munmap): RSS misses them.
void SandboxMemory::readMaps(pid_t pid, Process& process)
{
    process.mapsAt = m_sampleNo;
    std::vector<Mapping> mappings;
    process.mapObjects.clear();
    process.mapsUnsizable = false;
    const std::string_view text = readProc(pid, "maps");
    const ssize_t n = ssize_t(text.size());
    for (ssize_t i = 0; i < n;) {
        const char* line = text.data() + i;
        const char* eol = static_cast<const char*>(std::memchr(line, '\n', size_t(n - i)));
        const ssize_t len = eol ? eol - line : n - i;
        i += len + 1;
        // start-end perms offset major:minor inode path
        char* p = nullptr;
        Mapping m;
        m.start = std::strtoul(line, &p, 16);
        m.end = std::strtoul(p + 1, &p, 16);
        if (p + 5 >= line + len || p[4] != 's') // only shared mappings
            continue;
        p = static_cast<char*>(std::memchr(p + 6, ' ', size_t(line + len - (p + 6)))); // skip the offset
        if (!p)
            continue;
        const unsigned long major = std::strtoul(p + 1, &p, 16);
        const unsigned long minor = std::strtoul(p + 1, &p, 16);
        m.key = {makedev(major, minor), ino_t(std::strtoull(p, nullptr, 10))};
        if (m.key.ino != 0 && isShmemDevice(m.key.dev))
            mappings.push_back(m);
    }
    for (const Mapping& m : mappings) {
        char path[96];
        std::snprintf(path, sizeof path, "/proc/%d/map_files/%lx-%lx", int(pid), m.start, m.end);
        struct stat st {};
        if (::stat(path, &st) == 0 && st.st_ino == m.key.ino)
            process.mapObjects.emplace_back(m.key, qint64(st.st_blocks) * 512);
        else if (errno == EPERM || errno == EACCES)
            process.mapsUnsizable = true;
        else
            process.mapsAt = -1; // unmapped or replaced meanwhile: read again next time
    }
}

bool SandboxMemory::readPss(pid_t pid, qint64& pssAnonKb)
{
    const std::string_view text = readProc(pid, "smaps_rollup");
    if (text.empty())
        return false;
    pssAnonKb = field(text, "Pss_Anon:") + field(text, "SwapPss:");
    return true;
}

void SandboxMemory::countTmpfs(const std::vector<pid_t>& pids, SandboxMemorySample& sample)
{
    if (m_mounts.isEmpty())
        return;
    // Any process's root will do (they share one); PID 1's may be denied (non-dumpable).
    for (const pid_t pid : pids) {
        const QByteArray root = QByteArray("/proc/") + QByteArray::number(pid) + "/root";
        struct stat st {};
        if (::stat((root + '/').constData(), &st) != 0)
            continue;
        std::vector<dev_t> seen;
        for (const QString& mount : m_mounts) {
            const QByteArray path = root + mount.toUtf8();
            struct statfs fs {};
            if (::stat(path.constData(), &st) != 0 || ::statfs(path.constData(), &fs) != 0) {
                sample.notes << QStringLiteral("%1: %2").arg(mount, QString::fromLocal8Bit(std::strerror(errno)));
                continue;
            }
            if (std::find(seen.begin(), seen.end(), st.st_dev) != seen.end())
                continue; // the same tmpfs twice
            seen.push_back(st.st_dev);
            if (long(fs.f_type) != kTmpfsMagic) {
                sample.notes << QStringLiteral("%1: not a tmpfs, not counted").arg(mount);
                continue;
            }
            if (fs.f_blocks == 0) // an unsized tmpfs reports no usage
                sample.notes << QStringLiteral("%1: unsized tmpfs, its data not counted").arg(mount);
            sample.tmpfsBytes += qint64(fs.f_blocks - fs.f_bfree) * qint64(fs.f_bsize);
            if (fs.f_files > fs.f_ffree + 1) // the root directory is the mount's own
                sample.tmpfsFiles += int(fs.f_files - fs.f_ffree - 1);
        }
        sample.tmpfsInodeBytes = qint64(sample.tmpfsFiles) * kTmpfsInodeBytes;
        return;
    }
    sample.notes << QStringLiteral("tmpfs mounts unreadable (no process's root is accessible)");
}

// "sockets: used" of the sandbox's own network namespace counts every socket in it, also those
// held only by a message in flight (SCM_RIGHTS) that no descriptor shows; -1 when the sandbox
// shares our namespace (or it cannot be read).
int SandboxMemory::socketsInNamespace(const std::vector<pid_t>& pids)
{
    for (const pid_t pid : pids) {
        if (m_ownNetwork < 0) {
            char path[64];
            struct stat theirs {}, ours {};
            std::snprintf(path, sizeof path, "/proc/%d/ns/net", int(pid));
            if (::stat(path, &theirs) != 0 || ::stat("/proc/self/ns/net", &ours) != 0)
                continue;
            m_ownNetwork = theirs.st_ino != ours.st_ino || theirs.st_dev != ours.st_dev ? 1 : 0;
        }
        if (m_ownNetwork == 0)
            return -1;
        const std::string_view text = readProc(pid, "net/sockstat");
        if (text.rfind("sockets: used ", 0) == 0)
            return int(std::strtol(text.data() + 14, nullptr, 10));
    }
    return -1;
}

SandboxMemorySample SandboxMemory::sample(qint64 exactFrom)
{
    QElapsedTimer timer;
    timer.start();
    const bool full = exactFrom <= 0;
    ++m_sampleNo;
    SandboxMemorySample s;
    s.full = full;
    unsigned long long start = 0;
    if (!startTime(m_pid1, m_buffer, start) || start != m_pid1Start) {
        s.error = QStringLiteral("the sandbox's PID 1 (host pid %1) is gone").arg(m_pid1);
        return s;
    }

    // The tree, breadth first, with the counters of every process, every time. (A pid reused
    // between two samples keeps the old process's scans until its next one; reuse needs pid_max
    // forks within one interval.)
    for (auto& [pid, process] : m_processes)
        process.seen = false;
    struct Live {
        pid_t pid;   // where it is read: the group's leader, or a live thread of it
        pid_t group; // its thread group id (the leader's pid)
        Status status;
        Process* process;
        bool gone = false; // vanished during this sample
        bool sharesMemory = false; // its memory is another's of this sample (counted there)
    };
    std::vector<Live> live;
    std::vector<pid_t> pids{m_pid1};
    std::vector<pid_t> readers; // a readable /proc entry of each live process
    std::unordered_set<pid_t> visited{m_pid1};
    std::vector<pid_t> children;
    for (size_t i = 0; i < pids.size(); ++i) {
        const pid_t pid = pids[i];
        Status status;
        if (!readStatus(pid, status))
            continue; // exited meanwhile
        // A group is live while any of its threads is: a leader that ended alone is read through
        // another thread, and its children may hang off any thread.
        pid_t reader = pid;
        const bool leaderEnded = pid != m_pid1 && (isDead(status.state) || status.vmSizeKb == 0);
        if (leaderEnded)
            reader = liveThread(pid, status);
        children.clear();
        appendChildren(pid, leaderEnded ? 0 : status.threads, m_buffer, children);
        for (const pid_t child : children)
            if (visited.insert(child).second)
                pids.push_back(child);
        if (reader <= 0)
            continue; // a zombie: every thread has exited, nothing left to count
        readers.push_back(reader);
        auto [it, created] = m_processes.try_emplace(pid);
        if (created)
            m_treeGrewAt = m_sampleNo;
        it->second.seen = true;
        live.push_back({reader, pid, status, &it->second});
    }
    for (auto it = m_processes.begin(); it != m_processes.end();)
        it = it->second.seen ? std::next(it) : m_processes.erase(it);

    // Processes that share one memory - a parent suspended in vfork() and its child, clone()
    // with CLONE_VM but not CLONE_THREAD - show the same counters: that memory counts once.
    // Asked (kcmp) only where a kill is decided, a full sample; a cheap one stays an upper bound.
    if (full && live.size() > 2) {
        std::map<std::tuple<qint64, qint64, qint64>, std::vector<size_t>> bySignature;
        for (size_t i = 1; i < live.size(); ++i) // PID 1 aside
            bySignature[{live[i].status.vmSizeKb, live[i].status.rssAnonKb, live[i].status.pteKb}].push_back(i);
        int calls = 0;
        for (const auto& [signature, members] : bySignature) {
            std::vector<size_t> distinct; // one process of each memory seen in this group
            for (const size_t i : members) {
                for (const size_t d : distinct) {
                    if (++calls > kMaxKcmpPerSample)
                        break;
                    if (::syscall(SYS_kcmp, live[d].pid, live[i].pid, kKcmpVm, 0, 0) == 0) {
                        live[i].sharesMemory = true;
                        break;
                    }
                }
                if (!live[i].sharesMemory && distinct.size() < kMaxDistinctPerSignature)
                    distinct.push_back(i);
            }
        }
    }

    // Descriptors and mappings: new processes first, then those whose mappings moved, then the
    // longest unread; within the budget unless full.
    const auto mapsMoved = [](const Live& l) {
        return l.process->mapsAt < 0 || l.process->vmSizeKb != l.status.vmSizeKb || l.process->rssShmemKb != l.status.rssShmemKb;
    };
    std::vector<size_t> work;
    for (size_t i = 0; i < live.size(); ++i) {
        const Process& p = *live[i].process;
        if (full || p.scannedAt < 0 || mapsMoved(live[i]) || m_sampleNo - std::min(p.scannedAt, p.mapsAt) >= kRescanEvery)
            work.push_back(i);
    }
    const auto rank = [&](size_t i) {
        const Process& p = *live[i].process;
        return std::make_pair(p.scannedAt < 0 ? 0 : mapsMoved(live[i]) ? 1 : 2, std::min(p.scannedAt, p.mapsAt));
    };
    std::stable_sort(work.begin(), work.end(), [&](size_t a, size_t b) { return rank(a) < rank(b); });
    QElapsedTimer scanTimer;
    scanTimer.start();
    size_t scanned = 0;
    for (const size_t i : work) {
        Live& l = live[i];
        if (!full && scanned++ > 0 && scanTimer.nsecsElapsed() / 1000 >= m_scanBudgetUs) { // one at least
            ++s.stale;
            continue;
        }
        Process& p = *l.process;
        if (full || p.scannedAt < 0 || m_sampleNo - p.scannedAt >= kRescanEvery)
            scanDescriptors(l.pid, l.group, l.status, p);
        if (full || mapsMoved(l) || m_sampleNo - p.mapsAt >= kRescanEvery) {
            readMaps(l.pid, p);
            p.vmSizeKb = l.status.vmSizeKb;
            p.rssShmemKb = l.status.rssShmemKb;
        }
    }

    // Everything the processes hold, each object once.
    std::unordered_map<Key, qint64, KeyHash> objects;
    std::unordered_set<Key, KeyHash> pipes;
    std::unordered_map<Key, qint64, KeyHash> sockets; // bytes queued, -1 unknown
    for (const Live& l : live) {
        const Process& p = *l.process;
        for (const auto& [key, bytes] : p.fdObjects)
            objects[key] = std::max(objects[key], bytes);
        for (const auto& [key, bytes] : p.mapObjects)
            objects[key] = std::max(objects[key], bytes);
        pipes.insert(p.pipes.begin(), p.pipes.end());
        for (const auto& [key, queued] : p.sockets)
            sockets.try_emplace(key, queued);
        if (p.fdDenied)
            ++s.unreadable;
        if (l.sharesMemory)
            continue; // its descriptors are scanned (the table may be its own), its memory is the other's
        if (p.mapsUnsizable) {
            s.shmemApproximate = true;
            s.shmemBytes += l.status.rssShmemKb * kKiB;
        }
        s.pageTableBytes += l.status.pteKb * kKiB;
    }
    for (const auto& [key, bytes] : objects)
        s.shmemBytes += bytes;
    s.shmemObjects = int(objects.size());
    s.pipes = int(pipes.size());
    s.sockets = int(sockets.size());
    int unreadSockets = 0;
    for (const auto& [key, queued] : sockets) {
        if (queued >= 0)
            s.socketQueuedBytes += queued;
        else
            ++unreadSockets;
    }
    if (const int all = socketsInNamespace(readers); all > s.sockets) { // in flight
        unreadSockets += all - s.sockets;
        s.sockets = all;
    }
    s.bufferBytes = s.socketQueuedBytes + qint64(s.sockets) * kSocketBytes + qint64(unreadSockets) * socketBoundBytes()
                    + qint64(s.pipes) * kPipeBytes;
    countTmpfs(readers, s);
    s.processes = int(live.size());
    const qint64 others = s.pageTableBytes + s.shmemBytes + s.tmpfsBytes + s.tmpfsInodeBytes + s.bufferBytes;

    // Private memory: resident size, or PSS where pages may be shared (more than two processes).
    const auto residentKb = [](const Status& st) { return st.rssAnonKb + st.swapKb; };
    s.exact = live.size() <= 2;
    const qint64 residentTotalKb = std::accumulate(live.begin(), live.end(), qint64(0),
                                                   [&](qint64 sum, const Live& l) { return sum + residentKb(l.status); });
    if (!s.exact && (full || (residentTotalKb * kKiB + others) * 2 >= exactFrom)) {
        // A read stays valid, plus the growth since as private (new pages are), until a new
        // process appears (a fork shares pages anew); a process that shared pages when read is
        // read again every kRescanEvery samples (a copy-on-write break makes a shared page two).
        // Never read or invalid first, then the oldest.
        std::vector<size_t> order;
        for (size_t i = 0; i < live.size(); ++i) {
            const Process& p = *live[i].process;
            const bool shared = p.pssAnonKb * 16 < p.pssRssKb * 15;
            if (p.pssRssKb < 0 || p.pssAt < m_treeGrewAt || (shared && m_sampleNo - p.pssAt >= kRescanEvery))
                order.push_back(i);
        }
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            const Process& pa = *live[a].process;
            const Process& pb = *live[b].process;
            return std::make_pair(pa.pssRssKb >= 0 && pa.pssAt >= m_treeGrewAt, pa.pssAt)
                   < std::make_pair(pb.pssRssKb >= 0 && pb.pssAt >= m_treeGrewAt, pb.pssAt);
        });
        QElapsedTimer pssTimer;
        pssTimer.start();
        size_t read = 0;
        for (const size_t i : order) {
            if (!full && read++ > 0 && pssTimer.nsecsElapsed() / 1000 >= m_scanBudgetUs)
                break;
            Process& p = *live[i].process;
            qint64 pssKb = 0;
            if (readPss(live[i].pid, pssKb)) {
                p.pssRssKb = residentKb(live[i].status);
                p.pssAnonKb = pssKb;
                p.pssAt = m_sampleNo;
            } else if (errno == ENOENT || errno == ESRCH) {
                // Gone since its status was read (e.g. the sandbox is being torn down): its
                // resident size, shared pages and all, must not count.
                live[i].gone = true;
            }
        }
        s.pssUs = pssTimer.nsecsElapsed() / 1000;
    }
    qint64 anonKb = 0;
    bool allPss = true;
    for (const Live& l : live) {
        if (l.gone || l.sharesMemory)
            continue;
        const Process& p = *l.process;
        const qint64 rssKb = residentKb(l.status);
        if (s.exact || p.pssRssKb < 0) {
            anonKb += rssKb;
            allPss = allPss && s.exact;
        } else {
            anonKb += p.pssAnonKb + (rssKb - p.pssRssKb); // growth since counts as private
        }
        anonKb += l.status.hugetlbKb;
    }
    s.exact = s.exact || allPss;
    s.anonBytes = anonKb * kKiB;
    s.totalBytes = s.anonBytes + others;

    // At the threshold the answer decides a kill: read everything now.
    if (!full && s.totalBytes >= exactFrom) {
        SandboxMemorySample confirmed = sample(0);
        confirmed.confirmUs = confirmed.costUs;
        confirmed.costUs = timer.nsecsElapsed() / 1000;
        return confirmed;
    }
    s.costUs = timer.nsecsElapsed() / 1000;
    return s;
}

} // namespace sandpad::localsandbox
