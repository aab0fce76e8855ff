#pragma once

#include "core/engine/Executor.h"
#include "core/providers/local/LocalProvider.h"
#include "core/run/ExecutionRequest.h"
#include "core/run/ExecutionResult.h"

#include <initializer_list>
#include <memory>

namespace sandpad {

// Runs through the real Executor on the local provider, cold and pre-started, for the suites that
// check both paths: a cold provider (pool off) and a pooled one (one pre-started sandbox per
// language), each with its Executor (no ledger). The suite holds one as a member, calls start()
// from initTestCase() (QSKIP when it returns false) and stop() from cleanupTestCase().
class LocalRunFixture {
public:
    // Whether a pooled run must have taken a pre-started sandbox (Taken), must not have (NotTaken:
    // a run the pool cannot serve), or is not checked (Unchecked).
    enum class PoolUse { Taken, NotTaken, Unchecked };

    // bwrap is on PATH (without it the suites QSKIP).
    static bool hasBubblewrap();
    // For a data function (initTestCase_data() or a test's _data()): the column "pooled" with the
    // rows "cold" (false) and "pooled" (true).
    static void addPathRows();

    // Both providers and executors; the pooled provider starts its pool for Python and also warms
    // each language in `alsoWarm`. False, with nothing started, without bubblewrap.
    bool start(std::initializer_list<Language> alsoWarm = {});
    // The executors, then the providers (which end their pre-started sandboxes).
    void stop();

    Executor& cold() { return *m_cold; }
    Executor& pooled() { return *m_pooled; }
    LocalProvider& pooledProvider() { return *m_pooledProvider; }

    // An ad-hoc request with its deadline.
    static ExecutionRequest request(Language language, const QString& code,
                                    const QString& title = QStringLiteral("snippet"), int deadlineSeconds = 120);

    ExecutionResult runCold(const ExecutionRequest& request) { return m_cold->run(request); }
    // A pooled run with the pool full first (as a user reading the output between runs sees it;
    // the check fails when it does not fill within 120 s, and the run goes ahead), then `use`
    // checked against the provider's count of pooled creates.
    ExecutionResult runPooled(const ExecutionRequest& request, PoolUse use = PoolUse::Taken);
    // runPooled() when `pooled`, else runCold().
    ExecutionResult run(bool pooled, const ExecutionRequest& request, PoolUse use = PoolUse::Taken)
    {
        return pooled ? runPooled(request, use) : runCold(request);
    }

private:
    std::shared_ptr<LocalProvider> m_coldProvider, m_pooledProvider;
    std::unique_ptr<Executor> m_cold, m_pooled;
};

} // namespace sandpad
