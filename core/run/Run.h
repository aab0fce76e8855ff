#pragma once

#include "core/run/ExecutionResult.h"
#include "core/run/RunOrigin.h"
#include "core/sandbox/Sandbox.h"

#include <QDateTime>
#include <QMutex>
#include <QObject>
#include <memory>

namespace sandpad {

class RunControl;

// One run from request to history: its origin, a status lifecycle (Queued -> Running ->
// [Validated ->] Finished), its live output and its ExecutionResult: Validated when the result is
// in but the sandbox's cleanup and the ledger row are still going (the cost is pending), so the
// notebook can show it at once; Finished when everything is recorded. The notebook entry, the
// chart pane, the history writer and the document browser all observe the same object; a run
// loaded from the history is a Run that is finished from the start.
//
// Output arrives in batches: the worker appends to a buffer and at most one flush is queued at a
// time, so a flood of tiny writes becomes a few large signals and the receiving event loop is
// never swamped.
class Run : public QObject {
    Q_OBJECT
public:
    enum class State { Queued, Running, Validated, Finished };
    Q_ENUM(State)

    // A run about to start; provider names who runs it ("local", "none", ...).
    Run(const QString& id, const RunOrigin& origin, const QString& provider, QObject* parent = nullptr);
    // A finished run (from the history): its origin is read from the result.
    explicit Run(const ExecutionResult& finished, QObject* parent = nullptr);
    ~Run() override;

    QString id() const { return m_id; }
    const RunOrigin& origin() const { return m_origin; }
    QString provider() const { return m_provider; }
    QDateTime startedAt() const { return m_startedAt; }
    State state() const { return m_state; }
    bool isFinished() const { return m_state == State::Finished; }
    // Validated or finished: result() holds the run's output, result and charts.
    bool hasResult() const { return m_state == State::Validated || m_state == State::Finished; }
    // Valid once it has a result; while only Validated its cost is pending (costPending).
    const ExecutionResult& result() const { return m_result; }

    // Thread-safe. Cancels the run: status cancelled, $0, the sandbox destroyed.
    void cancel();

    // --- used by the worker thread (thread-safe) ---
    RunControl& control() { return *m_control; }
    const RunControl& control() const { return *m_control; } // e.g. isPrestarted() while running
    void setRunning();
    void appendOutput(OutputStream stream, const QByteArray& bytes);
    // Ends the run: pending output first, then finished(). Called on the Run's own thread (a
    // test, a run refused at once), it finishes at once.
    void deliverResult(const ExecutionResult& result);
    // The result is validated; cleanup and accounting follow (result.costPending is set). At
    // most once, before deliverResult; pending output is delivered first.
    void deliverValidated(const ExecutionResult& result);

signals:
    void statusChanged(sandpad::Run::State state);
    // Decoded text (UTF-8, split multi-byte sequences kept for the next batch).
    void output(sandpad::OutputStream stream, const QString& text);
    // At most once, before finished: the result is in, its cost still pending.
    void validated(const sandpad::ExecutionResult& result);
    // Emitted once per run, when its result is in and recorded (cleanup confirmed or not, cost known).
    void finished(const sandpad::ExecutionResult& result);

private:
    void flush();
    void finish(const ExecutionResult& result);
    void validate(const ExecutionResult& result);
    void flushAll();
    QString m_id;
    RunOrigin m_origin;
    QString m_provider;
    QDateTime m_startedAt;
    State m_state = State::Queued;
    std::unique_ptr<RunControl> m_control;
    QMutex m_mutex;
    QList<std::pair<OutputStream, QByteArray>> m_pending;
    bool m_flushQueued = false;
    QByteArray m_partialUtf8[2];
    ExecutionResult m_result;
};

} // namespace sandpad
