#include "providers/local/SandboxMemory.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <string_view>
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
constexpr qint64 kKiB = 1024;

struct DevIno {
    dev_t dev;
    ino_t ino;
    bool operator==(const DevIno& o) const { return dev == o.dev && ino == o.ino; }
};
struct DevInoHash {
    size_t operator()(const DevIno& k) const { return std::hash<quint64>()(quint64(k.ino) * 1000003u ^ quint64(k.dev)); }
};

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

// What one open socket can hold at most: its send buffer, which SO_SNDBUF can raise to twice
// net.core.wmem_max (a unix socket's data waits in the peer's queue, charged to the sender).
qint64 socketBytes()
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

// Appends the children of every thread of `pid` (a forked process hangs off the thread that
// forked it; orphans are reparented to the namespace's PID 1).
void appendChildren(pid_t pid, std::vector<char>& buf, std::vector<pid_t>& out)
{
    char path[320];
    std::snprintf(path, sizeof path, "/proc/%d/task", int(pid));
    DIR* dir = ::opendir(path);
    if (!dir)
        return;
    while (const dirent* entry = ::readdir(dir)) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
            continue;
        std::snprintf(path, sizeof path, "/proc/%d/task/%s/children", int(pid), entry->d_name);
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
    ::closedir(dir);
}

// Counts one open file of a sandbox process: its kind is all we need of a socket or pipe, and a
// shmem object's allocated size.
template <class Objects, class Set>
void classify(const struct stat& st, Objects& objects, Set& sockets, Set& pipes)
{
    const typename Set::key_type key{st.st_dev, st.st_ino};
    if (S_ISSOCK(st.st_mode))
        sockets.insert(key);
    else if (S_ISFIFO(st.st_mode))
        pipes.insert(key);
    else if (S_ISREG(st.st_mode) && isShmemDevice(st.st_dev))
        objects[key] = qint64(st.st_blocks) * 512;
}

// The descriptors of a process whose /proc/<pid>/fd is denied: a non-dumpable one, as its owner
// (the directory then belongs to root). pidfd_getfd() copies each descriptor below FDSize to us
// (allowed: we own the process's user namespace), just to fstat it.
template <class Visit>
bool visitFdsThroughPidfd(pid_t pid, int fdTableSize, const Visit& visit)
{
    const int pidfd = int(::syscall(SYS_pidfd_open, pid, 0));
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
            visit(st);
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
    parts << QStringLiteral("buffers up to %1 (%2 sockets, %3 pipes)").arg(mib(bufferBytes)).arg(sockets).arg(pipes);
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

bool SandboxMemory::readStatus(pid_t pid, Status& status)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/status", int(pid));
    const ssize_t n = readFile(path, m_buffer);
    if (n <= 0)
        return false;
    const std::string_view text(m_buffer.data(), size_t(n));
    status.vmSizeKb = field(text, "VmSize:");
    status.rssAnonKb = field(text, "RssAnon:");
    status.rssShmemKb = field(text, "RssShmem:");
    status.swapKb = field(text, "VmSwap:");
    status.pteKb = field(text, "VmPTE:");
    status.hugetlbKb = field(text, "HugetlbPages:");
    status.fdSize = int(field(text, "FDSize:"));
    return true;
}

// The shared mappings of `pid` whose object lives on the internal shmem mount (their pages may
// be resident in the object but not in the mapping: MADV_DONTNEED, a partial munmap).
void SandboxMemory::readMaps(pid_t pid, Process& process)
{
    process.mapsAge = 0;
    process.shmemMappings.clear();
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/maps", int(pid));
    const ssize_t n = readFile(path, m_buffer);
    for (ssize_t i = 0; i < n;) {
        const char* line = m_buffer.data() + i;
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
        p = static_cast<char*>(std::memchr(p + 6, ' ', size_t(line + len - (p + 6)))); // skip offset
        if (!p)
            continue;
        const unsigned long major = std::strtoul(p + 1, &p, 16);
        const unsigned long minor = std::strtoul(p + 1, &p, 16);
        m.dev = makedev(major, minor);
        m.ino = ino_t(std::strtoull(p, nullptr, 10));
        if (m.ino != 0 && isShmemDevice(m.dev))
            process.shmemMappings.push_back(m);
    }
}

bool SandboxMemory::readPss(pid_t pid, qint64& pssAnonKb)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/smaps_rollup", int(pid));
    const ssize_t n = readFile(path, m_buffer);
    if (n <= 0)
        return false;
    const std::string_view text(m_buffer.data(), size_t(n));
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

