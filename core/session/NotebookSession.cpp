#include "core/session/NotebookSession.h"

#include "core/allocations/RemoteAllocations.h"
#include "core/engine/Executor.h"
#include "core/engine/SessionLease.h"
#include "core/run/ExecutionRequest.h"
#include "core/run/Run.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/Sandbox.h"
#include "core/sandbox/RunControl.h"
#include "core/sandbox/SandboxProvider.h"
#include "core/sandbox/SessionSandbox.h"
#include "core/session/SessionEnd.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

namespace sandpad {

class SessionRunLease;

// What the owner (GUI thread) and the runs' worker threads share; guarded by `mutex`.
struct NotebookSessionState {
    std::mutex mutex;
    std::condition_variable changed;
    std::map<Language, std::unique_ptr<SessionSandbox>> sandboxes;
    std::map<Language, QString> providers; // who runs each sandbox (for its end's ledger row)
    // Executions run one at a time, in the order they were started: a ticket each.
    quint64 nextTicket = 0;
    quint64 serving = 0;
    std::set<quint64> done;
    // The execution going on.
    SessionSandbox* current = nullptr;
    RunControl* control = nullptr;
    SessionRunLease* lease = nullptr;
    bool givesWay = false; // the side job going on ends early for a turn that waits (a completion)
    Language currentLanguage = Language::Python;
    int interrupts = 0;
    bool pendingInterrupt = false; // an interrupt before the next execution had the sandbox
    bool restartCurrent = false;
    bool releasing = false; // the execution going on has ended: its sandbox is being let go
    int executions = 0;
    bool closed = false;
    QObject* owner = nullptr; // the NotebookSession while it exists: sessionEnded goes there
    QList<SessionVariable> variables;
    Language variablesLanguage = Language::Python; // whose session listed `variables`
    UsageLedger* ledger = nullptr;
    // A remote session's sandbox is recorded like a run's (core/allocations): its row, under the
    // run id of the execution that created it, stays open and live while the session lives.
    RemoteAllocations* allocations = nullptr;
    std::map<Language, QString> allocationRuns;
    int idleSeconds = NotebookSession::kDefaultIdleSeconds; // told to each sandbox (SessionSandbox::setIdleSeconds)
    std::set<Language> fresh; // the provider cannot keep a session of these (NoSessionError): they run fresh

    // A sandbox taken out of the session, to be ended with the lock released (endSandbox).
    struct Ending {
        std::unique_ptr<SessionSandbox> sandbox;
        SessionEnd end;
        QString allocationRun;
        RemoteAllocations* allocations = nullptr;
        UsageLedger* ledger = nullptr;
    };

    // Under the lock: takes a language's sandbox out of the session (the variables listed go with
    // it); nullopt when it has none. finish() ends it, without the lock.
    std::optional<Ending> take(Language language, const QString& why)
    {
        auto it = sandboxes.find(language);
        if (it == sandboxes.end() || !it->second) {
            if (it != sandboxes.end())
                sandboxes.erase(it);
            return std::nullopt;
        }
        Ending ending;
        ending.sandbox = std::move(it->second);
        sandboxes.erase(it);
        ending.end.provider = providers[language];
        ending.end.language = language;
        ending.end.title = QStringLiteral("session (%1)").arg(languageName(language));
        ending.end.why = why;
        ending.allocationRun = allocationRuns[language];
        allocationRuns.erase(language);
        ending.allocations = allocations;
        ending.ledger = ledger;
        variables.clear();
        return ending;
    }

    // Without the lock: destroying a remote sandbox waits for HTTP in a nested event loop of the
    // calling thread (the GUI's, for restart, idle and the owner's end), where anything may run
    // and take the lock. Confirms the end, records it and tells the owner.
    void finish(Ending ending)
    {
        ending.end.cleanup = ending.sandbox->destroy();
        ending.sandbox.reset();
        closeAllocation(ending.allocations, ending.allocationRun, ending.end.cleanup.confirmed);
        ending.end.record(ending.ledger);
        std::lock_guard lock(mutex);
        if (owner) {
            QObject* target = owner;
            const QString why = ending.end.why;
            QMetaObject::invokeMethod(target, [target, why] {
                emit static_cast<NotebookSession*>(target)->sessionEnded(why);
                emit static_cast<NotebookSession*>(target)->variablesChanged();
            }, Qt::QueuedConnection);
        }
    }

