#include "core/providers/http/RemoteSessionSandbox.h"

#include "core/runtime/RuntimeProgram.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

namespace sandpad {

namespace {
// The relay's exit codes (session_host.py).
constexpr int kDone = 0, kStrays = 10, kDead = 11, kNoHost = 12;
} // namespace

RemoteSessionSandbox::RemoteSessionSandbox(std::unique_ptr<RemoteSandbox> sandbox, Language language)
    : m_sandbox(std::move(sandbox)), m_language(language)
{
}

RemoteSessionSandbox::~RemoteSessionSandbox()
{
    destroy();
}

QString RemoteSessionSandbox::hostPath() const
{
    return workDir() + QStringLiteral("/session_host.py");
}

SandboxCommand RemoteSessionSandbox::relay(const QStringList& args, qint64 timeoutMs) const
{
    SandboxCommand command;
    command.argv = QStringList{QStringLiteral("python3"), hostPath()} + args;
    command.cwd = workDir();
    command.timeoutMs = timeoutMs;
    return command;
}

void RemoteSessionSandbox::fail(const QString& why)
{
    m_dead = true;
    const CleanupReport removed = destroy();
    throw ProviderError(ProviderError::Kind::Io,
                        QStringLiteral("The session could not be started: %1%2")
                            .arg(why, removed.confirmed ? QStringLiteral("; the sandbox was deleted")
                                                        : QStringLiteral("; ") + removed.detail));
}

void RemoteSessionSandbox::requirePython(RunControl& control)
{
    // `command -v` from the image's sh: a probe only after a failure, the normal start pays nothing.
    SandboxCommand probe;
    probe.argv = QStringList{QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("command -v python3 >/dev/null 2>&1")};
    probe.cwd = workDir();
    probe.timeoutMs = 30000;
    CommandOutcome found;
    try {
        found = m_sandbox->run(probe, {}, control);
    } catch (const ProviderError&) {
        return; // the service's own error stands
    }
    if (found.cancelled || found.timedOut || found.exitCode.value_or(0) == 0)
        return;
    m_dead = true;
    const CleanupReport removed = destroy();
    throw NoSessionError(QStringLiteral("The sandbox's image has no python3; sessions on this provider need it (the "
                                        "session host is Python); %1 cells will run fresh%2")
                             .arg(m_language == Language::Python ? QStringLiteral("Python") : QStringLiteral("JavaScript"),
                                  removed.confirmed ? QString() : QStringLiteral(" (%1)").arg(removed.detail)),
                         removed.confirmed);
}

void RemoteSessionSandbox::start(RunControl& control, int readySeconds)
{
    const QByteArray host = RuntimeProgram::sessionHostSource();
    const QByteArray runtime = RuntimeProgram::sessionSource(m_language);
    const QByteArray wrapper = RuntimeProgram::wrapperSource(m_language);
    if (host.isEmpty() || runtime.isEmpty() || wrapper.isEmpty())
        fail(QStringLiteral("the session runtime is missing from this build"));
    const bool python = m_language == Language::Python;
    QList<SandboxFile> files = RuntimeProgram::supportFiles(m_language, workDir());
    files << SandboxFile{workDir() + (python ? QStringLiteral("/wrapper.py") : QStringLiteral("/wrapper.mjs")), wrapper, 0644}
          << SandboxFile{workDir() + (python ? QStringLiteral("/session.py") : QStringLiteral("/session.mjs")), runtime, 0644}
          << SandboxFile{hostPath(), host, 0644};
    try {
        m_starting = true;
        writeFiles(files);
        m_starting = false;
        try {
            m_sandbox->startDetached(relay({QStringLiteral("serve"), workDir(), python ? QStringLiteral("python") : QStringLiteral("javascript"),
                                            interpreter(m_language)}, 0));
        } catch (const ProviderError&) {
            requirePython(control); // a service may refuse a command it cannot find
            throw;
        }
        QByteArray said;
        const CommandOutcome ready = m_sandbox->run(
            relay({QStringLiteral("wait"), workDir(), QString::number(readySeconds)}, (readySeconds + 15) * 1000LL),
            [&said](OutputStream, const QByteArray& bytes) { said += bytes.left(4000 - said.size()); }, control);
        // The base-package note went to the first command's output: it is the first execution's.
        m_note = m_sandbox->packageNote().toUtf8();
        if (!m_note.isEmpty() && said.startsWith(m_note))
            said.remove(0, m_note.size());
        if (ready.cancelled || control.isCancelled()) {
            m_dead = true;
            destroy();
            throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Cancelled while starting the session"));
        }
        if (ready.exitCode != 0)
            requirePython(control);
        if (ready.exitCode != 0)
            fail(said.trimmed().isEmpty() ? QStringLiteral("the session's interpreter did not start (%1)")
                                                .arg(ready.timedOut ? QStringLiteral("timed out")
                                                                    : QStringLiteral("exit code %1").arg(ready.exitCode.value_or(-1)))
                                          : QString::fromUtf8(said.trimmed()));
    } catch (const ProviderError& e) {
        if (m_dead)
            throw;
        fail(e.message());
    }
}

void RemoteSessionSandbox::writeFiles(const QList<SandboxFile>& files)
{
    // Only the runtime placed at the start is remembered (the program's own files are always sent:
    // the code may have changed or removed them).
    QList<SandboxFile> changed;
    for (const SandboxFile& file : files) {
        const QByteArray hash = QCryptographicHash::hash(file.content, QCryptographicHash::Sha256) + QByteArray::number(file.mode);
        if (m_placed.value(file.path) != hash)
            changed << file;
        if (m_starting)
            m_placed.insert(file.path, hash);
    }
    try {
        m_sandbox->writeFiles(changed);
    } catch (const ProviderError& e) {
        if (!m_starting && !m_sandbox->stillRunning())
            throw gone(e.message());
        throw;
    }
}

void RemoteSessionSandbox::keepAhead(qint64 ms)
{
    try {
        m_sandbox->keepAlive(ms);
    } catch (const ProviderError& e) {
        if (e.kind() == ProviderError::Kind::SandboxStopped || !m_sandbox->stillRunning())
            throw gone(e.message());
        throw;
    }
}

ProviderError RemoteSessionSandbox::gone(const QString& how)
{
    m_dead = true;
    return ProviderError(ProviderError::Kind::SandboxStopped,
                         QStringLiteral("The session's sandbox stopped by itself (%1): the session's state is lost; "
                                        "the next execution starts a new session").arg(how));
}

QJsonObject RemoteSessionSandbox::lastExecution()
{
    try {
        const std::optional<QByteArray> text = m_sandbox->readFile(workDir() + QStringLiteral("/.session/exec.json"));
        if (text)
            return QJsonDocument::fromJson(*text).object();
    } catch (const ProviderError&) {
    }
    return {};
}

CommandOutcome RemoteSessionSandbox::run(const SandboxCommand& command, const OutputCallback& onOutput, RunControl& control)
{
    if (m_dead)
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The session has ended"));
    if (command.argv.size() != 3 || command.argv[2].contains(u'\n') || command.argv[2].contains(u'\t'))
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("A session runs only the runtime's program command"));
    m_lastCleanup = {true, {}};
    m_lastStrays = 0;
    CommandOutcome outcome;
    if (control.isCancelled()) {
        outcome.cancelled = true;
        outcome.detail = QStringLiteral("cancelled before start");
        return outcome;
    }
    const qint64 timeoutMs = command.timeoutMs > 0 ? command.timeoutMs : 300000;
    keepAhead(timeoutMs + kExecutionMarginMs);
    const QString execution = QStringLiteral("%1-%2").arg(QRandomGenerator::global()->generate64(), 0, 16).arg(++m_executions);
    QStringList args{QStringLiteral("exec"), workDir(), command.argv[2], execution};
    {
        QMutexLocker lock(&m_mutex);
        m_executing = true;
        m_execution = execution;
        if (m_pendingInterrupt) // the host holds it until the execution's code starts
            args << QStringLiteral("interrupt");
        m_pendingInterrupt = false;
    }
    if (!m_note.isEmpty() && onOutput)
        onOutput(OutputStream::Stderr, m_note);
    m_note.clear();
    CommandOutcome relayed;
    try {
        relayed = m_sandbox->run(relay(args, timeoutMs), onOutput, control);
    } catch (const ProviderError& e) {
        {
            QMutexLocker lock(&m_mutex);
            m_executing = false;
        }
        m_dead = true; // whatever went on there, the session cannot be trusted any more
        if (!m_sandbox->stillRunning())
            throw gone(e.message());
        throw;
    }
    {
        QMutexLocker lock(&m_mutex);
        m_executing = false;
    }
    if (relayed.timedOut || relayed.cancelled) {
        // The relay was killed; the interpreter may still be running the code: the whole session goes.
        m_dead = true;
        return relayed;
    }
    const int code = relayed.exitCode.value_or(-1);
    if (code == kDone || code == kStrays) {
        outcome.exitCode = 0;
        if (code == kStrays) {
            const QJsonObject word = lastExecution();
            m_lastStrays = word.value(QLatin1String("strays")).toInt();
            m_lastCleanup = {false, QStringLiteral("a process the execution started could not be confirmed gone: %1")
                                        .arg(word.value(QLatin1String("detail")).toString(QStringLiteral("no detail")))};
        }
        try { // the sandbox outlives an idle session (errors here are the next execution's)
            m_sandbox->keepAlive(m_idleKeepMs);
        } catch (const ProviderError&) {
        }
        return outcome;
    }
    m_dead = true;
    if (code == kDead) {
        // The interpreter ended in the middle (os._exit, a signal, process.exit): the program's own end.
        const QJsonObject word = lastExecution();
        outcome.detail = QStringLiteral("the session's %1").arg(word.value(QLatin1String("dead")).toString(QStringLiteral("interpreter ended")));
        return outcome;
    }
    if (code == kNoHost && !m_sandbox->stillRunning())
        throw gone(QStringLiteral("its interpreter is gone"));
    throw ProviderError(ProviderError::Kind::Protocol,
                        code == kNoHost ? QStringLiteral("The session's interpreter is not running in its sandbox any more")
                                        : QStringLiteral("The session's relay failed (exit code %1)").arg(code));
}

