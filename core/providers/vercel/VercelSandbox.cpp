#include "core/providers/vercel/VercelSandbox.h"

#include "core/providers/http/TarGzWriter.h"
#include "core/sandbox/ProviderError.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>

namespace sandpad {

namespace {
// The body of `POST cmd`.
QJsonObject commandBody(const SandboxCommand& command)
{
    QJsonObject env;
    for (auto it = command.env.begin(); it != command.env.end(); ++it)
        env.insert(it.key(), it.value());
    QJsonObject body{{QStringLiteral("command"), command.argv[0]},
                     {QStringLiteral("args"), QJsonArray::fromStringList(command.argv.mid(1))},
                     {QStringLiteral("env"), env},
                     {QStringLiteral("sudo"), false}};
    if (!command.cwd.isEmpty())
        body.insert(QStringLiteral("cwd"), command.cwd);
    return body;
}
} // namespace

VercelSandbox::VercelSandbox(const VercelConfig& config, Language language)
    : RemoteSandbox({.name = QStringLiteral("Vercel"),
                     .workDir = QStringLiteral("/vercel/sandbox/sandpad"),
                     .stateWord = QStringLiteral("status"),
                     .readyState = QStringLiteral("running"),
                     .failedStates = {QStringLiteral("failed"), QStringLiteral("stopped"), QStringLiteral("stopping")},
                     .packagesWhere = QStringLiteral("Vercel runtime"),
                     .removing = QStringLiteral("stopping"),
                     .removal = QStringLiteral("stop"),
                     .removedStatus = 410, // already stopped
                     .goneStates = {QStringLiteral("stopped"), QStringLiteral("failed")},
                     .basePackages = config.basePackages,
                     .requestTimeoutMs = config.requestTimeoutMs,
                     .readyTimeoutMs = config.readyTimeoutMs,
                     .confirmTimeoutMs = config.confirmTimeoutMs},
                    {config.token, config.oidcToken}),
      m_config(config), m_language(language), m_teamId(config.effectiveTeamId())
{
}

VercelSandbox::~VercelSandbox()
{
    destroy();
}

QString VercelSandbox::idOf(const QJsonObject& created) const
{
    return created.value(QLatin1String("sandbox")).toObject().value(QLatin1String("id")).toString();
}

QString VercelSandbox::stateOf(const QJsonObject& description) const
{
    return description.value(QLatin1String("sandbox")).toObject().value(QLatin1String("status")).toString();
}

QUrl VercelSandbox::url(const QString& path, const QList<QPair<QString, QString>>& query) const
{
    QUrl u(m_config.apiUrl + path);
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("teamId"), m_teamId);
    for (const auto& item : query)
        q.addQueryItem(item.first, item.second);
    u.setQuery(q);
    return u;
}

HttpRequest VercelSandbox::request(const QByteArray& method, const QString& path, const QJsonObject* body,
                                   qint64 timeoutMs) const
{
    HttpRequest rq;
    rq.method = method;
    rq.url = url(path);
    rq.headers.emplaceBack("Authorization", "Bearer " + m_config.bearer().toUtf8());
    if (body) {
        rq.headers.emplaceBack("Content-Type", "application/json");
        rq.body = QJsonDocument(*body).toJson(QJsonDocument::Compact);
    }
    rq.deadline = QDeadlineTimer(timeoutMs < 0 ? m_config.requestTimeoutMs : timeoutMs);
    return rq;
}

HttpRequest VercelSandbox::describeRequest() const
{
    return request("GET", QStringLiteral("/v1/sandboxes/") + m_id);
}

HttpRequest VercelSandbox::removeRequest() const
{
    return request("POST", QStringLiteral("/v1/sandboxes/%1/stop").arg(m_id));
}

HttpRequest VercelSandbox::readRequest(const QString& path) const
{
    const QJsonObject body{{QStringLiteral("path"), path}};
    return request("POST", QStringLiteral("/v1/sandboxes/%1/fs/read").arg(m_id), &body);
}

