#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <sys/types.h>

#include <string_view>
#include <unordered_map>
#include <vector>

namespace sandpad::localsandbox {

// One sample of the memory a sandbox holds, seen from the host (bytes). What is and is not
// counted: docs/local-sandbox.md, "Memory limit".
struct SandboxMemorySample {
    qint64 totalBytes = 0;
    // The parts of the total:
    qint64 anonBytes = 0;       // the processes' private memory, swapped-out part included
    qint64 pageTableBytes = 0;  // their page tables (a sparse mapping costs them, not RSS)
    qint64 shmemBytes = 0;      // memfds and shared anonymous memory: each object once, whole
    qint64 tmpfsBytes = 0;      // file data in the sandbox's tmpfs mounts
    qint64 tmpfsInodeBytes = 0; // kernel memory of their files (kTmpfsInodeBytes each)
    // Socket and pipe buffers: bytes queued in each socket plus kSocketBytes, a bound for each
    // socket that cannot be asked (in flight, or pidfd_getfd refused), kPipeBytes per pipe.
    qint64 bufferBytes = 0;
    qint64 socketQueuedBytes = 0; // of that, queued in the sockets that were asked

    int processes = 0;
    int shmemObjects = 0;
    int tmpfsFiles = 0;
    int sockets = 0;     // open, or in flight (SCM_RIGHTS) when the sandbox has its own network
    int pipes = 0;
    int unreadable = 0;  // processes (PID 1 aside) whose descriptors could not be read
    int stale = 0;       // processes whose descriptors or mappings are from an earlier sample

    // anonBytes is PSS (a copy-on-write page shared after fork counted once), read now or at an
    // earlier sample plus the growth since. When false some processes count by resident size,
    // an upper bound: the sample was below `exactFrom`. `full`: every process was read now.
    bool exact = false;
    bool full = false;
    // Some shared mappings' objects could not be sized (no CAP_SYS_ADMIN for map_files): their
    // resident pages were counted instead (pages dropped with MADV_DONTNEED are then missed).
    bool shmemApproximate = false;
    QStringList notes;   // e.g. a mount that is not a sized tmpfs
    qint64 costUs = 0;   // what taking this sample cost
    qint64 confirmUs = 0; // of that, the full sample that confirmed a total at the threshold
    qint64 pssUs = 0;     // and reading PSS in this sample (not counting the confirmation)
    QString error;       // PID 1 gone or unreadable: nothing was counted

    bool valid() const { return error.isEmpty(); }
    // "1.2 GiB = processes 1.1 GiB (4, PSS) + page tables 2.3 MiB + ..." for diagnostics.
    QString describe() const;
};

// Samples the memory of one sandbox, given the host pid of its PID 1 and the sandbox-side paths
// of its tmpfs mounts. Works as root and as the unprivileged owner of the sandbox's processes.
// Keeps what it learned of each process between samples (its descriptors, mappings, PSS), so
// use one per sandbox for its whole life. Not thread-safe.
class SandboxMemory {
public:
    static constexpr qint64 kTmpfsInodeBytes = 2048;  // measured: ~2.2 KiB of MemAvailable per empty file
    static constexpr qint64 kPipeBytes = 64 * 1024;   // a pipe's default capacity (16 pages)
    static constexpr qint64 kSocketBytes = 4096;      // a socket's own structures, besides its queues
    // A process's descriptors and mappings are re-read at least every kRescanEvery samples, and
    // the shared mappings whenever its VmSize or RssShmem moved; new processes first. Below the
    // threshold this work stops after kScanBudgetUs per sample (256 processes of 1024
    // descriptors would take ~1 s), the rest waits for its turn.
    static constexpr int kRescanEvery = 10;
    static constexpr qint64 kScanBudgetUs = 2000;

    static QStringList defaultTmpfsMounts(); // /tmp, /home/sandbox, /dev/shm

