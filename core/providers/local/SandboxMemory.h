#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <sys/types.h>

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
    qint64 bufferBytes = 0;     // upper bound of socket and pipe buffers (per open object)

    int processes = 0;
    int shmemObjects = 0;
    int tmpfsFiles = 0;
    int sockets = 0;
    int pipes = 0;
    int unreadable = 0;  // processes (PID 1 aside) whose descriptors could not be read

    // anonBytes is PSS (a copy-on-write page shared after fork counted once). When false it is
    // the resident size of each process, an upper bound: the sample was below `exactFrom`.
    bool exact = false;
    // Some shared mappings' objects could not be sized (no CAP_SYS_ADMIN for map_files): their
    // resident pages were counted instead (pages dropped with MADV_DONTNEED are then missed).
    bool shmemApproximate = false;
    QStringList notes;   // e.g. a mount that is not a sized tmpfs
    qint64 costUs = 0;   // what taking this sample cost
    QString error;       // PID 1 gone or unreadable: nothing was counted

    bool valid() const { return error.isEmpty(); }
    // "1.2 GiB = processes 1.1 GiB (4, PSS) + page tables 2.3 MiB + ..." for diagnostics.
    QString describe() const;
};

// Samples the memory of one sandbox, given the host pid of its PID 1 and the sandbox-side paths
// of its tmpfs mounts. Works as root and as the unprivileged owner of the sandbox's processes.
// Keeps a little state between samples (what each process maps), so reuse one per sandbox.
// Not thread-safe; cheap to construct.
class SandboxMemory {
public:
    static constexpr qint64 kTmpfsInodeBytes = 2048;  // measured: ~2.2 KiB of MemAvailable per empty file
    static constexpr qint64 kPipeBytes = 64 * 1024;   // a pipe's default capacity (16 pages)
    static constexpr int kMapsRescanEvery = 10;       // samples; see sample()
    static constexpr int kPssRefreshEvery = 10;

    static QStringList defaultTmpfsMounts(); // /tmp, /home/sandbox, /dev/shm

    SandboxMemory(pid_t pid1, QStringList tmpfsMounts = defaultTmpfsMounts());

    // Walks PID 1's descendants (/proc/<pid>/task/<tid>/children) and counts them. Shared pages
    // after fork are counted by resident size in each process (cheap: counters in
    // /proc/<pid>/status) until that total reaches `exactFrom`; from there by PSS
    // (smaps_rollup, ~33 ms per resident GiB here), refreshed per process when its resident size
    // moves or every kPssRefreshEvery samples. exactFrom = 0: always PSS. A tree of at most two
    // processes is exact either way (nothing to share after exec).
    SandboxMemorySample sample(qint64 exactFrom = 0);

    pid_t pid1() const { return m_pid1; }

private:
    struct Mapping {
        unsigned long start = 0, end = 0;
        dev_t dev = 0;
        ino_t ino = 0;
    };
    // What is remembered of a process between samples.
    struct Process {
        unsigned long long startTime = 0; // tells a reused pid apart
        qint64 vmSizeKb = -1, rssShmemKb = -1;
        int mapsAge = 0;                  // samples since /proc/<pid>/maps was read
        std::vector<Mapping> shmemMappings;
        bool mapsUnsizable = false;       // map_files denied: count RssShmem instead
        qint64 pssRssKb = -1, pssAnonKb = 0; // RssAnon+VmSwap and PSS at the last smaps_rollup
        int pssAge = 0;
        bool seen = false;
    };
    struct Status {
        qint64 vmSizeKb = 0, rssAnonKb = 0, rssShmemKb = 0, swapKb = 0, pteKb = 0, hugetlbKb = 0;
        int fdSize = 0; // slots of the descriptor table
    };

    bool readStatus(pid_t pid, Status& status);
    void readMaps(pid_t pid, Process& process);
    bool readPss(pid_t pid, qint64& pssAnonKb);
    void countTmpfs(const std::vector<pid_t>& pids, SandboxMemorySample& sample);

    pid_t m_pid1;
    unsigned long long m_pid1Start = 0;
    QStringList m_mounts;
    std::unordered_map<pid_t, Process> m_processes;
    std::vector<char> m_buffer;
};

} // namespace sandpad::localsandbox