HttpRequest VercelSandbox::waitRequest(const QString& cmdId) const
{
    HttpRequest wait = request("GET", QString());
    wait.url = url(QStringLiteral("/v1/sandboxes/%1/cmd/%2").arg(m_id, cmdId), {{QStringLiteral("wait"), QStringLiteral("true")}});
    return wait;
}

QJsonValue VercelSandbox::commandValue(const QByteArray& body, const QString& what, QLatin1String key) const
{
    return parseObject(body, what).value(QLatin1String("command")).toObject().value(key);
}

void VercelSandbox::start(int deadlineSeconds, RunControl& control)
{
    const QJsonObject body{
        {QStringLiteral("projectId"), m_config.effectiveProjectId()},
        {QStringLiteral("runtime"),
         m_language == Language::Python ? m_config.pythonRuntime : m_config.nodeRuntime},
        {QStringLiteral("resources"), QJsonObject{{QStringLiteral("vcpus"), m_config.vcpus}}},
        // A little above the run's deadline, plus room for the package check: the service
        // stops the VM by itself even if we never get to.
        {QStringLiteral("timeout"), qint64(deadlineSeconds + 120) * 1000},
    };
    startSandbox(request("POST", QStringLiteral("/v1/sandboxes"), &body), m_language, deadlineSeconds, control);
}

std::optional<QString> VercelSandbox::runPackageScript(const QString& script, int deadlineSeconds)
{
    // The log is read only when the command failed, so a complete runtime costs two requests.
    SandboxCommand cmd;
    cmd.argv = {interpreter(Language::Python), QStringLiteral("-c"), script};
    cmd.timeoutMs = qint64(deadlineSeconds) * 1000;
    const QJsonObject body = commandBody(cmd);
    const QString cmdId = commandValue(
        m_http.sendChecked(request("POST", QStringLiteral("/v1/sandboxes/%1/cmd").arg(m_id), &body),
                           QStringLiteral("checking the base packages")).body,
        QStringLiteral("cmd"), QLatin1String("id")).toString();
    HttpRequest wait = waitRequest(cmdId);
    wait.deadline = QDeadlineTimer(cmd.timeoutMs);
    const HttpResponse done = m_http.sendChecked(wait, QStringLiteral("installing the base packages"));
    const QJsonValue exit = commandValue(done.body, QStringLiteral("cmd wait"), QLatin1String("exitCode"));
    if (exit.isDouble() && exit.toInt() == 0)
        return std::nullopt;
    HttpRequest logs = request("GET", QStringLiteral("/v1/sandboxes/%1/cmd/%2/logs").arg(m_id, cmdId));
    QByteArray text;
    logs.onData = [&text](const QByteArray& chunk) { text += chunk; };
    QString stderrText;
    try {
        m_http.sendChecked(logs, QStringLiteral("reading the pip log"));
        for (const auto& line : text.split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QLatin1String("stream")).toString() == QLatin1String("stderr"))
                stderrText += o.value(QLatin1String("data")).toString();
        }
    } catch (const ProviderError&) {
    }
    return stderrText;
}

void VercelSandbox::writeFiles(const QList<SandboxFile>& files)
{
    if (files.isEmpty())
        return;
    HttpRequest rq = request("POST", QStringLiteral("/v1/sandboxes/%1/fs/write").arg(m_id));
    rq.headers.emplaceBack("Content-Type", "application/gzip");
    rq.headers.emplaceBack("x-cwd", "/");
    rq.body = TarGzWriter::tarGz(files);
    m_http.sendChecked(rq, QStringLiteral("writing files"));
}

void VercelSandbox::kill(const QString& cmdId)
{
    const QJsonObject body{{QStringLiteral("signal"), 9}};
    sendCleanup(request("POST", QStringLiteral("/v1/sandboxes/%1/%2/kill").arg(m_id, cmdId), &body));
}

