#include "core/providers/daytona/DaytonaSandbox.h"

#include "core/providers/http/Multipart.h"
#include "core/providers/http/RemoteProvider.h"
#include "core/sandbox/ProviderError.h"

#include <QHttpMultiPart>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUuid>

namespace sandpad {

DaytonaSandbox::DaytonaSandbox(const DaytonaConfig& config)
    : RemoteSandbox({.name = QStringLiteral("Daytona"),
                     .workDir = QStringLiteral("/tmp/sandpad"),
                     .stateWord = QStringLiteral("state"),
                     .readyState = QStringLiteral("started"),
                     // A new sandbox does not leave these by itself (the API's SandboxState); the
                     // others (creating, starting, pending_build, building_snapshot,
                     // pulling_snapshot, restoring, resuming, unknown, ...) are waited out.
                     .failedStates = {QStringLiteral("error"), QStringLiteral("build_failed"),
                                      QStringLiteral("destroyed"), QStringLiteral("destroying"),
                                      QStringLiteral("stopping"), QStringLiteral("stopped"),
                                      QStringLiteral("archiving"), QStringLiteral("archived"),
                                      QStringLiteral("pausing"), QStringLiteral("paused")},
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
    if (!command.env.isEmpty()) {
        parts << QStringLiteral("env");
        for (auto it = command.env.begin(); it != command.env.end(); ++it)
            parts << shellQuote(it.key() + QLatin1Char('=') + it.value());
    }
    for (const auto& a : command.argv)
        parts << shellQuote(a);
    return QStringLiteral("(%1) < /dev/null").arg(parts.join(QLatin1Char(' ')));
}

HttpRequest DaytonaSandbox::apiRequest(const DaytonaConfig& config, const QByteArray& method, const QString& path,
                                       HttpRequest::Retry retry, const QJsonObject* body)
{
    HttpRequest rq;
    rq.method = method;
    rq.retry = retry;
    rq.url = QUrl(config.apiUrl + path);
    // The SDK's headers on every API and toolbox call. No X-Daytona-Organization-ID: the SDK sends
    // it only with JWT auth; with an API key the service uses the key's own organization.
    rq.headers.emplaceBack("Authorization", "Bearer " + config.apiKey.toUtf8());
    rq.headers.emplaceBack("X-Daytona-Source", "sandpad");
    rq.headers.emplaceBack("X-Daytona-SDK-Version", config.sdkVersion.toUtf8());
    if (body) {
        rq.headers.emplaceBack("Content-Type", "application/json");
        rq.body = QJsonDocument(*body).toJson(QJsonDocument::Compact);
    }
    rq.deadline = QDeadlineTimer(config.requestTimeoutMs);
    return rq;
}

HttpRequest DaytonaSandbox::listRequest(const DaytonaConfig& config, const QJsonObject& labels, const QString& cursor,
                                        int limit)
{
    HttpRequest rq = apiRequest(config, "GET", QStringLiteral("/sandbox"), HttpRequest::Retry::Idempotent);
    // The SDK's list(): labels as a JSON object in one query parameter.
    QByteArray query;
    if (!cursor.isEmpty())
        query += "cursor=" + QUrl::toPercentEncoding(cursor) + '&';
    query += "limit=" + QByteArray::number(limit) + "&labels=" +
             QUrl::toPercentEncoding(QString::fromUtf8(QJsonDocument(labels).toJson(QJsonDocument::Compact)));
    rq.url.setQuery(QString::fromLatin1(query), QUrl::StrictMode);
    return rq;
}

HttpRequest DaytonaSandbox::toolboxRequest(const QByteArray& method, const QString& path, HttpRequest::Retry retry,
                                           const QJsonObject* body) const
{
    HttpRequest rq = apiRequest(m_config, method, QString(), retry, body);
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
    return apiRequest(m_config, "GET", QStringLiteral("/sandbox/") + m_id, HttpRequest::Retry::Idempotent);
}

HttpRequest DaytonaSandbox::removeRequest() const
{
    return apiRequest(m_config, "DELETE", QStringLiteral("/sandbox/") + m_id, HttpRequest::Retry::Idempotent);
}

HttpRequest DaytonaSandbox::readRequest(const QString& path) const
{
    // The SDK's downloadFile: one path through bulk-download (reading twice is harmless).
    const QJsonObject body{{QStringLiteral("paths"), QJsonArray{path}}};
    return toolboxRequest("POST", QStringLiteral("/files/bulk-download"), HttpRequest::Retry::Idempotent, &body);
}

std::optional<QByteArray> DaytonaSandbox::fileIn(const HttpResponse& answer, const QString& path) const
{
    const auto parts = Multipart::parse(answer.header("Content-Type"), answer.body);
    if (!parts)
        throw ProviderError(ProviderError::Kind::Protocol,
                            QStringLiteral("Daytona: reading %1 answered something that is not multipart/form-data")
                                .arg(path));
    for (const auto& part : *parts) {
        if (QString::fromUtf8(part.filename) != path)
            continue;
        if (part.name == "file")
            return part.body;
        if (part.name == "error") {
            // {message, statusCode, code}: FILE_NOT_FOUND / 404 is "no such file".
            const QJsonObject error = QJsonDocument::fromJson(part.body).object();
            if (error.value(QLatin1String("statusCode")).toInt() == 404 ||
                error.value(QLatin1String("code")).toString() == QLatin1String("FILE_NOT_FOUND"))
                return std::nullopt;
            const QString message = error.isEmpty() ? QString::fromUtf8(part.body.left(200))
                                                    : error.value(QLatin1String("message")).toString();
            throw ProviderError(ProviderError::Kind::Io,
                                m_http.redact(QStringLiteral("Daytona: reading %1 failed: %2").arg(path, message)));
        }
    }
    throw ProviderError(ProviderError::Kind::Protocol,
                        QStringLiteral("Daytona: reading %1 answered no part for it").arg(path));
}

std::optional<HttpResponse> DaytonaSandbox::findCreated(const QString& runId)
{
    const HttpResponse found = m_http.sendChecked(
        listRequest(m_config, QJsonObject{{QLatin1String(RemoteProvider::kRunLabel), runId}}, QString(), 10),
        QStringLiteral("looking for the sandbox a failed create may have made"));
    const QJsonArray items = parseObject(found.body, QStringLiteral("list")).value(QLatin1String("items")).toArray();
    if (items.isEmpty())
        return std::nullopt; // nothing was made: creating again is safe
    HttpResponse made;
    made.status = 200;
    made.body = QJsonDocument(items.first().toObject()).toJson(QJsonDocument::Compact);
    return made;
}

void DaytonaSandbox::start(const SandboxOptions& options, RunControl& control)
{
    // The run label finds this sandbox again: after a create answered 5xx (findCreated), and for
    // the orphan reconciler if this process dies before deleting it.
    const QString runId = options.runId.isEmpty() ? QUuid::createUuid().toString(QUuid::WithoutBraces) : options.runId;
    const QJsonObject body{
        {QStringLiteral("labels"),
         QJsonObject{{QStringLiteral("code-toolbox-language"),
                      options.language == Language::Python ? QStringLiteral("python") : QStringLiteral("javascript")},
                     {QLatin1String(RemoteProvider::kAppLabel), QLatin1String(RemoteProvider::kAppLabelValue)},
                     {QLatin1String(RemoteProvider::kRunLabel), runId}}},
        {QStringLiteral("env"), QJsonObject{}},
        {QStringLiteral("public"), false},
        {QStringLiteral("memory"), DaytonaConfig::memoryGiB(options.memoryLimitMb)},
        // Minutes: a safety net in case our own delete never arrives; 0 = delete as soon as stopped.
        {QStringLiteral("autoStopInterval"), m_autoStopMinutes = std::max(1, (options.deadlineSeconds + 120 + 59) / 60)},
        {QStringLiteral("autoDeleteInterval"), 0},
        {QStringLiteral("networkBlockAll"), !options.allowNetwork},
    };
    HttpRequest create =
        apiRequest(m_config, "POST", QStringLiteral("/sandbox"), HttpRequest::Retry::NotIdempotent, &body);
    create.recover = [this, runId] { return findCreated(runId); };
    startSandbox(create, options.language, options.deadlineSeconds, control);
}

void DaytonaSandbox::onReady(const QJsonObject& description)
{
    QString proxy = description.value(QLatin1String("toolboxProxyUrl")).toString();
    if (proxy.isEmpty()) {
        // The SDK's ensureToolboxProxyUrl: the sandbox's own route for it.
        const HttpResponse resp = m_http.sendChecked(
            apiRequest(m_config, "GET", QStringLiteral("/sandbox/%1/toolbox-proxy-url").arg(m_id),
                       HttpRequest::Retry::Idempotent),
            QStringLiteral("finding the toolbox"));
        proxy = parseObject(resp.body, QStringLiteral("toolbox-proxy-url")).value(QLatin1String("url")).toString();
        if (proxy.isEmpty())
            throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Daytona: no toolbox URL for the sandbox"));
    }
    while (proxy.endsWith(QLatin1Char('/')))
        proxy.chop(1);
    m_toolbox = proxy + QLatin1Char('/') + m_id;
}

std::optional<QString> DaytonaSandbox::runPackageScript(const QString& script, int deadlineSeconds)
{
    const QJsonObject body{{QStringLiteral("command"), QStringLiteral("python3 -c ") + shellQuote(script)},
                           {QStringLiteral("timeout"), deadlineSeconds}};
    HttpRequest rq = toolboxRequest("POST", QStringLiteral("/process/execute"), HttpRequest::Retry::NotIdempotent, &body);
    rq.deadline = QDeadlineTimer(qint64(deadlineSeconds) * 1000 + 5000);
    const QJsonObject answer = parseObject(m_http.sendChecked(rq, QStringLiteral("checking the base packages")).body,
                                           QStringLiteral("process/execute"));
    if (answer.value(QLatin1String("exitCode")).toInt(-1) == 0)
        return std::nullopt;
    return answer.value(QLatin1String("result")).toString();
}

void DaytonaSandbox::writeFiles(const QList<SandboxFile>& files)
{
    if (files.isEmpty())
        return;
    // One bulk-upload, as the SDK's uploadFiles: files[i].path then files[i].file per file.
    // Uploading the same files again is harmless, so it may be retried.
    QList<MultipartPart> parts;
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QByteArray field = "files[" + QByteArray::number(i) + "]";
        parts.append({field + ".path", {}, {}, files[i].path.toUtf8()});
        parts.append({field + ".file", files[i].path.section(QLatin1Char('/'), -1).toUtf8(), {}, files[i].content});
    }
    HttpRequest rq = toolboxRequest("POST", QStringLiteral("/files/bulk-upload"), HttpRequest::Retry::Idempotent);
    rq.multipart = [parts] { return Multipart::form(parts); };
    m_http.sendChecked(rq, files.size() == 1 ? QStringLiteral("uploading %1").arg(files.first().path)
                                             : QStringLiteral("uploading %1 files").arg(files.size()));
}

void DaytonaSandbox::startDetached(const SandboxCommand& command)
{
    // Its own session, never deleted before the sandbox: deleting a session kills its commands.
    const QString sessionId = QStringLiteral("sandpad-host-") + QUuid::createUuid().toString(QUuid::Id128).left(16);
    const QJsonObject sessionBody{{QStringLiteral("sessionId"), sessionId}};
    m_http.sendChecked(toolboxRequest("POST", QStringLiteral("/process/session"), HttpRequest::Retry::NotIdempotent, &sessionBody),
                       QStringLiteral("creating the session's interpreter session"));
    const QJsonObject execBody{{QStringLiteral("command"), commandLine(command)}, {QStringLiteral("runAsync"), true}};
    const HttpResponse resp = m_http.sendChecked(
        toolboxRequest("POST", QStringLiteral("/process/session/%1/exec").arg(sessionId), HttpRequest::Retry::NotIdempotent, &execBody),
        QStringLiteral("starting the session's interpreter"));
    if (parseObject(resp.body, QStringLiteral("exec")).value(QLatin1String("cmdId")).toString().isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Daytona: exec answered no cmdId"));
}

void DaytonaSandbox::keepAlive(qint64 ms)
{
    // Daytona stops a sandbox idle (no event) for its auto-stop interval: the interval is raised to
    // cover `ms` (the SDK's setAutostopInterval), and activity refreshed (refreshActivity) when our
    // last refresh is over a minute old.
    const int minutes = int(std::max<qint64>(1, (ms + 59999) / 60000));
    auto checked = [this](const HttpRequest& rq, const QString& what) {
        const HttpResponse resp = m_http.send(rq);
        if (resp.end == HttpResponse::End::Cancelled)
            throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Daytona: cancelled while %1").arg(what));
        if (!resp.ok())
            throw m_http.errorFor(resp, what);
    };
    if (minutes > m_autoStopMinutes) {
        HttpRequest rq = apiRequest(m_config, "POST", QStringLiteral("/sandbox/%1/autostop/%2").arg(m_id).arg(minutes),
                                    HttpRequest::Retry::Idempotent);
        rq.headers.emplaceBack("Content-Type", "application/x-www-form-urlencoded"); // the SDK's (axios) for no body
        checked(rq, QStringLiteral("setting the auto-stop interval"));
        m_autoStopMinutes = minutes;
    }
    if (!m_activity.isValid() || m_activity.elapsed() > 60000) {
        const QJsonObject none; // the SDK sends an empty JSON object
        checked(apiRequest(m_config, "POST", QStringLiteral("/sandbox/%1/last-activity").arg(m_id), HttpRequest::Retry::Idempotent, &none),
                QStringLiteral("refreshing the sandbox's activity"));
        m_activity.start();
    }
}

bool DaytonaSandbox::startFromAnyThread(const SandboxCommand& command) const
{
    if (m_toolbox.isEmpty())
        return false;
    HttpClient http(QStringLiteral("Daytona"));
    for (const auto& secret : m_secrets)
        http.addSecret(secret);
    // process/execute of a short relay: it answers once the relay has said its word.
    QStringList words;
    for (const auto& a : command.argv)
        words << shellQuote(a);
    const QJsonObject body{{QStringLiteral("command"), words.join(QLatin1Char(' '))}, {QStringLiteral("timeout"), 10}};
    HttpRequest rq = toolboxRequest("POST", QStringLiteral("/process/execute"), HttpRequest::Retry::Never, &body);
    rq.deadline = QDeadlineTimer(15000);
    try {
        return http.send(rq).ok();
    } catch (const ProviderError&) {
        return false;
    }
}

void DaytonaSandbox::deleteSession(const QString& sessionId)
{
    // Deleting the session kills its commands.
    sendCleanup(toolboxRequest("DELETE", QStringLiteral("/process/session/") + sessionId, HttpRequest::Retry::Idempotent));
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
    if (!step(toolboxRequest("POST", QStringLiteral("/process/session"), HttpRequest::Retry::NotIdempotent, &sessionBody),
              QStringLiteral("creating a session"), resp))
        return outcome;
    sessionMade = true;
    const QJsonObject execBody{{QStringLiteral("command"), commandLine(command)}, {QStringLiteral("runAsync"), true}};
    if (!step(toolboxRequest("POST", QStringLiteral("/process/session/%1/exec").arg(sessionId),
                             HttpRequest::Retry::NotIdempotent, &execBody),
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
        if (!step(toolboxRequest("GET", cmdPath, HttpRequest::Retry::Idempotent), QStringLiteral("checking the command"), resp))
            return outcome;
        const QJsonValue exit = parseObject(resp.body, QStringLiteral("command")).value(QLatin1String("exitCode"));
        if (!step(toolboxRequest("GET", cmdPath + QStringLiteral("/logs"), HttpRequest::Retry::Idempotent),
                  QStringLiteral("reading the command's output"), resp))
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
            deleteSession(sessionId); // the SDK's lifecycle ends every session it made
            return outcome;
        }
        if (deadline.hasExpired())
            return stopped(HttpResponse::End::DeadlineExpired);
        if (!m_http.sleep(std::min<qint64>(m_config.pollIntervalMs, deadline.remainingTime())))
            return stopped(HttpResponse::End::Cancelled);
    }
}

} // namespace sandpad