    // With `lock` held (and held again on return): ends a language's sandbox, the lock released
    // meanwhile (finish()). The caller's ticket or `closed` keeps others from using the language.
    void endSandbox(std::unique_lock<std::mutex>& lock, Language language, const QString& why)
    {
        std::optional<Ending> ending = take(language, why);
        if (!ending)
            return;
        lock.unlock();
        finish(std::move(*ending));
        lock.lock();
    }

    static void closeAllocation(RemoteAllocations* allocations, const QString& runId, bool removed)
    {
        if (runId.isEmpty() || !allocations)
            return;
        if (removed)
            allocations->close(runId, QStringLiteral("removed"));
        RemoteAllocations::runEnded(runId); // an open row is the reconciler's now
    }

    // A turn was just taken (an execution, a table fetch): a side job that can give way ends now.
    void askToGiveWay()
    {
        if (givesWay && control)
            control->giveWay();
    }

    void finishTicket(quint64 ticket)
    {
        done.insert(ticket);
        while (done.erase(serving))
            ++serving;
        changed.notify_all();
    }

    // The end of a side job (a table fetch, a completion) on `sandbox`: it is no longer current,
    // the session's sandbox ends if the job left it dead, closed or to be restarted (`unanswered`
    // says why when it simply did not answer), and the job's turn is over.
    void endSideJob(std::unique_lock<std::mutex>& lock, Language language, SessionSandbox* sandbox,
                    quint64 ticket, const QString& unanswered)
    {
        givesWay = false;
        if (sandbox) {
            current = nullptr;
            control = nullptr;
            if (!sandbox->isAlive() || closed || restartCurrent) {
                const QString ended = sandbox->endReason(); // e.g. the memory limit during the job
                const QString why = closed ? QStringLiteral("ended by its owner")
                                    : restartCurrent ? QStringLiteral("restarted")
                                    : !ended.isEmpty() ? ended
                                                       : unanswered;
                endSandbox(lock, language, why); // the ticket keeps the language ours
                executions = 0;
            }
            restartCurrent = false;
        }
        finishTicket(ticket);
        if (serving == nextTicket)
            pendingInterrupt = false; // meant for an execution, and none came
    }
};

// One execution's hold on the session (SessionLease for the Executor).
class SessionRunLease : public SessionLease {
public:
    SessionRunLease(std::shared_ptr<NotebookSessionState> state, quint64 ticket,
                    std::shared_ptr<SandboxProvider> provider, Language language)
        : m_state(std::move(state)), m_ticket(ticket), m_provider(std::move(provider)), m_language(language)
    {
    }

    ~SessionRunLease() override
    {
        std::lock_guard lock(m_state->mutex);
        if (m_state->lease == this) {
            m_state->current = nullptr;
            m_state->control = nullptr;
            m_state->lease = nullptr;
        }
        m_state->finishTicket(m_ticket);
    }

