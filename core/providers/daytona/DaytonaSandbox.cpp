#include "core/providers/daytona/DaytonaSandbox.h"

#include "core/sandbox/ProviderError.h"

#include <QHttpMultiPart>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUuid>

namespace sandpad {

namespace {
QUrl withQuery(QUrl url, const QString& key, const QString& value)
{
    // Fully percent-encoded ('+' and '&' too) so the path survives form decoding.
    url.setQuery(key + QLatin1Char('=') + QString::fromLatin1(QUrl::toPercentEncoding(value, "/")),
                 QUrl::StrictMode);
    return url;
}
} // namespace

DaytonaSandbox::DaytonaSandbox(const DaytonaConfig& config)
    : RemoteSandbox({.name = QStringLiteral("Daytona"),
                     .workDir = QStringLiteral("/tmp/sandpad"),
                     .stateWord = QStringLiteral("state"),
                     .readyState = QStringLiteral("started"),
                     .failedStates = {QStringLiteral("error"), QStringLiteral("build_failed"),
                                      QStringLiteral("destroyed"), QStringLiteral("destroying")},
                     .packagesWhere = QStringLiteral("Daytona sandbox"),
                     .removing = QStringLiteral("deleting"),
                     .removal = QStringLiteral("deletion"),
                     .removedStatus = 404,
                     .goneStates = {QStringLiteral("destroyed")},
                     .basePackages = config.basePackages,
                     .requestTimeoutMs = config.requestTimeoutMs,
                     .readyTimeoutMs = config.readyTimeoutMs,
                     .confirmTimeoutMs = config.confirmTimeoutMs},
                    {config.apiKey}),
      m_config(config)
{
}

DaytonaSandbox::~DaytonaSandbox()
{
    destroy();
}

QString DaytonaSandbox::shellQuote(const QString& word)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    if (safe.match(word).hasMatch())
        return word;
    return QLatin1Char('\'') + QString(word).replace(QLatin1String("'"), QLatin1String("'\\''")) +
           QLatin1Char('\'');
}

QString DaytonaSandbox::commandLine(const SandboxCommand& command)
{
    QStringList parts;
    if (!command.cwd.isEmpty())
        parts << QStringLiteral("cd") << shellQuote(command.cwd) << QStringLiteral("&&");
    parts << QStringLiteral("exec");
    if (!command.env.isEmpty()) {
        parts << QStringLiteral("env");
        for (auto it = command.env.begin(); it != command.env.end(); ++it)
            parts << shellQuote(it.key() + QLatin1Char('=') + it.value());
    }
    for (const auto& a : command.argv)
        parts << shellQuote(a);
    return parts.join(QLatin1Char(' '));
}

HttpRequest DaytonaSandbox::apiRequest(const DaytonaConfig& config, const QByteArray& method, const QString& path,
                                       const QJsonObject* body)
{
    HttpRequest rq;
    rq.method = method;
    rq.url = QUrl(config.apiUrl + path);
    rq.headers.emplaceBack("Authorization", "Bearer " + config.apiKey.toUtf8());
    if (!config.organizationId.isEmpty())
        rq.headers.emplaceBack("X-Daytona-Organization-ID", config.organizationId.toUtf8());
    rq.headers.emplaceBack("X-Daytona-Source", "sandpad");
    if (body) {
        rq.headers.emplaceBack("Content-Type", "application/json");
        rq.body = QJsonDocument(*body).toJson(QJsonDocument::Compact);
    }
    rq.deadline = QDeadlineTimer(config.requestTimeoutMs);
    return rq;
}

HttpRequest DaytonaSandbox::toolboxRequest(const QByteArray& method, const QString& path, const QJsonObject* body) const
{
    HttpRequest rq = apiRequest(m_config, method, QString(), body);
    rq.url = QUrl(m_toolbox + path);
    return rq;
}

QString DaytonaSandbox::idOf(const QJsonObject& created) const
{
    return created.value(QLatin1String("id")).toString();
}

QString DaytonaSandbox::stateOf(const QJsonObject& description) const
{
    return description.value(QLatin1String("state")).toString();
}

