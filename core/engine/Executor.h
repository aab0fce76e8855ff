#pragma once

#include "core/run/ExecutionRequest.h"
#include "core/run/ExecutionResult.h"
#include "core/run/RunOrigin.h"
#include "core/sandbox/Deadline.h"
#include "core/sandbox/Sandbox.h"
#include "core/sandbox/SandboxOptions.h"

#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>

namespace sandpad {

class Database;
class DocumentStore;
class UsageLedger;
class CreditsAccount;
class SandboxProvider;
class Run;
class RemoteAllocations;
class SessionLease;

// Settings the Executor applies to every run (from the user's settings, flags and environment).
struct ExecutorConfig {
    int deadlineSeconds = Deadline::kDefaultSeconds; // bounds every request; clamped to [1, Deadline::kMaxSeconds]
    qint64 keepBytesPerStream = 4 << 20;// what a result keeps of stdout and of stderr
    SandboxOptions sandbox;             // network, memory, pip wheels (language set per run)
};

// The one orchestrator of a run: prepare -> create sandbox -> run -> collect -> validate ->
// cleanup -> account (DESIGN.md, "The execution contract"). Each run happens on its own worker
// thread; start() returns at once and never blocks the caller's event loop.
class Executor : public QObject {
    Q_OBJECT
public:
    // provider may be null ("none": every run is refused with a clear message). credits may be
    // null (no billing adapter). documents may be null (saved-revision runs refused).
    Executor(std::shared_ptr<SandboxProvider> provider, UsageLedger* ledger,
             DocumentStore* documents = nullptr, CreditsAccount* credits = nullptr,
             QObject* parent = nullptr);
    ~Executor() override;

    void setConfig(const ExecutorConfig& config) { m_config = config; }
    const ExecutorConfig& config() const { return m_config; }
    void setProvider(std::shared_ptr<SandboxProvider> provider);
    std::shared_ptr<SandboxProvider> provider() const { return m_provider; }
    QString providerName() const;
    // Where remote sandboxes are recorded (null: not recorded). Outlives the Executor's runs.
    void setAllocations(RemoteAllocations* allocations) { m_allocations = allocations; }
    RemoteAllocations* allocations() const { return m_allocations; }

    // Starts a run. The Run (a child of this Executor until someone adopts it) reports its
    // status, output and result on the caller's thread. origin names it for the notebook; what
    // it leaves empty is taken from the request.
    // With a lease, the run executes in that notebook session's sandbox (core/session).
    Run* start(const ExecutionRequest& request, RunOrigin origin = {}, std::shared_ptr<SessionLease> lease = {});

    // Runs and waits (a local event loop; used by the CLI and tests). onOutput sees live output.
    using TextCallback = std::function<void(OutputStream, const QString&)>;
    ExecutionResult run(const ExecutionRequest& request, const TextCallback& onOutput = {});

    // Waits for every run still going (used on shutdown).
    void waitForAll();

signals:
    // Every run, as it starts: observers connect to its one finished signal.
    void runStarted(sandpad::Run* run);

private:
    // The whole run, on the worker thread (DESIGN.md's eight steps).
    ExecutionResult execute(const ExecutionRequest& request, Run& run,
                            std::shared_ptr<SandboxProvider> provider, const ExecutorConfig& config,
                            SessionLease* lease);
    void account(ExecutionResult& result, const QString& source);
public:
    // The ledger runs are recorded in (a session records its own end there too); may be null.
    UsageLedger* ledger() const { return m_ledger; }
private:
    std::shared_ptr<SandboxProvider> m_provider;
    UsageLedger* m_ledger;
    DocumentStore* m_documents;
    CreditsAccount* m_credits;
    RemoteAllocations* m_allocations = nullptr;
    ExecutorConfig m_config;
    QList<QPointer<Run>> m_active;
};

} // namespace sandpad