    SessionSandbox& acquire(const SandboxOptions& options, RunControl& control) override
    {
        using namespace std::chrono_literals;
        std::unique_lock lock(m_state->mutex);
        // Sliced only to notice a cancel (RunControl has no waitable handle).
        while (m_state->serving != m_ticket) {
            if (control.isCancelled())
                throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Cancelled"));
            m_state->changed.wait_for(lock, 50ms);
        }
        if (m_state->closed)
            throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("The session has ended"));
        auto slot = m_state->sandboxes.find(m_language);
        if (slot != m_state->sandboxes.end() && slot->second && !slot->second->isAlive()) {
            const QString ended = slot->second->endReason();
            m_state->endSandbox(lock, m_language, ended.isEmpty() ? QStringLiteral("its interpreter had ended") : ended);
            if (m_state->closed)
                throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("The session has ended"));
        }
        if (!m_state->sandboxes[m_language]) {
            m_state->sandboxes.erase(m_language);
            if (!m_provider || !m_provider->supportsSessions())
                throw ProviderError(ProviderError::Kind::NotConfigured, QStringLiteral("This provider runs every cell fresh"));
            RemoteAllocations* allocations = m_provider->allocatesRemotely() ? m_state->allocations : nullptr;
            lock.unlock(); // starting takes a while; the ticket keeps the session to this run
            if (allocations && !allocations->recordIntent(m_provider->name(), options.runId))
                qWarning("sandpad: %s", qPrintable(allocations->lastError()));
            std::unique_ptr<SessionSandbox> created;
            try {
                created = m_provider->createSession(options, control);
            } catch (const NoSessionError& e) {
                if (allocations && e.removed())
                    allocations->close(options.runId, QStringLiteral("removed"));
                if (allocations)
                    RemoteAllocations::runEnded(options.runId);
                lock.lock();
                m_state->fresh.insert(m_language); // its next cells run fresh (until a restart)
                throw;
            } catch (const ProviderError& e) {
                using K = ProviderError::Kind; // refused before anything was made: nothing to reconcile
                if (allocations && (e.kind() == K::NotConfigured || e.kind() == K::Unauthorized ||
                                    e.kind() == K::PaymentRequired || e.kind() == K::RateLimited))
                    allocations->close(options.runId, QStringLiteral("refused"));
                if (allocations)
                    RemoteAllocations::runEnded(options.runId);
                throw;
            }
            if (allocations)
                allocations->recordRemoteId(options.runId, created->id());
            lock.lock();
            if (m_state->closed) {
                lock.unlock(); // a remote sandbox's end waits for HTTP
                NotebookSessionState::closeAllocation(allocations, options.runId, created->destroy().confirmed);
                throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("The session has ended"));
            }
            if (allocations)
                m_state->allocationRuns[m_language] = options.runId;
            m_state->providers[m_language] = m_provider->name();
            // Ended by itself between turns (the memory limit while idle): its owner ends it now,
            // not at the next execution. (Never called once the sandbox is destroyed; the state
            // outlives its sandboxes.)
            created->setEndedCallback([state = m_state.get()] {
                std::lock_guard lock(state->mutex);
                if (QObject* target = state->owner)
                    QMetaObject::invokeMethod(target, [target] { static_cast<NotebookSession*>(target)->endSandboxesThatEnded(); },
                                              Qt::QueuedConnection);
            });
            m_state->sandboxes[m_language] = std::move(created);
            m_state->executions = 0;
        }
        SessionSandbox* sandbox = m_state->sandboxes[m_language].get();
        sandbox->setIdleSeconds(m_state->idleSeconds);
        m_state->current = sandbox;
        m_state->control = &control;
        m_state->lease = this;
        m_state->currentLanguage = m_language;
        m_state->interrupts = 0;
        m_state->restartCurrent = false;
        m_state->releasing = false;
        m_count = ++m_state->executions;
        m_acquired = true;
        if (m_state->pendingInterrupt) {
            m_state->pendingInterrupt = false;
            m_state->interrupts = 1;
            markInterrupted();
            sandbox->interrupt(); // held by the sandbox until the execution's code starts
        }
        return *sandbox;
    }

    CleanupReport release(const CommandOutcome& outcome, QString* note) override
    {
        CleanupReport report{true, {}};
        if (!m_acquired)
            return report;
        m_acquired = false;
        SessionSandbox* sandbox = nullptr;
        {
            std::lock_guard lock(m_state->mutex);
            sandbox = m_state->current;
            m_state->releasing = true; // no late resent interrupt for the next execution
        }
        // Outside the lock (interrupt() must not wait for it); the ticket keeps the sandbox ours.
        if (sandbox)
            report = sandbox->endExecution();
        std::unique_lock lock(m_state->mutex);
        if (sandbox && (!sandbox->isAlive() || m_state->closed || m_state->restartCurrent)) {
            QString why;
            if (m_state->closed)
                why = QStringLiteral("ended by its owner");
            else if (m_state->restartCurrent)
                why = QStringLiteral("restarted");
            else if (outcome.timedOut)
                why = QStringLiteral("the execution passed its deadline");
            else if (m_state->interrupts >= 2)
                why = QStringLiteral("interrupted twice");
            else if (outcome.cancelled)
                why = QStringLiteral("the execution was stopped");
            else if (!outcome.limitExceeded.isEmpty())
                why = QStringLiteral("the memory limit");
            else if (const QString ended = sandbox->endReason(); !ended.isEmpty())
                why = ended; // e.g. processes of the execution that could not be stopped
            else
                why = QStringLiteral("its interpreter ended");
            if (note)
                *note = m_state->closed || m_state->restartCurrent
                    ? QStringLiteral("the session ended (%1)").arg(why)
                    : QStringLiteral("the session was restarted (%1): its state is lost").arg(why);
            // No interrupt reaches it once the lock is let go; the ticket keeps the language ours.
            m_state->current = nullptr;
            m_state->control = nullptr;
            m_state->lease = nullptr;
            m_state->endSandbox(lock, m_language, why);
            m_state->executions = 0;
        }
        m_state->current = nullptr;
        m_state->control = nullptr;
        m_state->lease = nullptr;
        m_state->restartCurrent = false;
        m_state->finishTicket(m_ticket);
        if (m_state->serving == m_state->nextTicket)
            m_state->pendingInterrupt = false;
        return report;
    }

    void collect(Sandbox& sandbox, const QString& outDir) override
    {
        std::optional<QByteArray> listing;
        try { // a remote read can fail (a cancelled run, the service): the listing is then not updated
            listing = sandbox.readFile(outDir + QStringLiteral("/variables.json"));
        } catch (const ProviderError&) {
            return;
        }
        if (!listing)
            return;
        QList<SessionVariable> variables = SessionVariables::parse(*listing);
        std::lock_guard lock(m_state->mutex);
        m_state->variables = std::move(variables);
        m_state->variablesLanguage = m_language;
        if (QObject* target = m_state->owner)
            QMetaObject::invokeMethod(target, [target] { emit static_cast<NotebookSession*>(target)->variablesChanged(); },
                                      Qt::QueuedConnection);
    }

    int executionCount() const override { return m_count; }
    bool interrupted() const override { return m_interrupted.load(); }
    void markInterrupted() { m_interrupted = true; }