QString DaytonaSandbox::failureReason(const QJsonObject& description) const
{
    return description.value(QLatin1String("errorReason")).toString();
}

HttpRequest DaytonaSandbox::describeRequest() const
{
    return apiRequest(m_config, "GET", QStringLiteral("/sandbox/") + m_id);
}

HttpRequest DaytonaSandbox::removeRequest() const
{
    return apiRequest(m_config, "DELETE", QStringLiteral("/sandbox/") + m_id);
}

HttpRequest DaytonaSandbox::readRequest(const QString& path) const
{
    HttpRequest rq = toolboxRequest("GET", QStringLiteral("/files/download"));
    rq.url = withQuery(rq.url, QStringLiteral("path"), path);
    return rq;
}

void DaytonaSandbox::start(const SandboxOptions& options, RunControl& control)
{
    const QJsonObject body{
        {QStringLiteral("labels"),
         QJsonObject{{QStringLiteral("code-toolbox-language"),
                      options.language == Language::Python ? QStringLiteral("python") : QStringLiteral("javascript")},
                     {QStringLiteral("created-by"), QStringLiteral("sandpad")}}},
        {QStringLiteral("public"), false},
        // Minutes: a safety net in case our own delete never arrives; 0 = delete as soon as stopped.
        {QStringLiteral("autoStopInterval"), std::max(1, (options.deadlineSeconds + 120 + 59) / 60)},
        {QStringLiteral("autoDeleteInterval"), 0},
        {QStringLiteral("networkBlockAll"), !options.allowNetwork},
    };
    startSandbox(apiRequest(m_config, "POST", QStringLiteral("/sandbox"), &body), options.language,
                 options.deadlineSeconds, control);
}

void DaytonaSandbox::onReady(const QJsonObject& description)
{
    QString proxy = description.value(QLatin1String("toolboxProxyUrl")).toString();
    while (proxy.endsWith(QLatin1Char('/')))
        proxy.chop(1);
    // Without a proxy URL, the deprecated API route takes the same paths.
    m_toolbox = proxy.isEmpty() ? m_config.apiUrl + QStringLiteral("/toolbox/") + m_id + QStringLiteral("/toolbox")
                                : proxy + QLatin1Char('/') + m_id;
}

std::optional<QString> DaytonaSandbox::runPackageScript(const QString& script, int deadlineSeconds)
{
    const QJsonObject body{{QStringLiteral("command"), QStringLiteral("python3 -c ") + shellQuote(script)},
                           {QStringLiteral("timeout"), deadlineSeconds}};
    HttpRequest rq = toolboxRequest("POST", QStringLiteral("/process/execute"), &body);
    rq.deadline = QDeadlineTimer(qint64(deadlineSeconds) * 1000 + 5000);
    const QJsonObject answer = parseObject(m_http.sendChecked(rq, QStringLiteral("checking the base packages")).body,
                                           QStringLiteral("process/execute"));
    if (answer.value(QLatin1String("exitCode")).toInt(-1) == 0)
        return std::nullopt;
    return answer.value(QLatin1String("result")).toString();
}

void DaytonaSandbox::writeFiles(const QList<SandboxFile>& files)
{
    for (const auto& f : files) {
        HttpRequest rq = toolboxRequest("POST", QStringLiteral("/files/upload"));
        rq.url = withQuery(rq.url, QStringLiteral("path"), f.path);
        const QByteArray content = f.content;
        const QString fileName = f.path.section(QLatin1Char('/'), -1);
        rq.multipart = [content, fileName] {
            auto* mp = new QHttpMultiPart(QHttpMultiPart::FormDataType);
            QHttpPart part;
            part.setHeader(QNetworkRequest::ContentDispositionHeader,
                           QStringLiteral("form-data; name=\"file\"; filename=\"%1\"").arg(fileName));
            part.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/octet-stream"));
            part.setBody(content);
            mp->append(part);
            return mp;
        };
        m_http.sendChecked(rq, QStringLiteral("uploading %1").arg(f.path));
    }
}

void DaytonaSandbox::deleteSession(const QString& sessionId)
{
    // Deleting the session kills its commands.
    sendCleanup(toolboxRequest("DELETE", QStringLiteral("/process/session/") + sessionId));
}