    explicit SandboxMemory(pid_t pid1, QStringList tmpfsMounts = defaultTmpfsMounts());

    // Walks PID 1's descendants (/proc/<pid>/task/<tid>/children) and counts them. Private
    // memory: resident size (an upper bound once pages are shared after fork) until the total
    // passes half of `exactFrom`, then each process's PSS (smaps_rollup, ~30-70 ms per resident
    // GiB here) plus its growth since, read again once a new process appeared or, if it shared
    // pages, every kRescanEvery samples. Below exactFrom a sample is cheap (kScanBudgetUs); a
    // total at or above it is confirmed by a full sample: every process's descriptors and
    // mappings read now, and every PSS that is due. exactFrom = 0: always full. A tree of at
    // most two processes needs no PSS (nothing is shared after exec).
    SandboxMemorySample sample(qint64 exactFrom = 0);

    pid_t pid1() const { return m_pid1; }
    void setScanBudgetUs(qint64 us) { m_scanBudgetUs = us; }

private:
    struct Key {
        dev_t dev = 0;
        ino_t ino = 0;
        bool operator==(const Key& o) const { return dev == o.dev && ino == o.ino; }
    };
    struct KeyHash {
        size_t operator()(const Key& k) const { return std::hash<quint64>()(quint64(k.ino) * 1000003u ^ quint64(k.dev)); }
    };
    struct Mapping {
        unsigned long start = 0, end = 0;
        Key key;
    };
    struct Status {
        qint64 vmSizeKb = 0, rssAnonKb = 0, rssShmemKb = 0, swapKb = 0, pteKb = 0, hugetlbKb = 0;
        int fdSize = 0; // slots of the descriptor table
        int threads = 0;
        char state = '?'; // R, S, D, T, t, Z, X, ...
    };
    static bool isDead(char state) { return state == 'Z' || state == 'X'; }
    // What is remembered of a process between samples.
    struct Process {
        int scannedAt = -1, mapsAt = -1, pssAt = -1; // sample numbers
        qint64 vmSizeKb = -1, rssShmemKb = -1;       // when the maps were read
        std::vector<std::pair<Key, qint64>> fdObjects, mapObjects; // shmem objects: bytes allocated
        std::vector<Key> pipes;
        std::vector<std::pair<Key, qint64>> sockets;  // bytes queued when scanned, -1 unknown
        bool fdDenied = false;
        bool mapsUnsizable = false;                  // map_files denied: count RssShmem instead
        qint64 pssRssKb = -1, pssAnonKb = 0;         // RssAnon+VmSwap and PSS at the last smaps_rollup
        bool seen = false;
    };

    // /proc/<pid>/<name> in m_buffer (valid until the next read), empty if unreadable.
    std::string_view readProc(pid_t pid, const char* name);
    bool readStatus(pid_t pid, Status& status);
    // A live thread of a group whose leader has ended (its status into `status`), else -1.
    pid_t liveThread(pid_t pid, Status& status);
    // `pid`: the leader or a live thread of the group `group`.
    void scanDescriptors(pid_t pid, pid_t group, const Status& status, Process& process);
    void readMaps(pid_t pid, Process& process);
    bool readPss(pid_t pid, qint64& pssAnonKb);
    void countTmpfs(const std::vector<pid_t>& pids, SandboxMemorySample& sample);
    int socketsInNamespace(const std::vector<pid_t>& pids);

    pid_t m_pid1;
    unsigned long long m_pid1Start = 0;
    QStringList m_mounts;
    qint64 m_scanBudgetUs = kScanBudgetUs;
    int m_sampleNo = 0;
    int m_treeGrewAt = 0;  // the last sample that found a new process
    int m_ownNetwork = -1; // the sandbox has its own network namespace: 1, shares ours: 0
    std::unordered_map<pid_t, Process> m_processes;
    std::vector<char> m_buffer;
};

} // namespace sandpad::localsandbox