private:
    std::shared_ptr<NotebookSessionState> m_state;
    quint64 m_ticket;
    std::shared_ptr<SandboxProvider> m_provider;
    Language m_language;
    bool m_acquired = false;
    int m_count = 0;
    std::atomic<bool> m_interrupted{false};
};

NotebookSession::NotebookSession(Executor* executor, QObject* parent)
    : QObject(parent), m_executor(executor), m_state(std::make_shared<NotebookSessionState>())
{
    m_state->owner = this;
    m_state->ledger = executor ? executor->ledger() : nullptr;
    m_idle.setSingleShot(true);
    m_idle.setInterval(m_idleSeconds * 1000);
    connect(&m_idle, &QTimer::timeout, this, &NotebookSession::endIdle);
    m_interruptResend.setSingleShot(true);
    m_interruptResend.setInterval(kJavaScriptResendMs);
    connect(&m_interruptResend, &QTimer::timeout, this, [this] {
        // The lock is never held across a nested event loop (NotebookSessionState::finish): no
        // wait here is for this very thread.
        std::lock_guard lock(m_state->mutex);
        if (m_state->lease == m_resendLease && m_state->current && m_state->interrupts == 1 && !m_state->releasing)
            m_state->current->interrupt();
    });
}

NotebookSession::~NotebookSession()
{
    // Ending a remote sandbox waits for HTTP in a nested event loop (without the state's lock):
    // nothing of this session is to start there.
    m_interruptResend.stop();
    m_idle.stop();
    std::vector<NotebookSessionState::Ending> endings;
    {
        std::lock_guard lock(m_state->mutex);
        m_state->closed = true;
        m_state->owner = nullptr;
        if (m_state->control)
            m_state->control->cancel(); // its run (or fetch) ends the sandbox when it lets it go
        for (Language language : {Language::Python, Language::JavaScript})
            if (!m_state->current || m_state->currentLanguage != language)
                if (auto ending = m_state->take(language, QStringLiteral("ended by its owner")))
                    endings.push_back(std::move(*ending));
        m_state->changed.notify_all();
    }
    for (auto& ending : endings)
        m_state->finish(std::move(ending)); // without the lock: see NotebookSessionState::finish
    for (const QPointer<QThread>& thread : std::as_const(m_fetchThreads)) {
        if (thread) {
            thread->wait(); // a fetch sees `closed` (or its cancel) at once
            delete thread.data();
        }
    }
}

