#pragma once

#include "core/completion/AssistTypes.h"
#include "core/sandbox/Sandbox.h"

#include <QObject>
#include <QString>
#include <array>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace sandpad {

class LocalProvider;
class LocalServiceSandbox;

// The Python language service (docs/local-sandbox.md, "Language service"): Jedi in a local
// bubblewrap sandbox of its own (no network, no host files beyond the read-only system, the
// limits of a run), long-lived, warmed up for numpy/pandas/matplotlib, restarted when it dies,
// ended with this object (its processes confirmed gone). The buffer text is user input and the
// answers come from the sandbox: requests are capped in size, each has a deadline (the service's
// own, then the host's: past it the sandbox is killed and started again), answers are bounded
// (JediProtocol). Requests are queued per kind and the newest of a kind wins: an older one still
// waiting is dropped, and the answer to one overtaken while it ran is not delivered.
// The API is for the thread that owns the object (the GUI); the sandbox lives on a worker thread.
class CompletionService : public QObject {
    Q_OBJECT
public:
    struct Options {
        int deadlineMs = 1500;          // the service's own deadline per request
        int graceMs = 2000;             // then the host waits this much more before killing it
        int startTimeoutMs = 120000;    // import and warm-up
        int memoryMb = 1024;            // address space above what the warm-up holds
        qint64 maxSourceBytes = 1024 * 1024; // a bigger buffer is not sent ("too large")
        qint64 maxAnswerBytes = 1024 * 1024; // a longer answer line ends the service
        int retryAfterFailedStartMs = 15000; // no new start sooner after one failed
        QString python;                 // the interpreter inside the sandbox; empty: /usr/bin/python3
        // The service keeps Jedi's inference and each completion context across requests; false:
        // a new jedi.Script per request, as before (the benchmark's baseline in the same run).
        bool reuseInference = true;
    };

    explicit CompletionService(QObject* parent = nullptr);
    explicit CompletionService(const Options& options, QObject* parent = nullptr);
    ~CompletionService() override; // shutdown()

    // Starts the service in the background (first use does too): call when a Python tab opens.
    void start();
    // Queues a request and returns its id at once; its answer comes as answered() (unless a newer
    // request of its kind overtook it).
    quint64 request(const AssistRequest& request);
    // Ends the service and waits until its sandbox is confirmed gone. Later requests are answered
    // "unavailable".
    CleanupReport shutdown();

    bool isReady() const { return m_ready.load(); }
    // How many times the sandbox was started (a restart after a death or a late answer counts).
    int starts() const { return m_starts.load(); }
    // Host pids of the running service's sandbox (tests look at them from outside); -1 if none.
    int servicePid1() const { return m_pid1.load(); }
    int interpreterPid() const { return m_interpreterPid.load(); }
    QString lastError() const;

    // For tests and benchmarks: request() and wait (an event loop) for its answer, up to timeoutMs.
    AssistAnswer ask(const AssistRequest& request, int timeoutMs);
    // Waits (an event loop) until the service is ready or timeoutMs passed.
    bool waitReady(int timeoutMs);

signals:
    void answered(const sandpad::AssistAnswer& answer);
    void readyChanged(bool ready);

private:
    struct Pending {
        quint64 id = 0;
        AssistRequest request;
        qint64 queuedAtMs = 0;
    };
    void ensureWorker();
    void work();
    bool startSandbox(std::unique_lock<std::mutex>& lock);
    void stopSandbox();
    AssistAnswer handle(const Pending& pending);
    void deliver(const AssistAnswer& answer);
    void setReady(bool ready);

    Options m_options;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::array<std::optional<Pending>, 3> m_pending; // one per AssistKind: the newest
    std::array<quint64, 3> m_latest{};               // the newest id requested per kind
    quint64 m_nextId = 1;
    bool m_wantStart = false;
    bool m_stopping = false;
    QString m_lastError;
    qint64 m_failedAtMs = -1;
    std::thread m_worker;
    // The worker's own (only it touches these).
    std::unique_ptr<LocalProvider> m_provider;
    std::unique_ptr<LocalServiceSandbox> m_sandbox;
    CleanupReport m_cleanup{true, {}};
    std::atomic<bool> m_ready{false};
    std::atomic<bool> m_abort{false}; // shutdown(): a start under way gives up (the app quits at once)
    std::atomic<int> m_starts{0};
    std::atomic<int> m_pid1{-1};
    std::atomic<int> m_interpreterPid{-1};
};

} // namespace sandpad
