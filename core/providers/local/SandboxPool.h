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

// Pre-started local sandboxes (docs/local-sandbox.md, "Pool"): per language in use, a target
// number of them, launched on the pool's own thread and polled there until their imports are
// done. take() hands out a ready one, else one still importing (it stops importing and takes the
// job: started earlier than a cold start would be), and the pool launches the next at once. Runs
// that come faster than the pool refills (a burst: Run All, Shift+Enter through cells: a take
// that finds none ready) raise the target up to burstMax; it falls back to size() when takes stop. Thread-safe; nothing here
// blocks the caller.
class SandboxPool {
public:
    // Builds and pre-starts a sandbox (on the pool thread); waitReady is called by the pool.
    using Factory = std::function<std::unique_ptr<LocalSandbox>(Language, const SandboxOptions&)>;
    // How much memory is available (bytes); injectable for tests.
    using MemoryProbe = std::function<qint64()>;

    static constexpr qint64 kRefillBelowBytes = 512LL << 20; // no new sandbox under this
    static constexpr qint64 kShrinkBelowBytes = 256LL << 20; // idle sandboxes are dropped under this
    // With no take for this long the target goes back to size() and the extra ones are dropped.
    static constexpr int kShrinkAfterMs = 30000;
    static constexpr int kDefaultBurstMax = 4;

    explicit SandboxPool(Factory factory, MemoryProbe memory = {});
    ~SandboxPool(); // stops the thread; every idle sandbox is killed and removed

    void setSize(int perLanguage);   // 0 turns the pool off (and drains it)
    int size() const;
    // The most a burst may raise a language's target to (>= size(); memory bounds it too).
    void setBurstMax(int perLanguage);
    int target(Language language) const;
    // Keeps this language warm from now on (Python is from the start; a take of another language
    // warms it too: a tab that runs JavaScript gets a warm node).
    void warmLanguage(Language language);
    void setShrinkAfter(std::chrono::milliseconds idle); // kShrinkAfterMs; tests shorten it
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
    // Blocks until every language in use has its target of ready sandboxes (tests, benchmarks);
    // false on timeout.
    bool waitUntilFull(int timeoutMs);

    static qint64 memAvailableBytes(); // /proc/meminfo MemAvailable; -1 if unknown
    static bool sameKind(const SandboxOptions& a, const SandboxOptions& b);

private:
    struct Starting {
        std::unique_ptr<LocalSandbox> sandbox;
        std::chrono::steady_clock::time_point since;
    };
    void loop();
    void dropIdleLocked(); // moves idle and starting sandboxes to the graveyard
    // Moves starting sandboxes that became ready to the idle queue and failed ones to the
    // graveyard (counting failures); true when some are still starting.
    bool pollStartingLocked(std::map<Language, int>& failures);
    void shrinkLocked(std::chrono::steady_clock::time_point now);
    bool fullLocked() const;

    Factory m_factory;
    MemoryProbe m_memory;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::unique_ptr<QThread> m_thread; // a QThread: sandbox runs on it (the font-cache build) use Qt timers
    std::atomic<bool> m_stopping{false};
    bool m_started = false;
    int m_size = 1;
    int m_burstMax = kDefaultBurstMax;
    std::chrono::milliseconds m_shrinkAfter{kShrinkAfterMs};
    quint64 m_generation = 0;       // bumped by drain(): sandboxes of older generations are dropped
    SandboxOptions m_options;
    std::map<Language, std::deque<std::unique_ptr<LocalSandbox>>> m_idle; // ready
    std::map<Language, std::deque<Starting>> m_starting;                   // still importing
    std::map<Language, int> m_launching; // being launched by the pool thread (outside the lock)
    std::map<Language, int> m_target;    // size() plus what a burst added
    std::map<Language, bool> m_inUse;
    std::map<Language, std::chrono::steady_clock::time_point> m_lastTake;
    std::vector<std::unique_ptr<LocalSandbox>> m_graveyard; // destroyed on the pool thread
};

} // namespace sandpad