bool NotebookSession::sessionsSupported() const
{
    return m_executor && m_executor->provider() && m_executor->provider()->supportsSessions();
}

Run* NotebookSession::execute(Language language, const QString& code, const QString& title, RunOrigin origin,
                              const RunInput& input)
{
    ExecutionRequest request = ExecutionRequest::adHoc(language, code, title);
    request.input = input;
    Run* run = nullptr;
    bool fresh = !sessionsSupported();
    if (!fresh) {
        std::lock_guard lock(m_state->mutex);
        fresh = m_state->fresh.count(language) > 0;
    }
    if (fresh) {
        run = m_executor->start(request, origin); // this provider runs every cell fresh (of this language)
    } else {
        quint64 ticket;
        {
            std::lock_guard lock(m_state->mutex);
            ticket = m_state->nextTicket++;
            m_state->allocations = m_executor->allocations();
            m_state->askToGiveWay();
        }
        auto lease = std::make_shared<SessionRunLease>(m_state, ticket, m_executor->provider(), language);
        run = m_executor->start(request, origin, lease);
    }
    ++m_running;
    m_idle.stop();
    connect(run, &Run::finished, this, [this, language] {
        if (--m_running == 0) {
            m_idle.start();
            if (m_assistWarmUp && language == Language::Python)
                warmAssist();
        }
    });
    emit runStarted(run);
    return run;
}

void NotebookSession::interrupt()
{
    std::lock_guard lock(m_state->mutex);
    if (!m_state->current || !m_state->lease) {
        // Between the start of an execution and its sandbox: it is interrupted when it gets it.
        if (m_state->serving != m_state->nextTicket)
            m_state->pendingInterrupt = true;
        return;
    }
    if (m_state->interrupts == 0) {
        m_state->interrupts = 1;
        m_state->lease->markInterrupted();
        m_state->current->interrupt();
        if (m_state->currentLanguage == Language::JavaScript) {
            // node loses a SIGINT that lands just as the evaluation's synchronous part ends (vm's
            // SIGINT watchdog is going, the session's handler not back yet): once more shortly
            // after, for this execution only. A JavaScript session ignores one it does not need.
            m_resendLease = m_state->lease;
            QMetaObject::invokeMethod(this, [this] { m_interruptResend.start(kJavaScriptResendMs); }); // any thread
        }
    } else {
        m_state->interrupts = 2;
        if (m_state->control)
            m_state->control->cancel(); // kills the sandbox; the run's release restarts the session
    }
}

void NotebookSession::restart()
{
    std::vector<NotebookSessionState::Ending> endings;
    {
        std::lock_guard lock(m_state->mutex);
        for (Language language : {Language::Python, Language::JavaScript}) {
            if (m_state->current && m_state->currentLanguage == language) {
                m_state->restartCurrent = true;
                if (m_state->control)
                    m_state->control->cancel();
            } else if (auto ending = m_state->take(language, QStringLiteral("restarted"))) {
                endings.push_back(std::move(*ending));
            }
        }
        m_state->executions = 0;
        m_state->fresh.clear(); // tried again from the next execution
    }
    for (auto& ending : endings)
        m_state->finish(std::move(ending));
}

bool NotebookSession::isRunning() const
{
    return m_running > 0;
}

int NotebookSession::executionCount() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->executions;
}

QList<SessionVariable> NotebookSession::variables() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->variables;
}

