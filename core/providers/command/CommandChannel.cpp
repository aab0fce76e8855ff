#include "core/providers/command/CommandChannel.h"

#include "core/sandbox/RunControl.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QTimer>

namespace sandpad {

namespace {
constexpr qsizetype kStderrKeep = 8192;
}

CommandChannel::CommandChannel(const QString& program, const QStringList& arguments)
    : m_program(program), m_arguments(arguments)
{
}

CommandChannel::~CommandChannel()
{
    if (m_process && m_process->state() != QProcess::NotRunning)
        finish(2000);
}

ProviderError::Kind CommandChannel::kindFromName(const QString& name)
{
    using K = ProviderError::Kind;
    if (name == QLatin1String("not_configured")) return K::NotConfigured;
    if (name == QLatin1String("unauthorized")) return K::Unauthorized;
    if (name == QLatin1String("payment_required")) return K::PaymentRequired;
    if (name == QLatin1String("rate_limited")) return K::RateLimited;
    if (name == QLatin1String("not_found")) return K::NotFound;
    if (name == QLatin1String("sandbox_stopped")) return K::SandboxStopped;
    if (name == QLatin1String("unavailable")) return K::Unavailable;
    if (name == QLatin1String("io")) return K::Io;
    return K::Protocol;
}

void CommandChannel::start()
{
    m_process = std::make_unique<QProcess>();
    m_process->setProgram(m_program);
    m_process->setArguments(m_arguments);
    m_process->start();
    if (!m_process->waitForStarted(10000))
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("Command provider: cannot start %1: %2").arg(m_program, m_process->errorString()));
}

bool CommandChannel::running() const
{
    return m_process && m_process->state() == QProcess::Running;
}

QString CommandChannel::stderrTail() const
{
    return QString::fromUtf8(m_stderr).trimmed().split(QLatin1Char('\n')).mid(-3).join(QStringLiteral(" | "));
}

void CommandChannel::fail(ProviderError::Kind kind, const QString& what)
{
    const QString tail = stderrTail();
    throw ProviderError(kind, QStringLiteral("Command provider %1: %2%3")
                                  .arg(m_program, what, tail.isEmpty() ? QString() : QStringLiteral(" (stderr: %1)").arg(tail)));
}

bool CommandChannel::readLine(QJsonObject& out)
{
    m_buffer += m_process->readAllStandardOutput();
    const qsizetype nl = m_buffer.indexOf('\n');
    if (nl < 0)
        return false;
    const QByteArray line = m_buffer.left(nl).trimmed();
    m_buffer.remove(0, nl + 1);
    if (line.isEmpty())
        return readLine(out);
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &err);
    if (!doc.isObject())
        fail(ProviderError::Kind::Protocol,
             QStringLiteral("answered a line that is not a JSON object: %1").arg(QString::fromUtf8(line.left(120))));
    out = doc.object();
    return true;
}

int CommandChannel::post(const QString& op, QJsonObject request)
{
    if (!running())
        fail(ProviderError::Kind::Unavailable, QStringLiteral("is not running"));
    const int id = m_nextId++;
    request.insert(QStringLiteral("id"), id);
    request.insert(QStringLiteral("op"), op);
    m_process->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    return id;
}

CommandChannel::Reply CommandChannel::call(const QString& op, QJsonObject request, const CallOptions& options)
{
    const int id = post(op, std::move(request));
    Reply reply;
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(m_process.get(), &QProcess::readyReadStandardOutput, &loop, &QEventLoop::quit);
    QObject::connect(m_process.get(), &QProcess::readyReadStandardError, &loop, [this] {
        m_stderr += m_process->readAllStandardError();
        if (m_stderr.size() > kStderrKeep)
            m_stderr = m_stderr.right(kStderrKeep);
    });
    QObject::connect(m_process.get(), &QProcess::finished, &loop, &QEventLoop::quit);
    if (options.control)
        QObject::connect(options.control, &RunControl::cancelRequested, &loop, &QEventLoop::quit, Qt::QueuedConnection);
    if (!options.deadline.isForever())
        timer.start(std::chrono::milliseconds(std::max<qint64>(0, options.deadline.remainingTime())));

    bool interrupted = false;
    QDeadlineTimer grace;
    for (;;) {
        QJsonObject msg;
        while (readLine(msg)) {
            if (msg.value(QLatin1String("id")).toInt(-1) != id)
                continue; // e.g. the answer to a kill
            if (msg.contains(QLatin1String("event"))) {
                if (options.onEvent)
                    options.onEvent(msg);
                continue;
            }
            if (!msg.value(QLatin1String("ok")).toBool()) {
                const QJsonObject e = msg.value(QLatin1String("error")).toObject();
                fail(kindFromName(e.value(QLatin1String("kind")).toString()),
                     QStringLiteral("%1 failed: %2").arg(op, e.value(QLatin1String("message")).toString()));
            }
            reply.response = msg;
            return reply;
        }
        if (m_process->state() == QProcess::NotRunning)
            fail(ProviderError::Kind::Unavailable,
                 QStringLiteral("exited during %1 (exit code %2)").arg(op).arg(m_process->exitCode()));
        if (!interrupted) {
            if (options.control && options.control->isCancelled())
                reply.end = Reply::End::Cancelled;
            else if (options.deadline.hasExpired())
                reply.end = Reply::End::DeadlineExpired;
            if (reply.end != Reply::End::Answered) {
                if (!options.onInterrupted)
                    return reply;
                interrupted = true;
                options.onInterrupted(id);
                grace = QDeadlineTimer(options.graceMs);
                timer.start(options.graceMs);
            }
        } else if (grace.hasExpired()) {
            return reply; // answered by nobody in time: the caller reports it
        }
        loop.exec();
    }
}

bool CommandChannel::finish(int waitMs)
{
    if (!m_process)
        return true;
    if (m_process->state() != QProcess::NotRunning) {
        m_process->closeWriteChannel();
        if (!m_process->waitForFinished(waitMs)) {
            m_process->kill();
            m_process->waitForFinished(2000);
            return false;
        }
    }
    return m_process->exitStatus() == QProcess::NormalExit;
}

} // namespace sandpad
