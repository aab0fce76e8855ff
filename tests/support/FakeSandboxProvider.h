#pragma once

#include "FakeSandbox.h"
#include "FakeSandboxScript.h"

#include "core/sandbox/SandboxProvider.h"

#include <QList>
#include <QMutex>
#include <atomic>

namespace sandpad {

// A scriptable in-memory SandboxProvider for unit tests of the Executor: each create() hands out a
// FakeSandbox that does what its script says (queued scripts first, then the default one) and
// records what it was asked. No process, no network, no bubblewrap: a run takes microseconds.
// The Executor calls it from its worker thread; a test reads records() once run() has returned.
class FakeSandboxProvider : public SandboxProvider {
public:
    explicit FakeSandboxProvider(FakeSandboxScript script = {}, QString name = QStringLiteral("fake"));

    QString name() const override { return m_name; }
    QString displayName() const override { return QStringLiteral("Fake sandbox (tests)"); }
    ValidationReport validate() override;
    std::unique_ptr<Sandbox> create(const SandboxOptions& options, RunControl& control) override;

    // The script of every sandbox created from now on (unless one is queued).
    void setScript(const FakeSandboxScript& script);
    // The script of the next create() only; several queue up in order.
    void queueScript(const FakeSandboxScript& script);

    int createCalls() const { return m_createCalls.load(); }
    // One record per sandbox created (a failed create() leaves its options and nothing else).
    QList<FakeSandbox::Record> records() const;
    FakeSandbox::Record lastRecord() const;

    // For FakeSandbox.
    void updateRecord(int index, const std::function<void(FakeSandbox::Record&)>& change);

private:
    QString m_name;
    mutable QMutex m_mutex; // the Executor's worker thread writes, the test's thread reads
    FakeSandboxScript m_script;
    QList<FakeSandboxScript> m_queued;
    QList<FakeSandbox::Record> m_records;
    std::atomic<int> m_createCalls{0};
};

} // namespace sandpad
