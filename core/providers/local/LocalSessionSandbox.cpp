#include "core/providers/local/LocalSessionSandbox.h"

#include "core/providers/local/LocalSandboxInternals.h"
#include "core/providers/local/MemoryWatchdog.h"
#include "core/providers/local/RunStopper.h"
#include "core/providers/local/SandboxMemory.h"
#include "core/providers/local/SandboxProcess.h"
#include "core/providers/local/StrayProcesses.h"
#include "core/runtime/ResultFrameParser.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTimer>

#include <csignal>
#include <optional>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sandpad {

using namespace localsandbox;

namespace {

constexpr int kStrayTimeoutMs = 10000;

QString sessionFile(Language language)
{
    return language == Language::Python ? QStringLiteral("/sandpad/session.py") : QStringLiteral("/sandpad/session.mjs");
}

} // namespace

LocalSessionSandbox::LocalSessionSandbox(std::unique_ptr<LocalSandbox> warm, Language language)
    : m_sandbox(std::move(warm)), m_language(language)
{
}

LocalSessionSandbox::~LocalSessionSandbox()
{
    destroy();
}

void LocalSessionSandbox::fail(const QString& why)
{
    m_dead = true;
    destroy();
    throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The session could not be started: %1").arg(why));
}

void LocalSessionSandbox::start(RunControl& control, int timeoutMs)
{
    if (!m_sandbox || !m_sandbox->m_warm)
        fail(QStringLiteral("no pre-started sandbox"));
    std::atomic<bool> never{false};
    if (!m_sandbox->waitReady(timeoutMs, &never))
        fail(QStringLiteral("the pre-started sandbox did not start: %1").arg(m_sandbox->m_warm ? m_sandbox->m_warm->setupMessage() : QString()));
    const QByteArray runtime = RuntimeProgram::sessionSource(m_language);
    if (runtime.isEmpty())
        fail(QStringLiteral("the session runtime is missing from this build"));
    m_sandbox->writeFiles({SandboxFile{sessionFile(m_language), runtime, 0644}});
    SandboxProcess& process = *m_sandbox->m_warm;
    process.discardOutput();
    if (!sendAll(process.jobFd(), m_sandbox->jobBytes(QByteArrayLiteral("--session")), 10000))
        fail(QStringLiteral("the pre-started sandbox did not take the session"));
    m_sandbox->m_warmFiles = m_sandbox->m_files; // the wrapper and the session runtime stay placed
    // The session's "ready" on the job socket; what it printed before is noise of its start.
    QElapsedTimer clock;
    clock.start();
    QByteArray line;
    while (!line.endsWith('\n')) {
        if (clock.elapsed() > timeoutMs || control.isCancelled() || process.hasExited())
            fail(control.isCancelled() ? QStringLiteral("cancelled") : QStringLiteral("the session did not report ready"));
        pollfd p{process.jobFd(), POLLIN, 0};
        ::poll(&p, 1, 100);
        process.discardOutput();
        process.readStatus();
        char buf[64];
        const ssize_t n = ::read(process.jobFd(), buf, sizeof buf);
        if (n == 0)
            fail(QStringLiteral("the session's interpreter ended"));
        if (n > 0)
            line.append(buf, n);
    }
    if (line != "ready\n")
        fail(QStringLiteral("the session said %1").arg(QString::fromUtf8(line.trimmed().left(200))));
    {
        QMutexLocker lock(&m_signalMutex);
        m_interpreterPid = m_sandbox->m_interpreterPid;
        m_interpreterFd = m_interpreterPid > 0 ? int(::syscall(SYS_pidfd_open, m_interpreterPid, 0)) : -1;
    }
    // One memory limit for the whole sandbox, for its whole life: a thread an execution left
    // running, a fetch or a completion can grow it between executions as well as during one.
    const qint64 limit = m_sandbox->options().memoryLimitMb * kMiB;
    if (limit > 0 && process.pid1() > 0) {
        QStringList mounts = SandboxMemory::defaultTmpfsMounts();
        mounts << workDir();
        m_watchdog = std::make_unique<MemoryWatchdogThread>(process.pid1(), process.pid1Fd(), mounts, limit, [this] {
            std::function<void()> ended;
            {
                QMutexLocker lock(&m_endMutex);
                if (m_endReason.isEmpty())
                    m_endReason = QStringLiteral("the memory limit: %1").arg(m_watchdog->message());
                ended = m_ended;
            }
            if (ended)
                ended();
        });
        m_watchdog->start();
    }
}

