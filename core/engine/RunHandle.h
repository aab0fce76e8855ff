#pragma once

#include "engine/ExecutionResult.h"
#include "providers/Sandbox.h"

#include <QMutex>
#include <QObject>
#include <memory>

namespace sandpad {

class RunControl;

// One run in progress, seen from the thread that started it. Output arrives in batches: the
// worker appends to a buffer and at most one flush is queued at a time, so a flood of tiny
// writes becomes a few large signals and the receiving event loop is never swamped.
class RunHandle : public QObject {
    Q_OBJECT
public:
    RunHandle(const QString& runId, const QString& title, QObject* parent = nullptr);
    ~RunHandle() override;

    QString runId() const { return m_runId; }
    QString title() const { return m_title; }
    bool isFinished() const { return m_finished; }
    const ExecutionResult& result() const { return m_result; }

    // Thread-safe. Cancels the run: status cancelled, $0, the sandbox destroyed.
    void cancel();

    // --- used by the worker thread ---
    RunControl& control() { return *m_control; }
    void appendOutput(OutputStream stream, const QByteArray& bytes); // thread-safe
    void deliverResult(const ExecutionResult& result);               // thread-safe

signals:
    // Decoded text (UTF-8, split multi-byte sequences kept for the next batch).
    void output(sandpad::OutputStream stream, const QString& text);
    void finished(const sandpad::ExecutionResult& result);

private:
    void flush();
    QString m_runId, m_title;
    std::unique_ptr<RunControl> m_control;
    QMutex m_mutex;
    QList<std::pair<OutputStream, QByteArray>> m_pending;
    bool m_flushQueued = false;
    QByteArray m_partialUtf8[2];
    bool m_finished = false;
    ExecutionResult m_result;
};

} // namespace sandpad
