#pragma once

#include "FakeServer.h"
#include "TempDatabase.h"

#include "core/accounting/UsageLedger.h"
#include "core/engine/Executor.h"

#include <QMap>
#include <QStringList>
#include <memory>
#include <optional>

namespace sandpad {

// What the suites that run the full Executor on every remote provider share (the suite holds one
// as a member): the Vercel and Daytona fakes, the example command provider, an Executor for each
// with a usage ledger in a temporary database. The suite's test functions run once per provider,
// a global data row "vercel", "daytona" or "command" (addProviderRows() from initTestCase_data()).
class FakeProviderExecutors {
public:
    // For initTestCase_data(): the global column "provider" with its three rows.
    static void addProviderRows();
    // The provider of the row running now.
    static QString currentProvider();

    // For initTestCase() (call it through SANDPAD_CHECK): the database, the ledger, both fakes and
    // the executors. The fakes' configs wait `confirmTimeoutMs` for a stop to be confirmed and
    // install `basePackages` (when given; else the configs' defaults).
    void start(int confirmTimeoutMs, const std::optional<QStringList>& basePackages = std::nullopt);

    // The current provider's executor.
    Executor& executor() { return *m_executors.value(currentProvider()); }
    // The current provider's fake; null for the command provider (it has none).
    FakeServer* fake() const;
    // For init(): the current provider's fake forgets its requests, faults and sandboxes.
    void resetFake();
    // Every sandbox the current provider's fake created was stopped/deleted and is gone (nothing
    // to check for the command provider).
    void verifyCleaned();

private:
    TempDatabase m_data;
    std::unique_ptr<UsageLedger> m_ledger;
    std::unique_ptr<FakeServer> m_vercel, m_daytona;
    QMap<QString, std::shared_ptr<Executor>> m_executors;
};

} // namespace sandpad
