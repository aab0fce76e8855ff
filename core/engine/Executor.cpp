#include "core/engine/Executor.h"

#include "core/accounting/CreditsAccount.h"
#include "core/allocations/RemoteAllocations.h"
#include "core/accounting/UsageLedger.h"
#include "core/documents/DocumentStore.h"
#include "core/engine/OutputCap.h"
#include "core/engine/ResultCollector.h"
#include "core/engine/SessionLease.h"
#include "core/run/Run.h"
#include "core/runtime/PipDirectives.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/sandbox/Deadline.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"
#include "core/sandbox/SandboxProvider.h"
#include "core/storage/Database.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QThread>
#include <QUuid>

namespace sandpad {

namespace {

// Live output forwarded to the caller is bounded too: past this, a notice and nothing more.
constexpr qint64 kLiveForwardLimit = 64ll << 20;

QString newRunId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

// Runs `step`, turning a ProviderError into an infrastructure failure of the result.
template <typename Step>
bool guarded(ExecutionResult& result, const QString& what, Step&& step)
{
    try {
        step();
        return true;
    } catch (const ProviderError& e) {
        if (e.kind() == ProviderError::Kind::Cancelled) {
            result.status = RunStatus::Cancelled;
            result.reason = QStringLiteral("cancelled");
        } else {
            result.status = RunStatus::InfrastructureError;
            result.reason = QStringLiteral("%1: %2").arg(what, e.message());
        }
    } catch (const std::exception& e) {
        result.status = RunStatus::InfrastructureError;
        result.reason = QStringLiteral("%1: %2").arg(what, QString::fromUtf8(e.what()));
    }
    return false;
}

// How a program ended, for a message: "exit code 3", "killed by signal 9 (SIGKILL)".
QString endedHow(const CommandOutcome& outcome)
{
    if (!outcome.detail.isEmpty())
        return outcome.detail;
    if (outcome.exitCode)
        return QStringLiteral("exit code %1").arg(*outcome.exitCode);
    return QStringLiteral("no exit code");
}

} // namespace

Executor::Executor(std::shared_ptr<SandboxProvider> provider, UsageLedger* ledger,
                   DocumentStore* documents, CreditsAccount* credits, QObject* parent)
    : QObject(parent), m_provider(std::move(provider)), m_ledger(ledger), m_documents(documents),
      m_credits(credits)
{
    qRegisterMetaType<sandpad::ExecutionResult>();
    qRegisterMetaType<sandpad::OutputStream>();
    qRegisterMetaType<sandpad::Run*>(); // runStarted, for queued connections and QSignalSpy
}

Executor::~Executor()
{
    for (const auto& run : std::as_const(m_active))
        if (run)
            run->cancel();
    waitForAll();
}

void Executor::setProvider(std::shared_ptr<SandboxProvider> provider)
{
    m_provider = std::move(provider);
}

QString Executor::providerName() const
{
    return m_provider ? m_provider->name() : QStringLiteral("none");
}

Run* Executor::start(const ExecutionRequest& request, RunOrigin origin, std::shared_ptr<SessionLease> lease)
{
    if (const auto* adHoc = std::get_if<AdHocSource>(&request.source)) {
        if (origin.title.isEmpty())
            origin.title = adHoc->title;
        if (origin.code.isEmpty())
            origin.code = adHoc->code;
        origin.language = adHoc->language;
    } else {
        const auto& ref = std::get<SavedRevisionRef>(request.source);
        origin.documentId = ref.documentId;
        if (origin.revisionId.isEmpty())
            origin.revisionId = ref.revisionId;
    }
    auto* run = new Run(newRunId(), origin, providerName(), this);
    m_active.append(run);

    // The provider and the config are captured now: a settings change does not affect a running run.
    auto provider = m_provider;
    const ExecutorConfig config = m_config;
    const QDateTime startedAt = run->startedAt();
    QThread* thread = QThread::create([this, request, run, provider, config, startedAt, lease] {
        run->setRunning();
        ExecutionResult result = execute(request, *run, provider, config, lease.get());
        result.startedAt = startedAt;
        Database::releaseThreadConnections(); // before the caller can see the result and exit
        run->deliverResult(result);
    });
    thread->setObjectName(QStringLiteral("sandpad-run"));
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    connect(run, &Run::finished, this, [this, run] { m_active.removeAll(run); });
    run->setProperty("sandpad_thread", QVariant::fromValue(static_cast<QObject*>(thread)));
    emit runStarted(run);
    thread->start();
    return run;
}

ExecutionResult Executor::run(const ExecutionRequest& request, const TextCallback& onOutput)
{
    Run* run = start(request);
    QEventLoop loop;
    if (onOutput)
        connect(run, &Run::output, &loop, [&onOutput](OutputStream s, const QString& t) { onOutput(s, t); });
    connect(run, &Run::finished, &loop, &QEventLoop::quit);
    if (!run->isFinished())
        loop.exec();
    ExecutionResult result = run->result();
    run->deleteLater();
    return result;
}

void Executor::waitForAll()
{
    // Threads deliver their result through the event loop; wait until each run has it.
    for (const auto& run : m_active) {
        if (!run)
            continue;
        if (auto* thread = qobject_cast<QThread*>(run->property("sandpad_thread").value<QObject*>()))
            thread->wait();
    }
}

ExecutionResult Executor::execute(const ExecutionRequest& request, Run& run,
                                  std::shared_ptr<SandboxProvider> provider, const ExecutorConfig& config,
                                  SessionLease* lease)
{
    QElapsedTimer clock;
    clock.start();
    ExecutionResult result;
    result.runId = run.id();
    result.provider = provider ? provider->name() : QStringLiteral("none");
    RunControl& control = run.control();
    QString source = QStringLiteral("adhoc");

    auto finish = [&]() -> ExecutionResult {
        result.durationMs = clock.elapsed();
        account(result, source);
        result.message = result.composeMessage();
        return result;
    };

    // --- 1. What runs: ad hoc text, or an authorized stored revision (never caller-supplied text).
    if (const auto* adHoc = std::get_if<AdHocSource>(&request.source)) {
        result.language = adHoc->language;
        result.code = adHoc->code;
        result.title = adHoc->title.isEmpty() ? QStringLiteral("snippet") : adHoc->title;
    } else {
        const auto& ref = std::get<SavedRevisionRef>(request.source);
        source = QStringLiteral("document");
        result.documentId = ref.documentId;
        result.revisionId = ref.revisionId;
        if (!m_documents) {
            result.status = RunStatus::InfrastructureError;
            result.reason = QStringLiteral("refused: no document store is open");
            return finish();
        }
        QString why;
        const auto revision = m_documents->authorize(ref.documentId, ref.revisionId, &why);
        if (!revision) {
            result.status = RunStatus::InfrastructureError;
            result.reason = QStringLiteral("refused: %1").arg(why);
            return finish();
        }
        const auto document = m_documents->document(ref.documentId);
        result.revisionId = revision->id;
        result.code = revision->content;
        result.title = document ? document->title : ref.documentId;
        result.language = languageFromTitle(result.title).value_or(Language::Python);
    }

    // --- Refusals before any sandbox exists.
    if (!provider) {
        result.status = RunStatus::InfrastructureError;
        result.reason = QStringLiteral("refused: no sandbox provider is selected (choose one in Settings, or --provider local)");
        return finish();
    }
    // Credits are reserved atomically before a sandbox exists: runs started at once cannot
    // overspend. account() consumes the reservation (a paid run) or releases it ($0).
    if (m_credits) {
        const auto reservation = m_credits->reserve(result.runId, kCompletedRunCostMicros);
        if (!reservation.granted()) {
            result.status = RunStatus::InfrastructureError;
            result.reason = QStringLiteral("refused: %1").arg(reservation.reason);
            return finish();
        }
    }
    if (control.isCancelled()) {
        result.status = RunStatus::Cancelled;
        result.reason = QStringLiteral("cancelled");
        return finish();
    }
    if (const QString why = request.input.problem(); !why.isEmpty()) {
        result.status = RunStatus::InfrastructureError;
        result.reason = QStringLiteral("refused: %1").arg(why);
        return finish();
    }

    Deadline deadline(std::min(request.deadlineSeconds, config.deadlineSeconds));
    deadline.start();

    // --- 2. A fresh sandbox, or the notebook session's.
    SandboxOptions options = config.sandbox;
    options.language = result.language;
    options.deadlineSeconds = deadline.seconds();
    // `!pip install` runs need a fresh interpreter: never a pre-started one.
    options.coldOnly = result.language == Language::Python &&
                       !PipDirectives::parse(result.code).packagesToInstall().isEmpty();
    options.runId = result.runId; // the remote sandbox's run label (orphan records)
    // A paid remote sandbox is recorded before it is asked for, and closed once removal is
    // confirmed: a crash in between leaves an open row for the OrphanReconciler. A session's
    // sandbox has its row from the session (core/session), open while the session lives.
    RemoteAllocations* allocations = !lease && provider->allocatesRemotely() ? m_allocations : nullptr;
    if (allocations && !allocations->recordIntent(provider->name(), result.runId))
        qWarning("sandpad: %s", qPrintable(allocations->lastError()));
    std::unique_ptr<Sandbox> fresh;
    Sandbox* sandbox = nullptr;
    if (lease) {
        options.coldOnly = false;
        if (!guarded(result, QStringLiteral("could not start the session"),
                     [&] { sandbox = &lease->acquire(options, control); })) {
            result.cleanupConfirmed = true; // nothing of this run was started
            QString note;
            lease->release(CommandOutcome{}, &note);
            return finish();
        }
        result.executionCount = lease->executionCount();
    } else {
        if (!guarded(result, QStringLiteral("could not create a sandbox"), [&] {
                try {
                    fresh = provider->create(options, control);
                } catch (const ProviderError& e) {
                    // Refused before anything was made: nothing to reconcile.
                    using K = ProviderError::Kind;
                    if (allocations && (e.kind() == K::NotConfigured || e.kind() == K::Unauthorized ||
                                        e.kind() == K::PaymentRequired || e.kind() == K::RateLimited))
                        allocations->close(result.runId, QStringLiteral("refused"));
                    throw;
                }
            })) {
            if (allocations)
                RemoteAllocations::runEnded(result.runId); // an open row is the reconciler's now
            return finish();
        }
        sandbox = fresh.get();
        result.prestarted = control.isPrestarted(); // the provider took it from its pool
    }
    if (allocations)
        allocations->recordRemoteId(result.runId, sandbox->id());

    // --- 3-5. Place the program, run it with streamed, capped output and the deadline.
    OutputCap stdoutCap(config.keepBytesPerStream), stderrCap(config.keepBytesPerStream);
    qint64 forwarded = 0;
    bool forwardCut = false;
    const OutputCallback onOutput = [&](OutputStream stream, const QByteArray& bytes) {
        (stream == OutputStream::Stdout ? stdoutCap : stderrCap).append(bytes);
        if (forwarded + bytes.size() <= kLiveForwardLimit) {
            forwarded += bytes.size();
            run.appendOutput(stream, bytes);
        } else if (!forwardCut) {
            forwardCut = true;
            run.appendOutput(OutputStream::Stderr,
                                QByteArrayLiteral("\n[live output stopped after 64 MiB; the run goes on]\n"));
        }
    };

    RuntimeProgram program;
    CommandOutcome outcome;
    const bool ran = guarded(result, QStringLiteral("the sandbox failed"), [&] {
        program = RuntimeProgram::build(result.language, result.code, result.title, *sandbox, request.input);
        if (!program.ok())
            throw ProviderError(ProviderError::Kind::Io, program.error);
        sandbox->writeFiles(program.files);
        program.command.timeoutMs = deadline.remainingMs();
        outcome = sandbox->run(program.command, onOutput, control);
    });
    result.stdoutText = stdoutCap.text();
    result.stderrText = stderrCap.text();
    result.stdoutTruncated = stdoutCap.truncated();
    result.stderrTruncated = stderrCap.truncated();
    result.exitCode = outcome.exitCode;

    // --- 6. Collect and validate what the wrapper returned. What counts is what the program did,
    // never what it printed: once the sandbox's own channel says the program started, every end
    // without a valid result is the program's (DESIGN.md, "Accounting").
    if (ran) {
        if (outcome.cancelled || control.isCancelled()) {
            result.status = RunStatus::Cancelled;
            result.reason = QStringLiteral("cancelled");
        } else if (outcome.timedOut) {
            result.status = RunStatus::Timeout;
            result.reason = QStringLiteral("timeout: the run exceeded its %1 s deadline").arg(deadline.seconds());
        } else if (!outcome.limitExceeded.isEmpty()) {
            result.status = RunStatus::Error;
            result.error = RunError{QStringLiteral("SandboxLimitError"), outcome.limitExceeded, QString()};
        } else {
            guarded(result, QStringLiteral("invalid output"), [&] {
                const QString problem = ResultCollector::collect(program, *sandbox, result);
                if (problem.isEmpty())
                    return;
                const bool started = outcome.programStarted.value_or(
                    sandbox->readFile(program.outDir + QStringLiteral("/started")).has_value());
                if (started) {
                    result.status = RunStatus::Error;
                    result.result.reset();
                    result.charts.clear();
                    result.artifacts.clear();
                    QString text = QStringLiteral("%1 \u2014 %2").arg(problem, endedHow(outcome));
                    text[0] = text[0].toUpper();
                    result.error = RunError{QStringLiteral("ResultError"), text, QString()};
                } else {
                    result.status = RunStatus::InfrastructureError;
                    result.reason = QStringLiteral("the runtime did not start the program (%1): %2")
                                        .arg(endedHow(outcome), problem);
                }
            });
        }
    }

    if (lease && ran)
        lease->collect(*sandbox, program.outDir);

    // An interrupted execution costs nothing, like a cancel; what it printed and raised is kept.
    if (lease && lease->interrupted() && (result.status == RunStatus::Success || result.status == RunStatus::Error)) {
        result.status = RunStatus::Cancelled;
        result.reason = QStringLiteral("interrupted (the session's state is kept)");
    }

    // The result is validated: the notebook shows it now, while the sandbox is torn down and its
    // cleanup confirmed (a local sandbox's kernel teardown, a remote sandbox's removal request).
    // The cost follows with finished(), by the seed's rule unchanged.
    if (ran && (result.status == RunStatus::Success || result.status == RunStatus::Error)) {
        ExecutionResult validated = result;
        validated.durationMs = clock.elapsed();
        validated.message = validated.composeMessage();
        run.deliverValidated(validated);
    }

    // --- 7. Destroy the sandbox and confirm it is gone (a session's: the execution's processes).
    QString note;
    const CleanupReport cleanup = lease ? lease->release(outcome, &note) : sandbox->destroy();
    if (!note.isEmpty()) {
        result.stderrText += (result.stderrText.isEmpty() || result.stderrText.endsWith(u'\n') ? QString() : QStringLiteral("\n")) +
                             QStringLiteral("[%1]\n").arg(note);
        if (result.status != RunStatus::Success && result.status != RunStatus::Error)
            result.reason += QStringLiteral("; ") + note;
    }
    result.cleanupConfirmed = cleanup.confirmed;
    if (allocations && cleanup.confirmed)
        allocations->close(result.runId, QStringLiteral("removed"));
    if (allocations)
        RemoteAllocations::runEnded(result.runId);
    if (!cleanup.confirmed && (result.status == RunStatus::Success || result.status == RunStatus::Error)) {
        result.status = RunStatus::InfrastructureError;
        result.reason = QStringLiteral("cleanup not confirmed: %1").arg(cleanup.detail);
    }

    // --- 8. Account.
    return finish();
}

void Executor::account(ExecutionResult& result, const QString& source)
{
    const bool completed = (result.status == RunStatus::Success || result.status == RunStatus::Error)
                           && result.cleanupConfirmed;
    result.costMicros = completed ? kCompletedRunCostMicros : 0;
    if (!completed && result.reason.isEmpty())
        result.reason = runStatusName(result.status);
    if (!m_ledger) {
        if (m_credits)
            m_credits->release(result.runId);
        return;
    }
    UsageEntry entry;
    entry.runId = result.runId;
    entry.time = QDateTime::currentDateTimeUtc();
    entry.provider = result.provider;
    entry.language = languageName(result.language);
    entry.source = source;
    entry.documentId = result.documentId;
    entry.revisionId = result.revisionId;
    entry.title = result.title;
    entry.status = runStatusName(result.status);
    entry.costMicros = result.costMicros;
    entry.reason = completed ? QString() : result.reason;
    const bool debit = m_credits && m_credits->enabled() && entry.costMicros > 0;
    auto outcome = m_ledger->record(entry, debit);
    if (outcome == UsageLedger::RecordOutcome::Failed) {
        qWarning("sandpad: could not record run %s in the usage ledger: %s", qPrintable(entry.runId),
                 qPrintable(m_ledger->lastError()));
        if (m_credits)
            m_credits->release(result.runId); // else the money stays held until it expires
    }
    if (outcome == UsageLedger::RecordOutcome::InsufficientCredits) {
        // The balance changed while the run was going: record it unpaid, with the reason.
        entry.costMicros = 0;
        entry.reason = QStringLiteral("credits exhausted during the run");
        result.costMicros = 0;
        result.reason = entry.reason;
        m_ledger->record(entry, false);
    }
}

} // namespace sandpad
