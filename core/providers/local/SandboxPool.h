#pragma once

#include "core/providers/local/LocalSandbox.h"
#include "core/sandbox/SandboxOptions.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <QThread>
#include <vector>

namespace sandpad {

class RunControl;

// Pre-started local sandboxes (docs/local-sandbox.md, "Pool"): per language up to size() of
// them, each started on the pool's own thread, waiting for one job. take() hands one out and the thread starts
// the next. Thread-safe; nothing here blocks the caller except take() while a sandbox of its
// language is still importing.
class SandboxPool {
public:
    // Builds and pre-starts a sandbox (on the pool thread); waitReady is called by the pool.
    using Factory = std::function<std::unique_ptr<LocalSandbox>(Language, const SandboxOptions&)>;
    // How much memory is available (bytes); injectable for tests.
    using MemoryProbe = std::function<qint64()>;

    static constexpr qint64 kRefillBelowBytes = 512LL << 20; // no new sandbox under this
    static constexpr qint64 kShrinkBelowBytes = 256LL << 20; // idle sandboxes are dropped under this
    // A refill waits this long after a take: its imports (~1.5 s of CPU) would otherwise compete
    // with the run that was just handed out (2 cores here); the user is still reading the output.
    static constexpr int kRefillDelayMs = 1000;

    explicit SandboxPool(Factory factory, MemoryProbe memory = {});
    ~SandboxPool(); // stops the thread; every idle sandbox is killed and removed

    void setSize(int perLanguage);   // 0 turns the pool off (and drains it)
    int size() const;
    void start();                    // starts filling (lazily, in the background); never blocks
    bool isStarted() const;
    void drain();                    // drops every idle sandbox (settings/provider changed)
    // The options sandboxes are started with (network, memory, pip). A create() with other
    // options re-targets the pool to them.
    void setOptions(const SandboxOptions& options);

    // A ready (or soon ready) sandbox for these options, or null: take the cold path.
    std::unique_ptr<LocalSandbox> take(const SandboxOptions& options, RunControl& control);

    struct Counts {
        int ready = 0;
        int warming = 0;
    };
    Counts counts(Language language) const;
    // Blocks until every language has size() ready sandboxes (tests, benchmarks); false on timeout.
    bool waitUntilFull(int timeoutMs);

    static qint64 memAvailableBytes(); // /proc/meminfo MemAvailable; -1 if unknown
    static bool sameKind(const SandboxOptions& a, const SandboxOptions& b);

private:
    void loop();
    void dropIdleLocked(); // moves idle sandboxes to the graveyard

    Factory m_factory;
    MemoryProbe m_memory;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::unique_ptr<QThread> m_thread; // a QThread: sandbox runs on it (the font-cache build) use Qt timers
    std::atomic<bool> m_stopping{false};
    bool m_started = false;
    int m_size = 1;
    quint64 m_generation = 0;       // bumped by drain(): sandboxes of older generations are dropped
    SandboxOptions m_options;
    std::map<Language, std::deque<std::unique_ptr<LocalSandbox>>> m_idle;
    std::map<Language, int> m_warming;
    std::map<Language, std::chrono::steady_clock::time_point> m_lastTake;
    std::vector<std::unique_ptr<LocalSandbox>> m_graveyard; // destroyed on the pool thread
};

} // namespace sandpad
