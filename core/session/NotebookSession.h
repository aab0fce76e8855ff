#pragma once

#include "core/language/Language.h"
#include "core/run/RunOrigin.h"
#include "core/sandbox/RunInput.h"
#include "core/session/SessionVariables.h"
#include "core/session/TableWindow.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <QTimer>
#include <functional>
#include <memory>
#include <optional>

namespace sandpad {

class Executor;
class Run;
struct NotebookSessionState;

// A notebook session (issue 13, docs/runtime-protocol.md "Sessions"): the state of one owner (an
// editor tab, `sandpad-run --session`) kept from execution to execution in one long-lived sandbox
// per language, created through the Executor's provider. Each execution is a Run through the
// Executor - one object from request to history, one ledger row - that borrows the session's
// sandbox instead of creating one; executions run one at a time, in the order they were started.
// A session's sandbox ends (confirmed, and recorded at $0) when it is restarted, sits idle past
// idleSeconds(), dies (a deadline, a second interrupt, the memory limit), or this object goes.
// A provider without sessions runs every execution fresh (sessionsSupported() says so). GUI thread.
class NotebookSession : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultIdleSeconds = 30 * 60;
    static constexpr int kJavaScriptResendMs = 300; // see interrupt()

    explicit NotebookSession(Executor* executor, QObject* parent = nullptr);
    ~NotebookSession() override; // ends the session: nothing of it outlives its owner

    // Whether the Executor's provider keeps sessions; otherwise every cell runs fresh.
    bool sessionsSupported() const;
    // Runs code in the session (started on first use). Returns at once, like Executor::start.
    // `input`: files placed in the working directory and stdin, for this execution (placed with each).
    Run* execute(Language language, const QString& code, const QString& title, RunOrigin origin = {},
                 const RunInput& input = {});
    // The first interrupt of an execution raises KeyboardInterrupt (Python) / stops the awaited
    // evaluation (JavaScript) and keeps the state; a second one kills and restarts the session.
    void interrupt();
    // Ends the session's sandboxes (an execution going on is stopped); the next execution starts
    // from nothing in a fresh sandbox.
    void restart();
    bool isRunning() const;      // an execution started here has not finished
    int executionCount() const;  // executions sent to the current sandboxes since the last (re)start

    // The user's variables after the last execution that listed them (the variable explorer).
    QList<SessionVariable> variables() const;

    // A window of a table variable (a numpy array, a pandas DataFrame or Series) of the session
    // that listed variables() last, fetched from it: it waits for the executions started before
    // it (and those started after wait for it). Returns an id; tableFetched(id, window) follows,
    // window.error set when there is no such table, the session ended or the value's own code
    // passed fetchTimeoutMs(). Never runs a cell, is not a Run and costs nothing.
    quint64 fetchTable(const TableRequest& request);
    static constexpr int kDefaultFetchTimeoutMs = 10000;
    void setFetchTimeoutMs(int ms) { m_fetchTimeoutMs = qMax(100, ms); }
    int fetchTimeoutMs() const { return m_fetchTimeoutMs; }

    // Completion, calltips and help from the live Python namespace (core/completion; docs/
    // runtime-protocol.md, "Sessions": the assist fetch). `request` (one line of JSON) goes to the
    // session's interpreter only when it is local, alive and idle - no execution running or
    // waiting, no fetch - and never waits for one; the interpreter is interrupted at timeoutMs.
    // done(answer, error) follows on this object's thread, error set when it was not asked
    // ("busy", "no session", "remote") or did not answer; never called once this object is gone.
    // Never runs a cell and costs nothing; an execution or table fetch started meanwhile stops it
    // (RunControl::giveWay: answered "late") and goes first. Asked while its previous question is
    // still being answered, the new one goes right after it (one waits at most: an older waiting
    // question is answered "overtaken").
    void askIdle(const QByteArray& request, int timeoutMs, std::function<void(const QByteArray&, const QString&)> done);

    // Whether the session's Jedi is warmed after each Python execution (for an editor that asks
    // askIdle): the first completion of a new kind of value parses its library (pandas: seconds),
    // so it is done then, in the idle sandbox - and given way to the next execution like any
    // completion. One warm-up per execution, bounded like the execution's own work: this wall
    // deadline (SIGINT, then the kill) here, the same budget of CPU time in the sandbox
    // (session_complete.py's guard, which also keeps it from running any code a cell defined).
    // It is part of its execution: no ledger row, no cost of its own. assistWarmed follows each
    // warm-up. Off by default.
    void setAssistWarmUp(bool on) { m_assistWarmUp = on; }
    bool assistWarmUp() const { return m_assistWarmUp; }
    static constexpr int kWarmUpDeadlineMs = 10000;

    void setIdleSeconds(int seconds);
    int idleSeconds() const { return m_idleSeconds; }

signals:
    // A session's sandbox ended: why ("restarted", "idle for 30 min", "the execution's deadline
    // passed"...); the next execution starts a fresh one.
    void sessionEnded(const QString& why);
    void runStarted(sandpad::Run* run);
    void variablesChanged();
    void tableFetched(quint64 id, const sandpad::TableWindow& window);
    // A warm-up (setAssistWarmUp) ended: complete, or cut short (an execution came, the deadline).
    void assistWarmed(bool complete);

private:
    friend class SessionRunLease; // sets each sandbox's ended callback, which calls endSandboxesThatEnded
    void endIdle();
    // A sandbox that ended by itself while no turn was going on (the memory limit while idle).
    void endSandboxesThatEnded();
    void warmAssist();
    void sendAsk(const QByteArray& request, int timeoutMs, std::function<void(const QByteArray&, const QString&)> done);
    void askEnded();
    // askIdle's job: `refused` says why it was not sent ("" when it was).
    QString startAssistJob(const QByteArray& request, int timeoutMs, std::function<void(const QByteArray&, const QString&)> done);
    Executor* m_executor;
    std::shared_ptr<NotebookSessionState> m_state;
    QTimer m_idle;
    QTimer m_interruptResend; // a JavaScript interrupt once more (interrupt()); stopped before the end
    const void* m_resendLease = nullptr;
    int m_idleSeconds = kDefaultIdleSeconds;
    int m_running = 0;
    quint64 m_fetches = 0;
    int m_fetchTimeoutMs = kDefaultFetchTimeoutMs;
    bool m_assistWarmUp = false;
    bool m_askGoingOn = false; // askIdle's question is the side job going on
    struct WaitingAsk {
        QByteArray request;
        int timeoutMs = 0;
        std::function<void(const QByteArray&, const QString&)> done;
    };
    std::optional<WaitingAsk> m_nextAsk;
    QList<QPointer<QThread>> m_fetchThreads; // waited for when this goes
};

} // namespace sandpad