QString LocalSessionSandbox::endReason() const
{
    QMutexLocker lock(&m_endMutex);
    return m_endReason;
}

void LocalSessionSandbox::setEndedCallback(std::function<void()> ended)
{
    QMutexLocker lock(&m_endMutex);
    m_ended = std::move(ended);
}

int LocalSessionSandbox::watchdogSamples() const { return m_watchdog ? m_watchdog->samples() : 0; }
qint64 LocalSessionSandbox::watchdogCostUs() const { return m_watchdog ? m_watchdog->totalCostUs() : 0; }

QString LocalSessionSandbox::id() const { return m_sandbox->id(); }
QString LocalSessionSandbox::workDir() const { return m_sandbox->workDir(); }
QString LocalSessionSandbox::interpreter(Language language) const { return m_sandbox->interpreter(language); }
QStringList LocalSessionSandbox::pipArguments() const { return m_sandbox->pipArguments(); }
int LocalSessionSandbox::pid1() const { return m_sandbox && m_sandbox->m_warm ? m_sandbox->m_warm->pid1() : -1; }

void LocalSessionSandbox::writeFiles(const QList<SandboxFile>& files)
{
    m_sandbox->writeFiles(files);
}

CommandOutcome LocalSessionSandbox::run(const SandboxCommand& command, const OutputCallback& onOutput,
                                        RunControl& control)
{
    if (m_dead || !m_sandbox->m_warm || !isAlive())
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The session has ended"));
    if (command.argv.size() != 3 || command.argv[2].contains(u'\n') || command.argv[2].contains(u'\t'))
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("A session runs only the runtime's program command"));
    CommandOutcome outcome;
    if (control.isCancelled()) {
        outcome.cancelled = true;
        outcome.detail = QStringLiteral("cancelled before start");
        return outcome;
    }
    m_sandbox->m_results.clear();
    m_sandbox->m_truncated.clear();
    m_sandbox->m_resultError.clear();
    SandboxProcess& process = *m_sandbox->m_warm;
    const qint64 timeoutMs = command.timeoutMs > 0 ? command.timeoutMs : m_sandbox->options().deadlineSeconds * 1000LL;
    const QByteArray limits = m_sandbox->applyJobLimits(timeoutMs, true, !m_limitsSet);
    m_limitsSet = true;

    // What was started between executions (a thread of the interpreter may fork) does not run
    // alongside this one.
    CleanupReport swept;
    if (!killStrays(QStringLiteral("before the execution"), swept))
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The session has ended: %1").arg(endReason()));

    ResultFrameParser parser(LocalSandbox::kMaxResultBytes);
    RunStopper stopper(control, [&process] { process.kill(); });
    process.discardOutput(); // what background threads printed between executions
    if (!sendAll(process.jobFd(), m_sandbox->jobBytes(QFile::encodeName(command.argv[2]) + limits), 10000)) {
        m_dead = true;
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The session did not take the execution"));
    }
    stopper.start(timeoutMs);
    {
        QMutexLocker lock(&m_signalMutex);
        m_executing = true;
        if (m_pendingInterrupt && m_interpreterFd >= 0) // the session holds it until the code starts
            ::syscall(SYS_pidfd_send_signal, m_interpreterFd, SIGINT, nullptr, 0);
        m_pendingInterrupt = false;
    }
    QByteArray line;
    const bool done = process.pumpUntilJobLine(onOutput, parser, &line);
    {
        QMutexLocker lock(&m_signalMutex);
        m_executing = false;
        m_pendingInterrupt = false;
    }
    stopper.stop();
    ++m_executions;
    parser.finish();
    for (auto it = parser.files().begin(); it != parser.files().end(); ++it)
        m_sandbox->m_results.insert(it.key(), it.value());
    m_sandbox->m_truncated = parser.truncatedNames();
    m_sandbox->m_resultError = parser.protocolError();
    outcome.programStarted = m_sandbox->m_results.contains(QStringLiteral("started"));

    if (m_watchdog && m_watchdog->exceeded() && !control.isCancelled()) {
        m_dead = true;
        outcome.limitExceeded = m_watchdog->message();
        outcome.detail = QStringLiteral("stopped at the memory limit; the session ended");
        return outcome;
    }
    if (stopper.stopped()) {
        m_dead = true;
        return stopper.outcome();
    }
    if (!done || line != QByteArrayLiteral("done ") + QByteArray::number(m_executions)) {
        // The interpreter ended in the middle (os._exit, a signal, process.exit) or broke the
        // protocol: the program's own end; the session is over.
        m_dead = true;
        const InitStatus& init = process.initStatus();
        if (init.exitCode)
            outcome.exitCode = *init.exitCode;
        else if (init.signal)
            outcome.exitCode = 128 + *init.signal;
        outcome.detail = done ? QStringLiteral("the session's interpreter broke its protocol (%1)").arg(QString::fromUtf8(line.left(80)))
                              : QStringLiteral("the session's interpreter ended (%1)")
                                    .arg(init.signal ? QStringLiteral("signal %1").arg(*init.signal)
                                                     : QStringLiteral("exit code %1").arg(init.exitCode.value_or(-1)));
        return outcome;
    }
    outcome.exitCode = 0;
    if (!m_sandbox->m_resultError.isEmpty())
        outcome.detail = QStringLiteral("the result channel was malformed: %1").arg(m_sandbox->m_resultError);
    return outcome;
}

