#include "core/completion/CompletionService.h"

#include "core/completion/JediProtocol.h"
#include "core/providers/local/LocalProvider.h"
#include "core/providers/local/LocalServiceSandbox.h"
#include "core/sandbox/ProviderError.h"

#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QTimer>

// The runtime scripts are compiled into the sandpad_resources static library, which must be
// registered explicitly (and Q_INIT_RESOURCE cannot be used inside a namespace).
static QByteArray runtimeSource(const QString& name)
{
    static const bool once = [] {
        Q_INIT_RESOURCE(resources);
        return true;
    }();
    (void)once;
    QFile file(QStringLiteral(":/sandpad/runtime/") + name);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

namespace sandpad {

namespace {

constexpr int kSendTimeoutMs = 2000;

qint64 nowMs() { return QDateTime::currentMSecsSinceEpoch(); }

int slot(AssistKind kind) { return int(kind); }

AssistAnswer failed(quint64 id, AssistKind kind, const QString& why)
{
    AssistAnswer answer;
    answer.id = id;
    answer.kind = kind;
    answer.error = why;
    return answer;
}

} // namespace

CompletionService::CompletionService(QObject* parent) : CompletionService(Options{}, parent) {}

CompletionService::CompletionService(const Options& options, QObject* parent)
    : QObject(parent), m_options(options)
{
    qRegisterMetaType<sandpad::AssistAnswer>();
}

CompletionService::~CompletionService()
{
    shutdown();
}

QString CompletionService::lastError() const
{
    std::lock_guard lock(m_mutex);
    return m_lastError;
}

void CompletionService::ensureWorker()
{
    // Under m_mutex.
    if (!m_worker.joinable() && !m_stopping)
        m_worker = std::thread([this] { work(); });
}

void CompletionService::start()
{
    std::lock_guard lock(m_mutex);
    m_wantStart = true;
    ensureWorker();
    m_wake.notify_all();
}

quint64 CompletionService::request(const AssistRequest& request)
{
    std::lock_guard lock(m_mutex);
    const quint64 id = m_nextId++;
    if (m_stopping) {
        QMetaObject::invokeMethod(this, [this, a = failed(id, request.kind, QStringLiteral("unavailable: shut down"))] {
            emit answered(a);
        }, Qt::QueuedConnection);
        return id;
    }
    m_latest[slot(request.kind)] = id;
    m_pending[slot(request.kind)] = Pending{id, request, nowMs()}; // an older one waiting is dropped
    m_wantStart = true;
    ensureWorker();
    m_wake.notify_all();
    return id;
}

CleanupReport CompletionService::shutdown()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_abort = true;
        m_wake.notify_all();
    }
    if (m_worker.joinable())
        m_worker.join();
    setReady(false);
    return m_cleanup;
}

void CompletionService::setReady(bool ready)
{
    if (m_ready.exchange(ready) != ready)
        QMetaObject::invokeMethod(this, [this, ready] { emit readyChanged(ready); }, Qt::QueuedConnection);
}

bool CompletionService::startSandbox(std::unique_lock<std::mutex>& lock)
{
    // On the worker, with m_mutex held on entry and exit; released while the sandbox starts.
    lock.unlock();
    QString error;
    try {
        const QByteArray script = runtimeSource(QStringLiteral("jedi_service.py"));
        const QByteArray answers = runtimeSource(QStringLiteral("jedi_answers.py")); // shared with sessions
        if (script.isEmpty() || answers.isEmpty())
            throw ProviderError(ProviderError::Kind::Io, QStringLiteral("the service script is missing from this build"));
        if (!m_provider) {
            LocalProviderOptions providerOptions;
            providerOptions.python = m_options.python;
            m_provider = std::make_unique<LocalProvider>(providerOptions);
        }
        SandboxOptions options;
        options.language = Language::Python;
        options.allowNetwork = false;
        options.memoryLimitMb = m_options.memoryMb;
        SandboxCommand command;
        command.argv = {m_provider->pythonPath(), QStringLiteral("/sandpad/jedi_service.py")};
        command.cwd = QStringLiteral("/sandpad");
        ++m_starts;
        m_sandbox = std::make_unique<LocalServiceSandbox>(
            *m_provider, options,
            QList<SandboxFile>{SandboxFile{command.argv[1], script, 0444},
                               SandboxFile{QStringLiteral("/sandpad/jedi_answers.py"), answers, 0444}},
            command);
        if (!m_sandbox->waitReady(m_options.startTimeoutMs, m_options.memoryMb, &m_abort))
            throw ProviderError(ProviderError::Kind::Io, m_abort ? QStringLiteral("shut down while starting")
                                                                 : QStringLiteral("Jedi did not start in its sandbox (is python3-jedi installed?)"));
        m_pid1 = m_sandbox->pid1();
        m_interpreterPid = m_sandbox->interpreterPid();
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
    }
    if (!error.isEmpty())
        stopSandbox();
    lock.lock();
    if (!error.isEmpty()) {
        m_lastError = error;
        m_failedAtMs = nowMs();
        return false;
    }
    m_failedAtMs = -1;
    setReady(true);
    return true;
}