void RemoteSessionSandbox::interrupt()
{
    QMutexLocker lock(&m_mutex);
    if (!m_executing) {
        m_pendingInterrupt = true; // acquired, the execution not sent yet
        return;
    }
    // A relay of its own, from a thread of its own: the execution's command is streaming here
    // (or just being started: the host keeps an interrupt that comes before its execution).
    RemoteSandbox* sandbox = m_sandbox.get();
    const SandboxCommand command = relay({QStringLiteral("interrupt"), workDir(), m_execution}, 10000);
    m_interrupts.emplace_back([sandbox, command] { sandbox->startFromAnyThread(command); });
}

void RemoteSessionSandbox::joinInterrupts()
{
    std::vector<std::thread> threads;
    {
        QMutexLocker lock(&m_mutex);
        threads.swap(m_interrupts);
        m_pendingInterrupt = false; // a late interrupt is not the next execution's
    }
    for (auto& t : threads)
        t.join();
}

CleanupReport RemoteSessionSandbox::endExecution()
{
    joinInterrupts();
    if (m_dead)
        return destroy(); // the whole sandbox went (deadline, cancel, crash): confirmed like a one-run sandbox
    return m_lastCleanup;
}

QByteArray RemoteSessionSandbox::fetch(const QByteArray& request, RunControl& control, int timeoutMs)
{
    if (m_dead)
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The session has ended"));
    if (request.contains('\n') || request.contains('\t'))
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("A fetch request is one line of JSON"));
    if (control.isCancelled())
        throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Cancelled"));
    timeoutMs = qMax(100, timeoutMs);
    const qint64 relayMs = qint64(timeoutMs) + kFetchGraceMs + 15000; // the host's kill comes first
    keepAhead(relayMs + kExecutionMarginMs);
    QByteArray answer, said;
    bool over = false;
    CommandOutcome outcome;
    try {
        outcome = m_sandbox->run(
            relay({QStringLiteral("fetch"), workDir(), QString::number(timeoutMs / 1000.0, 'f', 3), QString::fromLatin1(request.toHex())}, relayMs),
            [&](OutputStream stream, const QByteArray& bytes) {
                if (stream == OutputStream::Stderr) {
                    said += bytes.left(2000 - said.size());
                } else if (answer.size() + bytes.size() > kMaxFetchBytes) {
                    over = true;
                } else {
                    answer += bytes;
                }
            },
            control);
    } catch (const ProviderError& e) {
        if (e.kind() == ProviderError::Kind::Cancelled)
            throw;
        if (!m_sandbox->stillRunning())
            throw gone(e.message());
        throw;
    }
    if (outcome.cancelled || control.isCancelled()) {
        m_dead = true; // the interpreter may still be answering: the session cannot be trusted
        throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Cancelled"));
    }
    if (outcome.timedOut) {
        m_dead = true;
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The session did not answer the fetch within %1 s: the session was ended")
                                                         .arg(relayMs / 1000));
    }
    const QString why = QString::fromUtf8(said.trimmed());
    switch (outcome.exitCode.value_or(-1)) {
    case kDone:
        break;
    case kDead:
        m_dead = true;
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The session's interpreter ended while answering (%1): the session was ended")
                                                         .arg(why.isEmpty() ? QStringLiteral("no detail") : why));
    case kNoHost:
        m_dead = true;
        if (!m_sandbox->stillRunning())
            throw gone(QStringLiteral("its interpreter is gone"));
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("The session's interpreter is not running in its sandbox any more"));
    default:
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("The session could not answer the fetch: %1")
                                                               .arg(why.isEmpty() ? QStringLiteral("exit code %1").arg(outcome.exitCode.value_or(-1)) : why));
    }
    if (over)
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("The session's answer was over %1 bytes").arg(kMaxFetchBytes));
    QJsonParseError parsed{};
    if (!QJsonDocument::fromJson(answer, &parsed).isObject())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("The session's answer was not a JSON object (%1): %2")
                                                               .arg(parsed.error == QJsonParseError::NoError ? QStringLiteral("another JSON value")
                                                                                                             : parsed.errorString(),
                                                                    QString::fromUtf8(answer.left(80))));
    try { // browsing the session's values is using it: its idle allowance starts again
        m_sandbox->keepAlive(m_idleKeepMs);
    } catch (const ProviderError&) {
    }
    return answer;
}

CleanupReport RemoteSessionSandbox::destroy()
{
    joinInterrupts();
    m_dead = true;
    return m_sandbox ? m_sandbox->destroy() : CleanupReport{true, {}};
}

} // namespace sandpad
