#pragma once

#include "core/providers/local/SandboxMemory.h"

#include <QElapsedTimer>
#include <QThread>
#include <QTimer>
#include <atomic>
#include <functional>

namespace sandpad::localsandbox {

// The host-side memory limit where no delegated cgroup holds one (see CgroupDelegation): samples
// the whole sandbox (SandboxMemory) on a QTimer in the thread whose event loop runs it, and
// calls `kill` once when the total crosses the limit. Created and used in that one thread.
class MemoryWatchdog {
public:
    // Between samples. A sample of one Python process costs ~0.1 ms here, 0.2% of a core at
    // 50 ms (tests/bench/bench_memory_watchdog has the costs and the overshoot).
    static constexpr int kDefaultIntervalMs = 50;
    // Sooner when the total grows fast enough to reach the limit before the next sample (half
    // the time the last growth rate needs), and past kNearPercent of the limit; never below
    // kNearIntervalMs.
    static constexpr int kNearIntervalMs = 10;
    static constexpr int kNearPercent = 75;
    // Cheap samples never take more than 1/kCpuShare of the time (256 processes cost
    // milliseconds). Not throttled: the full sample that confirms a kill, and PSS reads (one
    // or a few per sample, only past half the limit, and again only after a fork or for
    // processes that share pages): when they are due is when memory matters, and only the
    // run's own thread waits for them.
    static constexpr int kCpuShare = 10;

    MemoryWatchdog(SandboxMemory memory, qint64 limitBytes, std::function<void()> kill,
                   int intervalMs = kDefaultIntervalMs, int nearIntervalMs = kNearIntervalMs);

    // Samples now, then every interval until stop(), the sandbox's end, or the kill.
    void start();
    void stop() { m_timer.stop(); }
    // One sample now (e.g. right before the run's result is reported).
    void sampleNow();

    qint64 limitBytes() const { return m_limit; }
    bool exceeded() const { return m_exceeded; }
    // The largest total seen and its sample (the one that crossed the limit, if one did).
    qint64 peakBytes() const { return m_peak.totalBytes; }
    const SandboxMemorySample& peak() const { return m_peak; }
    const SandboxMemorySample& last() const { return m_last; }
    int samples() const { return m_samples; }
    qint64 totalCostUs() const { return m_costUs; }
    // "the run used more than 1024 MiB and was stopped" once exceeded, else empty.
    QString message() const { return m_exceeded ? exceededMessage(m_limit) : QString(); }
    // The same words for the cgroup path.
    static QString exceededMessage(qint64 limitBytes);

private:
    void tick();
    int nextIntervalMs() const;

    SandboxMemory m_memory;
    qint64 m_limit;
    std::function<void()> m_kill;
    int m_intervalMs;
    int m_nearIntervalMs;
    QTimer m_timer;
    SandboxMemorySample m_last, m_peak;
    qint64 m_growthPerMs = 0;  // bytes, between the last two samples
    QElapsedTimer m_clock;
    qint64 m_lastAtMs = -1;
    bool m_exceeded = false;
    int m_samples = 0;
    qint64 m_costUs = 0;
};

// A MemoryWatchdog on a thread of its own, for a sandbox that outlives one call: a notebook
// session's, whose threads and processes can grow between executions, during fetches and
// completion as well as during an execution. Past the limit it kills PID 1 through a pidfd of
// its own (the whole namespace goes), then calls `onExceeded` (on its thread).
class MemoryWatchdogThread {
public:
    MemoryWatchdogThread(pid_t pid1, int pid1Fd, QStringList tmpfsMounts, qint64 limitBytes,
                         std::function<void()> onExceeded = {});
    ~MemoryWatchdogThread(); // stop()
    MemoryWatchdogThread(const MemoryWatchdogThread&) = delete;
    MemoryWatchdogThread& operator=(const MemoryWatchdogThread&) = delete;

    void start();
    void stop(); // joins the thread; no callback comes after it returns
    // Set before the kill, so whoever sees the sandbox die can tell why. Any thread.
    bool exceeded() const { return m_exceeded.load(); }
    QString message() const { return exceeded() ? MemoryWatchdog::exceededMessage(m_limit) : QString(); }
    int samples() const { return m_samples.load(); }
    qint64 totalCostUs() const { return m_costUs.load(); }

private:
    class Thread : public QThread {
    public:
        explicit Thread(MemoryWatchdogThread* owner) : m_owner(owner) {}
        void run() override;
        MemoryWatchdogThread* m_owner;
    };

    pid_t m_pid1;
    int m_pid1Fd = -1; // our own duplicate
    QStringList m_mounts;
    qint64 m_limit;
    std::function<void()> m_onExceeded;
    std::atomic<bool> m_exceeded{false};
    std::atomic<int> m_samples{0};
    std::atomic<qint64> m_costUs{0};
    Thread m_thread{this};
};

} // namespace sandpad::localsandbox