CommandOutcome VercelSandbox::runCommand(const SandboxCommand& command, const OutputCallback& onOutput,
                                         const QDeadlineTimer& deadline)
{
    const QJsonObject body = commandBody(command);
    const HttpResponse started =
        m_http.send(bounded(request("POST", QStringLiteral("/v1/sandboxes/%1/cmd").arg(m_id), &body), deadline));
    if (started.end != HttpResponse::End::Finished)
        return interrupted(started.end, QStringLiteral("cancelled before the command started"),
                           QStringLiteral("timed out before the command started"));
    if (!started.ok())
        throw m_http.errorFor(started, QStringLiteral("starting the command"));
    const QString cmdId = commandValue(started.body, QStringLiteral("cmd"), QLatin1String("id")).toString();
    if (cmdId.isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Vercel: the command answer has no id"));
    auto killed = [&](HttpResponse::End end) {
        kill(cmdId);
        return interrupted(end, QStringLiteral("cancelled; command killed"),
                           QStringLiteral("timed out after %1 ms; command killed").arg(command.timeoutMs));
    };

    // The NDJSON log stream: long-lived, delivered line by line as it arrives.
    QByteArray pending;
    QString streamError;
    HttpRequest logs = request("GET", QStringLiteral("/v1/sandboxes/%1/cmd/%2/logs").arg(m_id, cmdId));
    logs.deadline = deadline;
    logs.onData = [&](const QByteArray& chunk) {
        pending += chunk;
        qsizetype nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            const QByteArray line = pending.left(nl);
            pending.remove(0, nl + 1);
            if (line.trimmed().isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            const QString stream = o.value(QLatin1String("stream")).toString();
            if (stream == QLatin1String("stdout") || stream == QLatin1String("stderr")) {
                if (onOutput)
                    onOutput(stream == QLatin1String("stdout") ? OutputStream::Stdout : OutputStream::Stderr,
                             o.value(QLatin1String("data")).toString().toUtf8());
            } else if (stream == QLatin1String("error")) {
                const QJsonObject e = o.value(QLatin1String("data")).toObject();
                streamError = QStringLiteral("%1: %2").arg(e.value(QLatin1String("code")).toString(),
                                                          e.value(QLatin1String("message")).toString());
            } else if (streamError.isEmpty()) {
                streamError = QStringLiteral("unreadable log line");
            }
        }
    };
    HttpResponse streamed;
    try {
        streamed = m_http.send(logs);
    } catch (const ProviderError& e) {
        kill(cmdId);
        throw ProviderError(ProviderError::Kind::Unavailable,
                            QStringLiteral("Vercel: the log stream dropped before the command ended (%1)")
                                .arg(e.message()));
    }
    if (streamed.end != HttpResponse::End::Finished)
        return killed(streamed.end);
    if (!streamed.ok())
        throw m_http.errorFor(streamed, QStringLiteral("reading the command's output"));
    if (!streamError.isEmpty()) {
        kill(cmdId);
        throw ProviderError(ProviderError::Kind::Unavailable,
                            m_http.redact(QStringLiteral("Vercel: the log stream reported an error: %1").arg(streamError)));
    }

    HttpRequest wait = waitRequest(cmdId);
    wait.deadline = deadline;
    const HttpResponse done = m_http.send(wait);
    if (done.end != HttpResponse::End::Finished)
        return killed(done.end);
    if (!done.ok())
        throw m_http.errorFor(done, QStringLiteral("waiting for the command"));
    const QJsonValue exit = commandValue(done.body, QStringLiteral("cmd wait"), QLatin1String("exitCode"));
    if (!exit.isDouble())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Vercel: the finished command has no exit code"));
    CommandOutcome outcome;
    outcome.exitCode = exit.toInt();
    return outcome;
}

} // namespace sandpad