quint64 NotebookSession::fetchTable(const TableRequest& request)
{
    const quint64 id = ++m_fetches;
    std::shared_ptr<NotebookSessionState> state = m_state;
    quint64 ticket;
    Language language;
    {
        std::lock_guard lock(state->mutex);
        ticket = state->nextTicket++;
        language = state->variablesLanguage;
        state->askToGiveWay();
    }
    if (m_idle.isActive())
        m_idle.start(); // browsing the session's values is using it
    QThread* thread = QThread::create([state, ticket, language, request, id, timeoutMs = m_fetchTimeoutMs] {
        using namespace std::chrono_literals;
        RunControl control;
        TableWindow window;
        SessionSandbox* sandbox = nullptr;
        {
            std::unique_lock lock(state->mutex);
            while (state->serving != ticket && !state->closed)
                state->changed.wait_for(lock, 50ms);
            auto it = state->sandboxes.find(language);
            if (state->closed)
                window = TableWindow::failed(QStringLiteral("The session has ended"));
            else if (it == state->sandboxes.end() || !it->second || !it->second->isAlive())
                window = TableWindow::failed(QStringLiteral("The session has ended: run the cell again to see its values"));
            else {
                sandbox = it->second.get();
                state->current = sandbox;
                state->control = &control;
                state->currentLanguage = language;
                state->restartCurrent = false;
            }
        }
        if (sandbox) {
            try {
                window = TableWindow::parse(sandbox->fetch(request.toJson(), control, timeoutMs), request);
            } catch (const ProviderError& e) {
                window = TableWindow::failed(e.message());
            } catch (const std::exception& e) {
                window = TableWindow::failed(QString::fromUtf8(e.what()));
            }
        }
        std::unique_lock lock(state->mutex);
        state->endSideJob(lock, language, sandbox, ticket, QStringLiteral("a value did not answer its fetch"));
        if (QObject* target = state->owner)
            QMetaObject::invokeMethod(target, [target, id, window] {
                emit static_cast<NotebookSession*>(target)->tableFetched(id, window);
            }, Qt::QueuedConnection);
    });
    m_fetchThreads.removeAll(nullptr);
    connect(thread, &QThread::finished, this, [this, thread] {
        m_fetchThreads.removeAll(thread);
        thread->deleteLater();
    });
    m_fetchThreads << thread;
    thread->start();
    return id;
}

void NotebookSession::askIdle(const QByteArray& request, int timeoutMs,
                              std::function<void(const QByteArray&, const QString&)> done)
{
    if (m_askGoingOn) {
        // Typing on while the last keystroke's question is answered: this one is next, not refused.
        if (m_nextAsk) {
            auto overtaken = std::move(m_nextAsk->done);
            QMetaObject::invokeMethod(this, [overtaken] { overtaken({}, QStringLiteral("overtaken")); }, Qt::QueuedConnection);
        }
        m_nextAsk = WaitingAsk{request, timeoutMs, std::move(done)};
        return;
    }
    sendAsk(request, timeoutMs, std::move(done));
}

void NotebookSession::sendAsk(const QByteArray& request, int timeoutMs,
                              std::function<void(const QByteArray&, const QString&)> done)
{
    QPointer<NotebookSession> self(this);
    const QString refused = startAssistJob(request, timeoutMs, [self, done](const QByteArray& answer, const QString& error) {
        done(answer, error);
        if (self)
            self->askEnded();
    });
    if (!refused.isEmpty()) {
        QMetaObject::invokeMethod(this, [done, refused] { done({}, refused); }, Qt::QueuedConnection);
        return;
    }
    m_askGoingOn = true;
    if (m_idle.isActive())
        m_idle.start(); // typing in the session's tab is using it
}

void NotebookSession::askEnded()
{
    m_askGoingOn = false;
    if (!m_nextAsk)
        return;
    WaitingAsk next = std::move(*m_nextAsk);
    m_nextAsk.reset();
    sendAsk(next.request, next.timeoutMs, std::move(next.done)); // refused at once if a cell came meanwhile
}

void NotebookSession::warmAssist()
{
    QPointer<NotebookSession> self(this);
    // The deadline goes with the request too: the sandbox stops the warm-up at that much CPU time.
    startAssistJob(QByteArrayLiteral("{\"assist\":{\"op\":\"warm\",\"deadline_ms\":") + QByteArray::number(kWarmUpDeadlineMs) + "}}",
                   kWarmUpDeadlineMs,
                   [self](const QByteArray& answer, const QString& error) {
                       if (self)
                           emit self->assistWarmed(error.isEmpty() && QJsonDocument::fromJson(answer).object().value(QStringLiteral("ok")).toBool());
                   });
}

