// Accounting rules through the Executor: refusals before any sandbox, credits, one row per run.
#include "TempDatabase.h"

#include "core/accounting/CreditsAccount.h"
#include "core/accounting/UsageLedger.h"
#include "core/engine/Executor.h"
#include "core/providers/local/LocalProvider.h"
#include "core/run/ExecutionRequest.h"
#include "core/sandbox/RunControl.h"

#include <QtTest>
#include <atomic>

using namespace sandpad;

namespace {
// Counts the sandboxes the real local provider creates, to prove refusals happen before any.
class CountingProvider : public SandboxProvider {
public:
    QString name() const override { return m_real.name(); }
    QString displayName() const override { return m_real.displayName(); }
    ValidationReport validate() override { return m_real.validate(); }
    std::unique_ptr<Sandbox> create(const SandboxOptions& options, RunControl& control) override
    {
        ++created;
        return m_real.create(options, control);
    }
    std::atomic<int> created{0};

private:
    LocalProvider m_real;
};
} // namespace

class TestExecutorAccounting : public QObject {
    Q_OBJECT
    TempDatabase m_data;
    std::unique_ptr<UsageLedger> m_ledger;
    std::unique_ptr<CreditsAccount> m_credits;

private slots:
    void initTestCase()
    {
        QVERIFY2(m_data.open(), qPrintable(m_data.error()));
        m_ledger = std::make_unique<UsageLedger>(m_data.db());
        m_credits = std::make_unique<CreditsAccount>(m_data.db());
    }

    void noProviderRefused()
    {
        Executor executor(nullptr, m_ledger.get());
        const auto r = executor.run(ExecutionRequest::adHoc(Language::Python, QStringLiteral("print(1)")));
        QCOMPARE(r.status, RunStatus::InfrastructureError);
        QVERIFY2(r.reason.contains(QStringLiteral("no sandbox provider")), qPrintable(r.reason));
        QCOMPARE(r.costMicros, 0);
        const auto entry = m_ledger->find(r.runId);
        QVERIFY(entry.has_value());
        QCOMPARE(entry->costMicros, 0);
        QVERIFY(!entry->reason.isEmpty());
    }

    void creditsRefuseBeforeSandbox()
    {
        auto provider = std::make_shared<CountingProvider>();
        Executor executor(provider, m_ledger.get(), nullptr, m_credits.get());
        m_credits->setEnabled(true);
        QCOMPARE(m_credits->balanceMicros(), 0);
        auto r = executor.run(ExecutionRequest::adHoc(Language::Python, QStringLiteral("print(1)")));
        QCOMPARE(r.status, RunStatus::InfrastructureError);
        QVERIFY2(r.reason.contains(QStringLiteral("credits")), qPrintable(r.reason));
        QCOMPARE(provider->created.load(), 0);
        QCOMPARE(m_ledger->find(r.runId)->costMicros, 0);

        m_credits->topUp(70000); // $0.07: pays one run, not two
        r = executor.run(ExecutionRequest::adHoc(Language::Python, QStringLiteral("print(1)")));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(r.reason + r.stderrText));
        QCOMPARE(r.costMicros, 50000);
        QCOMPARE(m_credits->balanceMicros(), 20000);
        r = executor.run(ExecutionRequest::adHoc(Language::Python, QStringLiteral("print(1)")));
        QCOMPARE(r.status, RunStatus::InfrastructureError);
        QCOMPARE(provider->created.load(), 1);
        QCOMPARE(m_credits->balanceMicros(), 20000);
        m_credits->setEnabled(false);
    }

    void userErrorCostsLikeSuccess()
    {
        Executor executor(std::make_shared<LocalProvider>(), m_ledger.get());
        const auto r = executor.run(ExecutionRequest::adHoc(Language::Python, QStringLiteral("raise KeyError('k')")));
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.costMicros, 50000);
        QCOMPARE(m_ledger->find(r.runId)->costMicros, 50000);
    }

    void savedRevisionWithoutStoreRefused()
    {
        Executor executor(std::make_shared<LocalProvider>(), m_ledger.get());
        const auto r = executor.run(ExecutionRequest::savedRevision(QStringLiteral("nope"), QStringLiteral("nope")));
        QCOMPARE(r.status, RunStatus::InfrastructureError);
        QCOMPARE(r.costMicros, 0);
        QCOMPARE(m_ledger->find(r.runId)->source, QStringLiteral("document"));
    }
};

QTEST_GUILESS_MAIN(TestExecutorAccounting)
#include "test_executor_accounting.moc"
