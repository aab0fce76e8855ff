#include "core/providers/command/CommandSandbox.h"

#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QJsonArray>

namespace sandpad {

CommandSandbox::CommandSandbox(const CommandProviderConfig& config)
    : m_config(config), m_channel(config.program, config.arguments)
{
}

CommandSandbox::~CommandSandbox()
{
    if (m_created && !m_cleanup)
        destroy();
}

void CommandSandbox::start(const SandboxOptions& options, RunControl& control)
{
    if (control.isCancelled())
        throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Command provider: cancelled"));
    m_channel.start();
    CommandChannel::CallOptions call;
    call.deadline = QDeadlineTimer(m_config.requestTimeoutMs);
    call.control = &control;
    const auto reply = m_channel.call(
        QStringLiteral("create"),
        QJsonObject{{QStringLiteral("protocol"), 1},
                    {QStringLiteral("language"), languageName(options.language)},
                    {QStringLiteral("deadline_seconds"), options.deadlineSeconds},
                    {QStringLiteral("allow_network"), options.allowNetwork},
                    {QStringLiteral("memory_mb"), options.memoryLimitMb}},
        call);
    if (reply.end != CommandChannel::Reply::End::Answered) {
        m_channel.finish(2000);
        throw ProviderError(reply.end == CommandChannel::Reply::End::Cancelled ? ProviderError::Kind::Cancelled
                                                                               : ProviderError::Kind::Unavailable,
                            QStringLiteral("Command provider: create %1")
                                .arg(reply.end == CommandChannel::Reply::End::Cancelled ? QStringLiteral("cancelled")
                                                                                       : QStringLiteral("timed out")));
    }
    m_created = true;
    const QJsonObject sb = reply.response.value(QLatin1String("sandbox")).toObject();
    m_id = sb.value(QLatin1String("id")).toString();
    m_workDir = sb.value(QLatin1String("work_dir")).toString();
    const QJsonObject interp = sb.value(QLatin1String("interpreters")).toObject();
    for (auto it = interp.begin(); it != interp.end(); ++it)
        m_interpreters.insert(it.key(), it.value().toString());
    for (const auto& a : sb.value(QLatin1String("pip_args")).toArray())
        m_pipArgs << a.toString();
    if (m_workDir.isEmpty() || !m_workDir.startsWith(QLatin1Char('/'))) {
        destroy();
        throw ProviderError(ProviderError::Kind::Protocol,
                            QStringLiteral("Command provider: create answered no absolute work_dir"));
    }
}

QString CommandSandbox::interpreter(Language language) const
{
    const QString name = languageName(language);
    return m_interpreters.value(name, language == Language::Python ? QStringLiteral("python3") : QStringLiteral("node"));
}

void CommandSandbox::writeFiles(const QList<SandboxFile>& files)
{
    QJsonArray list;
    for (const auto& f : files)
        list.append(QJsonObject{{QStringLiteral("path"), f.path},
                                {QStringLiteral("mode"), f.mode},
                                {QStringLiteral("data"), QString::fromLatin1(f.content.toBase64())}});
    CommandChannel::CallOptions call;
    call.deadline = QDeadlineTimer(m_config.requestTimeoutMs);
    const auto reply = m_channel.call(QStringLiteral("write_files"), QJsonObject{{QStringLiteral("files"), list}}, call);
    if (reply.end != CommandChannel::Reply::End::Answered)
        throw ProviderError(ProviderError::Kind::Unavailable, QStringLiteral("Command provider: write_files timed out"));
}

CommandOutcome CommandSandbox::run(const SandboxCommand& command, const OutputCallback& onOutput, RunControl& control)
{
    QJsonObject env;
    for (auto it = command.env.begin(); it != command.env.end(); ++it)
        env.insert(it.key(), it.value());
    CommandChannel::CallOptions call;
    // The provider enforces timeout_ms itself; ours is the backstop a little later.
    call.deadline = QDeadlineTimer(command.timeoutMs + 2000);
    call.control = &control;
    call.graceMs = m_config.killGraceMs;
    call.onEvent = [&](const QJsonObject& e) {
        if (e.value(QLatin1String("event")).toString() != QLatin1String("output") || !onOutput)
            return;
        const QByteArray data = QByteArray::fromBase64(e.value(QLatin1String("data")).toString().toLatin1());
        onOutput(e.value(QLatin1String("stream")).toString() == QLatin1String("stderr") ? OutputStream::Stderr
                                                                                     : OutputStream::Stdout,
                 data);
    };
    call.onInterrupted = [&](int id) { m_channel.post(QStringLiteral("kill"), QJsonObject{{QStringLiteral("target"), id}}); };
    const auto reply = m_channel.call(QStringLiteral("run"),
                                      QJsonObject{{QStringLiteral("argv"), QJsonArray::fromStringList(command.argv)},
                                                  {QStringLiteral("cwd"), command.cwd},
                                                  {QStringLiteral("env"), env},
                                                  {QStringLiteral("timeout_ms"), command.timeoutMs}},
                                      call);
    CommandOutcome outcome;
    const QJsonObject r = reply.response;
    outcome.detail = r.value(QLatin1String("detail")).toString();
    if (r.value(QLatin1String("exit_code")).isDouble())
        outcome.exitCode = r.value(QLatin1String("exit_code")).toInt();
    outcome.timedOut = r.value(QLatin1String("timed_out")).toBool() ||
                       reply.end == CommandChannel::Reply::End::DeadlineExpired;
    outcome.cancelled = reply.end == CommandChannel::Reply::End::Cancelled;
    if (outcome.timedOut || outcome.cancelled)
        outcome.exitCode.reset();
    if (reply.end != CommandChannel::Reply::End::Answered && r.isEmpty())
        outcome.detail = QStringLiteral("the provider did not confirm the kill within %1 ms").arg(m_config.killGraceMs);
    return outcome;
}

std::optional<QByteArray> CommandSandbox::readFile(const QString& path)
{
    CommandChannel::CallOptions call;
    call.deadline = QDeadlineTimer(m_config.requestTimeoutMs);
    const auto reply = m_channel.call(QStringLiteral("read_file"), QJsonObject{{QStringLiteral("path"), path}}, call);
    if (reply.end != CommandChannel::Reply::End::Answered)
        throw ProviderError(ProviderError::Kind::Unavailable, QStringLiteral("Command provider: read_file timed out"));
    if (!reply.response.value(QLatin1String("exists")).toBool())
        return std::nullopt;
    return QByteArray::fromBase64(reply.response.value(QLatin1String("data")).toString().toLatin1());
}

CleanupReport CommandSandbox::destroy()
{
    if (m_cleanup)
        return *m_cleanup;
    CleanupReport report;
    if (!m_created) {
        report.confirmed = true;
        report.detail = QStringLiteral("no sandbox was created");
        m_channel.finish(2000);
        m_cleanup = report;
        return report;
    }
    try {
        CommandChannel::CallOptions call;
        call.deadline = QDeadlineTimer(m_config.confirmTimeoutMs);
        const auto reply = m_channel.call(QStringLiteral("destroy"), QJsonObject{}, call);
        if (reply.end != CommandChannel::Reply::End::Answered) {
            report.detail = QStringLiteral("Command provider: destroy not answered within %1 s")
                                .arg(m_config.confirmTimeoutMs / 1000);
        } else {
            report.confirmed = reply.response.value(QLatin1String("confirmed")).toBool();
            report.detail = reply.response.value(QLatin1String("detail")).toString();
        }
    } catch (const std::exception& e) {
        report.detail = QString::fromUtf8(e.what());
    }
    if (!m_channel.finish(5000) && report.confirmed) {
        report.confirmed = false;
        report.detail = QStringLiteral("the provider process did not exit after destroy");
    }
    m_cleanup = report;
    return report;
}

} // namespace sandpad