QString NotebookSession::startAssistJob(const QByteArray& request, int timeoutMs,
                                        std::function<void(const QByteArray&, const QString&)> done)
{
    std::shared_ptr<NotebookSessionState> state = m_state;
    auto control = std::make_shared<RunControl>();
    SessionSandbox* sandbox = nullptr;
    quint64 ticket = 0;
    {
        std::lock_guard lock(state->mutex);
        const auto it = state->sandboxes.find(Language::Python);
        if (state->closed || it == state->sandboxes.end() || !it->second || !it->second->isAlive())
            return QStringLiteral("no session");
        if (state->current || state->serving != state->nextTicket || m_running > 0)
            return QStringLiteral("busy"); // a cell's turn is never taken or delayed by a wait
        if (state->providers[Language::Python] != QLatin1String("local"))
            return QStringLiteral("remote");
        ticket = state->nextTicket++; // served at once: nothing was waiting
        sandbox = it->second.get();
        state->current = sandbox;
        state->control = control.get();
        state->currentLanguage = Language::Python;
        state->restartCurrent = false;
        state->givesWay = true;
    }
    QThread* thread = QThread::create([state, control, sandbox, ticket, request, timeoutMs, done] {
        QByteArray answer;
        QString error;
        try {
            answer = sandbox->fetch(request, *control, timeoutMs);
        } catch (const ProviderError& e) {
            error = e.message();
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        std::unique_lock lock(state->mutex);
        state->endSideJob(lock, Language::Python, sandbox, ticket, QStringLiteral("it did not answer a completion"));
        if (QObject* target = state->owner)
            QMetaObject::invokeMethod(target, [done, answer, error] { done(answer, error); }, Qt::QueuedConnection);
    });
    m_fetchThreads.removeAll(nullptr);
    connect(thread, &QThread::finished, this, [this, thread] {
        m_fetchThreads.removeAll(thread);
        thread->deleteLater();
    });
    m_fetchThreads << thread;
    thread->start();
    return {};
}

void NotebookSession::setIdleSeconds(int seconds)
{
    m_idleSeconds = qMax(1, seconds);
    {
        std::lock_guard lock(m_state->mutex);
        m_state->idleSeconds = m_idleSeconds;
    }
    m_idle.setInterval(m_idleSeconds * 1000);
    if (m_idle.isActive())
        m_idle.start();
}

void NotebookSession::endIdle()
{
    std::vector<NotebookSessionState::Ending> endings;
    {
        std::lock_guard lock(m_state->mutex);
        if (m_state->current || m_state->serving != m_state->nextTicket) {
            if (m_running == 0)
                m_idle.start(); // a side job (a warm-up, a fetch): idle again after it
            return; // or an execution came meanwhile (its end starts the wait again)
        }
        const QString why = m_idleSeconds % 60 == 0 ? QStringLiteral("idle for %1 min").arg(m_idleSeconds / 60)
                                                    : QStringLiteral("idle for %1 s").arg(m_idleSeconds);
        for (Language language : {Language::Python, Language::JavaScript})
            if (auto ending = m_state->take(language, why))
                endings.push_back(std::move(*ending));
        m_state->executions = 0;
    }
    for (auto& ending : endings)
        m_state->finish(std::move(ending));
}

void NotebookSession::endSandboxesThatEnded()
{
    std::vector<NotebookSessionState::Ending> endings;
    {
        std::lock_guard lock(m_state->mutex);
        if (m_state->current || m_state->serving != m_state->nextTicket)
            return; // the turn going on (or waiting) ends it itself
        for (Language language : {Language::Python, Language::JavaScript}) {
            const auto it = m_state->sandboxes.find(language);
            if (it == m_state->sandboxes.end() || !it->second || it->second->isAlive())
                continue;
            const QString ended = it->second->endReason();
            if (auto ending = m_state->take(language, ended.isEmpty() ? QStringLiteral("its interpreter ended") : ended))
                endings.push_back(std::move(*ending));
            m_state->executions = 0;
        }
    }
    for (auto& ending : endings)
        m_state->finish(std::move(ending));
}

} // namespace sandpad