QByteArray LocalSessionSandbox::fetch(const QByteArray& request, RunControl& control, int timeoutMs)
{
    if (m_dead || !m_sandbox->m_warm || !isAlive())
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The session has ended"));
    if (request.contains('\n') || request.contains('\t'))
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("A fetch request is one line of JSON"));
    if (control.isCancelled())
        throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Cancelled"));
    SandboxProcess& process = *m_sandbox->m_warm;
    ResultFrameParser parser(kMaxFetchBytes);
    // The hard end: the value's code ignored the interrupt (a C loop, a handler that swallows it).
    RunStopper stopper(control, [&process] { process.kill(); });
    process.discardOutput();
    if (!sendAll(process.jobFd(), QByteArrayLiteral("--fetch\t") + request + '\n', 10000)) {
        m_dead = true;
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The session did not take the request"));
    }
    stopper.start(qint64(timeoutMs) + kFetchGraceMs);
    auto sigint = [this] {
        QMutexLocker lock(&m_signalMutex);
        if (m_interpreterFd >= 0)
            ::syscall(SYS_pidfd_send_signal, m_interpreterFd, SIGINT, nullptr, 0);
    };
    QTimer soft; // in this thread's loop (pumpUntilJobLine): the interrupt at the deadline
    soft.setSingleShot(true);
    QObject::connect(&soft, &QTimer::timeout, sigint);
    soft.start(timeoutMs);
    // RunControl::giveWay: SIGINT now, and again until the answer comes (one that lands while
    // the session still reads the request is ignored by it).
    QTimer givingWay;
    givingWay.setInterval(kGiveWayResendMs);
    QObject::connect(&givingWay, &QTimer::timeout, sigint);
    QObject::connect(&control, &RunControl::giveWayRequested, &givingWay, [&givingWay, sigint] {
        sigint();
        givingWay.start();
    });
    if (control.isGivingWay()) {
        sigint();
        givingWay.start();
    }
    QByteArray line;
    const bool done = process.pumpUntilJobLine({}, parser, &line); // what the value's code printed is dropped
    soft.stop();
    givingWay.stop();
    stopper.stop();
    parser.finish();
    if (stopper.stopped() || !done || line != QByteArrayLiteral("fetched")) {
        m_dead = true;
        if (stopper.cancelled())
            throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Cancelled"));
        if (m_watchdog && m_watchdog->exceeded())
            throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The session ended: %1").arg(m_watchdog->message()));
        throw ProviderError(ProviderError::Kind::Io,
                            stopper.timedOut() ? QStringLiteral("The value did not answer within %1 s, even when interrupted: the session was ended")
                                                     .arg((timeoutMs + kFetchGraceMs) / 1000)
                                               : QStringLiteral("The session's interpreter ended while answering"));
    }
    const auto answer = parser.files().find(QStringLiteral("fetch.json"));
    if (answer == parser.files().end() || parser.truncatedNames().contains(QStringLiteral("fetch.json")))
        throw ProviderError(ProviderError::Kind::Protocol,
                            QStringLiteral("The session's answer was missing or over %1 bytes").arg(kMaxFetchBytes));
    return answer.value();
}