CommandOutcome DaytonaSandbox::runCommand(const SandboxCommand& command, const OutputCallback& onOutput,
                                          const QDeadlineTimer& deadline)
{
    const QString sessionId = QStringLiteral("sandpad-") + QUuid::createUuid().toString(QUuid::Id128).left(16);
    bool sessionMade = false;
    CommandOutcome outcome;

    auto stopped = [&](HttpResponse::End end) {
        if (sessionMade)
            deleteSession(sessionId);
        outcome = interrupted(end, QStringLiteral("cancelled; session deleted"),
                              QStringLiteral("timed out after %1 ms; session deleted").arg(command.timeoutMs));
        return outcome;
    };
    // Sends within the deadline; returns false when interrupted (the outcome is then set).
    auto step = [&](const HttpRequest& rq, const QString& what, HttpResponse& resp) {
        try {
            resp = m_http.send(bounded(rq, deadline));
        } catch (const ProviderError&) {
            if (sessionMade)
                deleteSession(sessionId);
            throw;
        }
        if (resp.end != HttpResponse::End::Finished) {
            stopped(resp.end);
            return false;
        }
        if (!resp.ok()) {
            if (sessionMade)
                deleteSession(sessionId);
            throw m_http.errorFor(resp, what);
        }
        return true;
    };

    HttpResponse resp;
    const QJsonObject sessionBody{{QStringLiteral("sessionId"), sessionId}};
    if (!step(toolboxRequest("POST", QStringLiteral("/process/session"), &sessionBody),
              QStringLiteral("creating a session"), resp))
        return outcome;
    sessionMade = true;
    const QJsonObject execBody{{QStringLiteral("command"), commandLine(command)}, {QStringLiteral("runAsync"), true}};
    if (!step(toolboxRequest("POST", QStringLiteral("/process/session/%1/exec").arg(sessionId), &execBody),
              QStringLiteral("starting the command"), resp))
        return outcome;
    const QString cmdId = parseObject(resp.body, QStringLiteral("exec")).value(QLatin1String("cmdId")).toString();
    if (cmdId.isEmpty()) {
        deleteSession(sessionId);
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Daytona: exec answered no cmdId"));
    }

    qsizetype outSeen = 0, errSeen = 0;
    const QString cmdPath = QStringLiteral("/process/session/%1/command/%2").arg(sessionId, cmdId);
    for (;;) {
        // Status first, then logs: once the exit code is known, the logs read after it are complete.
        if (!step(toolboxRequest("GET", cmdPath), QStringLiteral("checking the command"), resp))
            return outcome;
        const QJsonValue exit = parseObject(resp.body, QStringLiteral("command")).value(QLatin1String("exitCode"));
        HttpRequest logs = toolboxRequest("GET", cmdPath + QStringLiteral("/logs"));
        logs.headers.emplaceBack("X-Daytona-SDK-Version", m_config.sdkVersion.toUtf8());
        if (!step(logs, QStringLiteral("reading the command's output"), resp))
            return outcome;
        const QJsonObject text = parseObject(resp.body, QStringLiteral("logs"));
        const QByteArray out = text.value(QLatin1String("stdout")).toString().toUtf8();
        const QByteArray err = text.value(QLatin1String("stderr")).toString().toUtf8();
        if (onOutput && out.size() > outSeen)
            onOutput(OutputStream::Stdout, out.mid(outSeen));
        if (onOutput && err.size() > errSeen)
            onOutput(OutputStream::Stderr, err.mid(errSeen));
        outSeen = std::max(outSeen, out.size());
        errSeen = std::max(errSeen, err.size());
        if (exit.isDouble()) {
            outcome.exitCode = exit.toInt();
            return outcome;
        }
        if (deadline.hasExpired())
            return stopped(HttpResponse::End::DeadlineExpired);
        if (!m_http.sleep(std::min<qint64>(m_config.pollIntervalMs, deadline.remainingTime())))
            return stopped(HttpResponse::End::Cancelled);
    }
}

} // namespace sandpad