SandboxMemorySample SandboxMemory::sample(qint64 exactFrom)
{
    QElapsedTimer timer;
    timer.start();
    SandboxMemorySample s;
    unsigned long long start = 0;
    if (!startTime(m_pid1, m_buffer, start) || start != m_pid1Start) {
        s.error = QStringLiteral("the sandbox's PID 1 (host pid %1) is gone").arg(m_pid1);
        return s;
    }

    std::vector<pid_t> pids{m_pid1};
    {
        std::unordered_set<pid_t> visited{m_pid1};
        std::vector<pid_t> children;
        for (size_t i = 0; i < pids.size(); ++i) {
            children.clear();
            appendChildren(pids[i], m_buffer, children);
            for (const pid_t child : children)
                if (visited.insert(child).second)
                    pids.push_back(child);
        }
    }

    for (auto& [pid, process] : m_processes)
        process.seen = false;

    struct Live {
        pid_t pid;
        Status status;
        Process* process;
    };
    std::vector<Live> live;
    live.reserve(pids.size());
    std::unordered_map<DevIno, qint64, DevInoHash> objects; // shmem objects: bytes allocated
    std::unordered_set<DevIno, DevInoHash> sockets, pipes;
    char path[96];

    // Pass 1: counters, and the objects behind open descriptors.
    for (const pid_t pid : pids) {
        Status status;
        unsigned long long started = 0;
        if (!startTime(pid, m_buffer, started) || !readStatus(pid, status))
            continue; // exited meanwhile, or a zombie: nothing left to count
        Process& process = m_processes[pid];
        if (process.startTime != started)
            process = Process{};
        process.startTime = started;
        process.seen = true;
        live.push_back({pid, status, &process});
        if (status.vmSizeKb == 0) // exiting: its memory is gone
            continue;

        std::snprintf(path, sizeof path, "/proc/%d/fd", int(pid));
        if (DIR* dir = ::opendir(path)) {
            const int dfd = ::dirfd(dir);
            while (const dirent* entry = ::readdir(dir)) {
                struct stat st {};
                if (entry->d_name[0] != '.' && ::fstatat(dfd, entry->d_name, &st, 0) == 0) // the open file
                    classify(st, objects, sockets, pipes);
            }
            ::closedir(dir);
        } else if (errno != ENOENT && pid != m_pid1 // our own init may be non-dumpable: it holds nothing
                   && !visitFdsThroughPidfd(pid, status.fdSize, [&](const struct stat& st) { classify(st, objects, sockets, pipes); })) {
            ++s.unreadable;
        }

        // Re-read the mappings when they may have changed, and now and then anyway (a mapping
        // replaced by one of the same size changes neither counter).
        if (process.vmSizeKb != status.vmSizeKb || process.rssShmemKb != status.rssShmemKb
            || ++process.mapsAge >= kMapsRescanEvery) {
            readMaps(pid, process);
            process.vmSizeKb = status.vmSizeKb;
            process.rssShmemKb = status.rssShmemKb;
        }
    }

    // Pass 2: shared objects reachable only through a mapping (the descriptor closed), sized
    // through /proc/<pid>/map_files (needs CAP_SYS_ADMIN; else their resident pages count).
    for (Live& l : live) {
        Process& process = *l.process;
        process.mapsUnsizable = false;
        for (const Mapping& m : process.shmemMappings) {
            const DevIno key{m.dev, m.ino};
            if (objects.count(key))
                continue;
            std::snprintf(path, sizeof path, "/proc/%d/map_files/%lx-%lx", int(l.pid), m.start, m.end);
            struct stat st {};
            if (::stat(path, &st) == 0 && st.st_ino == m.ino) {
                objects[key] = qint64(st.st_blocks) * 512;
            } else if (errno == EPERM || errno == EACCES) {
                process.mapsUnsizable = true;
            } else {
                process.mapsAge = kMapsRescanEvery; // unmapped or replaced: read the maps again
            }
        }
        if (process.mapsUnsizable) {
            s.shmemApproximate = true;
            s.shmemBytes += l.status.rssShmemKb * kKiB;
        }
    }
    for (const auto& [key, bytes] : objects)
        s.shmemBytes += bytes;
    s.shmemObjects = int(objects.size());
    s.sockets = int(sockets.size());
    s.pipes = int(pipes.size());
    s.bufferBytes = qint64(s.sockets) * socketBytes() + qint64(s.pipes) * kPipeBytes;

    countTmpfs(pids, s);

    qint64 residentKb = 0;
    for (const Live& l : live) {
        residentKb += l.status.rssAnonKb + l.status.swapKb + l.status.hugetlbKb;
        s.pageTableBytes += l.status.pteKb * kKiB;
    }
    s.processes = int(live.size());
    const qint64 others = s.pageTableBytes + s.shmemBytes + s.tmpfsBytes + s.tmpfsInodeBytes + s.bufferBytes;
    s.anonBytes = residentKb * kKiB;
    s.exact = s.processes <= 2;
    if (!s.exact && s.anonBytes + others >= exactFrom) {
        // PSS, re-read per process when its resident size moved or its turn came (staggered by
        // pid so that the cost spreads over samples); in between its growth counts as private.
        qint64 anonKb = 0;
        for (const Live& l : live) {
            Process& p = *l.process;
            const qint64 rssKb = l.status.rssAnonKb + l.status.swapKb;
            const bool moved = p.pssRssKb < 0 || std::abs(rssKb - p.pssRssKb) > std::max<qint64>(p.pssRssKb / 16, 8192);
            if (p.pssRssKb < 0)
                p.pssAge = int(l.pid % kPssRefreshEvery);
            qint64 pssKb = 0;
            if ((moved || ++p.pssAge >= kPssRefreshEvery) && readPss(l.pid, pssKb)) {
                p.pssRssKb = rssKb;
                p.pssAnonKb = pssKb;
                p.pssAge = 0;
            }
            anonKb += p.pssRssKb < 0 ? rssKb : p.pssAnonKb + (rssKb - p.pssRssKb);
            anonKb += l.status.hugetlbKb;
        }
        s.anonBytes = anonKb * kKiB;
        s.exact = true;
    }
    s.totalBytes = s.anonBytes + others;

    for (auto it = m_processes.begin(); it != m_processes.end();)
        it = it->second.seen ? std::next(it) : m_processes.erase(it);
    s.costUs = timer.nsecsElapsed() / 1000;
    return s;
}

} // namespace sandpad::localsandbox