std::optional<QByteArray> LocalSessionSandbox::readFile(const QString& path)
{
    return m_sandbox->readFile(path);
}

void LocalSessionSandbox::interrupt()
{
    QMutexLocker lock(&m_signalMutex);
    if (m_executing && m_interpreterFd >= 0)
        ::syscall(SYS_pidfd_send_signal, m_interpreterFd, SIGINT, nullptr, 0);
    else
        m_pendingInterrupt = true; // acquired, the job not sent yet
}

bool LocalSessionSandbox::isAlive()
{
    return !m_dead && m_sandbox && m_sandbox->isWarmAlive() && !(m_watchdog && m_watchdog->exceeded());
}

CleanupReport LocalSessionSandbox::endExecution()
{
    {
        QMutexLocker lock(&m_signalMutex);
        m_pendingInterrupt = false; // a late interrupt is not the next execution's
    }
    CleanupReport report;
    m_lastStrays = 0;
    if (!isAlive()) // the whole sandbox went (deadline, cancel, memory, crash): confirm it like a one-run sandbox
        return endSandbox();
    killStrays(QStringLiteral("after the execution"), report);
    return report;
}

bool LocalSessionSandbox::killStrays(const QString& when, CleanupReport& report)
{
    QString detail;
    if (StrayProcesses::killAll(pid1(), m_interpreterPid, kStrayTimeoutMs, &m_lastStrays, &detail)) {
        report = {true, {}};
        return true;
    }
    // A process the program started that cannot be confirmed gone: the session ends with the
    // whole sandbox (the kernel kills its PID namespace). The program started it, so its
    // execution is billed as usual once that teardown is confirmed - never recorded at $0.
    {
        QMutexLocker lock(&m_endMutex);
        if (m_endReason.isEmpty())
            m_endReason = QStringLiteral("processes of an execution could not be stopped %1 (%2)").arg(when, detail);
    }
    report = endSandbox();
    if (!report.confirmed)
        report.detail = detail + QStringLiteral("; ") + report.detail;
    return false;
}

CleanupReport LocalSessionSandbox::endSandbox()
{
    m_dead = true;
    if (m_sandbox->m_warm)
        m_sandbox->retire(std::move(m_sandbox->m_warm));
    CleanupReport report;
    report.confirmed = m_sandbox->m_cleanupProblems.isEmpty();
    report.detail = m_sandbox->m_cleanupProblems.join(QStringLiteral("; "));
    return report;
}

CleanupReport LocalSessionSandbox::destroy()
{
    {
        QMutexLocker lock(&m_signalMutex);
        if (m_interpreterFd >= 0)
            ::close(m_interpreterFd);
        m_interpreterFd = -1;
    }
    m_dead = true;
    if (m_watchdog)
        m_watchdog->stop(); // (it holds its own pidfd: nothing of the sandbox is used after this)
    if (!m_sandbox)
        return {true, {}};
    return m_sandbox->destroy();
}

} // namespace sandpad
