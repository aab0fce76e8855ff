#pragma once

#include "TempDatabase.h"

#include "core/accounting/UsageLedger.h"
#include "core/run/ExecutionResult.h"
#include "core/sandbox/SandboxProvider.h"

#include <QObject>
#include <memory>

namespace sandpad {

// One provider-conformance suite (after KDE Cantor's BackendTest): the same cases with the same
// expectations, run through the real Executor and wrappers against every provider. A provider's
// suite derives from this, says how to make the provider and what "nothing left" means for it,
// and adds nothing else; a difference between providers is an explicit, commented hook here.
class ProviderConformance : public QObject {
    Q_OBJECT

protected:
    // The provider under test, made once for the suite (initTestCase).
    virtual std::shared_ptr<SandboxProvider> makeProvider() = 0;
    // Before each case (e.g. clear a fake server's request log).
    virtual void resetProvider() {}
    // After each run: nothing of its sandbox is left (no process, no folder, the remote sandbox
    // gone). Called through SANDPAD_CHECK.
    virtual void verifyNothingLeft() = 0;

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();

    void printOutput();
    void resultValue();
    void errorWithItsLine();
    void interactiveChart();
    void matplotlibChart();
    void stdoutAndStderrApart();
    void nonZeroExitIsTheProgramsError();
    void javascript();
    void timeout();
    void cancel();
    void networkIsOff();

private:
    ExecutionResult run(const QString& code, int deadlineSeconds = 60, Language language = Language::Python);
    // $0.05, cleanup confirmed, one ledger row naming the provider, nothing left.
    void verifyCompleted(const ExecutionResult& r);
    // $0 with a reason in the result and its ledger row, cleanup confirmed, nothing left.
    void verifyUnpaid(const ExecutionResult& r, RunStatus status);

    std::shared_ptr<SandboxProvider> m_provider;
    TempDatabase m_data;
    std::unique_ptr<UsageLedger> m_ledger;
};

} // namespace sandpad