void CompletionService::stopSandbox()
{
    setReady(false);
    if (m_sandbox) {
        m_cleanup = m_sandbox->destroy();
        m_sandbox.reset();
    }
    m_pid1 = -1;
    m_interpreterPid = -1;
}

AssistAnswer CompletionService::handle(const Pending& pending)
{
    const AssistKind kind = pending.request.kind;
    if (pending.request.source.size() * 3 > m_options.maxSourceBytes
        && pending.request.source.toUtf8().size() > m_options.maxSourceBytes)
        return failed(pending.id, kind, QStringLiteral("too large"));
    const int deadlineMs = pending.request.deadlineMs > 0 ? pending.request.deadlineMs : m_options.deadlineMs;
    if (!m_sandbox->send(JediProtocol::requestLine(pending.id, pending.request, deadlineMs, m_options.reuseInference), kSendTimeoutMs)) {
        stopSandbox();
        return failed(pending.id, kind, QStringLiteral("unavailable: the service ended"));
    }
    const qint64 until = nowMs() + deadlineMs + m_options.graceMs;
    for (;;) {
        QByteArray line;
        const auto read = m_sandbox->readLine(&line, int(qMax<qint64>(0, until - nowMs())), m_options.maxAnswerBytes);
        if (read == LocalServiceSandbox::Read::Line) {
            if (JediProtocol::answerId(line) != pending.id)
                continue; // not this request's (cannot happen with one request at a time)
            return JediProtocol::parseAnswer(line, kind);
        }
        // Stuck past the deadline (a C-level loop the service's own alarm cannot stop), flooding,
        // or gone: this sandbox is done; the next start is a fresh one.
        stopSandbox();
        return failed(pending.id, kind,
                      read == LocalServiceSandbox::Read::Timeout ? QStringLiteral("late")
                      : read == LocalServiceSandbox::Read::TooLong ? QStringLiteral("bad answer")
                                                                   : QStringLiteral("unavailable: the service ended"));
    }
}

void CompletionService::deliver(const AssistAnswer& answer)
{
    // Under m_mutex: an answer overtaken by a newer request of its kind is dropped.
    if (answer.id < m_latest[slot(answer.kind)])
        return;
    QMetaObject::invokeMethod(this, [this, answer] { emit answered(answer); }, Qt::QueuedConnection);
}

void CompletionService::work()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        auto anyPending = [this] {
            for (const auto& p : m_pending)
                if (p)
                    return true;
            return false;
        };
        // Wakes once a second as well, to notice a service that died while idle.
        m_wake.wait_for(lock, std::chrono::seconds(1), [&] { return m_stopping || anyPending(); });
        if (m_stopping)
            break;
        if (m_sandbox && !m_sandbox->isAlive()) {
            lock.unlock();
            stopSandbox();
            lock.lock();
        }
        const bool retryDue = m_failedAtMs < 0 || nowMs() - m_failedAtMs >= m_options.retryAfterFailedStartMs;
        if (!m_sandbox && m_wantStart && retryDue && !startSandbox(lock)) {
            // Nothing to answer with: each waiting request learns why.
            for (auto& p : m_pending)
                if (p) {
                    deliver(failed(p->id, p->request.kind, QStringLiteral("unavailable: %1").arg(m_lastError)));
                    p.reset();
                }
            continue;
        }
        if (m_stopping)
            break;
        if (!m_sandbox) {
            for (auto& p : m_pending)
                if (p) {
                    deliver(failed(p->id, p->request.kind, QStringLiteral("unavailable: %1").arg(m_lastError)));
                    p.reset();
                }
            continue;
        }
        // The oldest waiting request first (kinds keep their order: a calltip typed before a
        // completion is answered first).
        std::optional<Pending>* next = nullptr;
        for (auto& p : m_pending)
            if (p && (!next || p->id < (*next)->id))
                next = &p;
        if (!next)
            continue;
        const Pending pending = **next;
        next->reset();
        lock.unlock();
        AssistAnswer answer = handle(pending);
        answer.elapsedMs = nowMs() - pending.queuedAtMs;
        lock.lock();
        deliver(answer);
    }
    lock.unlock();
    stopSandbox();
    m_provider.reset();
}

AssistAnswer CompletionService::ask(const AssistRequest& request, int timeoutMs)
{
    QEventLoop loop;
    AssistAnswer result;
    quint64 id = 0;
    bool got = false;
    const auto connection = connect(this, &CompletionService::answered, &loop, [&](const AssistAnswer& answer) {
        if (answer.id == id) {
            result = answer;
            got = true;
            loop.quit();
        }
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    id = this->request(request);
    loop.exec();
    disconnect(connection);
    if (!got)
        result = failed(id, request.kind, QStringLiteral("no answer"));
    return result;
}

bool CompletionService::waitReady(int timeoutMs)
{
    start();
    QEventLoop loop;
    QTimer poll;
    connect(&poll, &QTimer::timeout, &loop, [&] {
        if (isReady())
            loop.quit();
    });
    poll.start(20);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    if (!isReady())
        loop.exec();
    return isReady();
}

} // namespace sandpad
