#include "providers/daytona/DaytonaSandbox.h"

#include "providers/ProviderError.h"
#include "providers/RunControl.h"
#include "providers/http/RemoteCleanup.h"

#include <QHttpMultiPart>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrlQuery>
#include <QUuid>

namespace sandpad {

namespace {
QJsonObject parseObject(const QByteArray& body, const QString& what)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!doc.isObject())
        throw ProviderError(ProviderError::Kind::Protocol,
                            QStringLiteral("Daytona: %1 answered something that is not a JSON object").arg(what));
    return doc.object();
}

QUrl withQuery(QUrl url, const QString& key, const QString& value)
{
    // Fully percent-encoded ('+' and '&' too) so the path survives form decoding.
    url.setQuery(key + QLatin1Char('=') + QString::fromLatin1(QUrl::toPercentEncoding(value, "/")),
                 QUrl::StrictMode);
    return url;
}
} // namespace

DaytonaSandbox::DaytonaSandbox(const DaytonaConfig& config)
    : m_config(config), m_http(QStringLiteral("Daytona"))
{
    m_http.addSecret(config.apiKey);
}

DaytonaSandbox::~DaytonaSandbox()
{
    if (!m_id.isEmpty() && !m_cleanup)
        destroy();
}

QString DaytonaSandbox::interpreter(Language language) const
{
    return language == Language::Python ? QStringLiteral("python3") : QStringLiteral("node");
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

HttpRequest DaytonaSandbox::apiRequest(const QByteArray& method, const QString& path, const QJsonObject* body) const
{
    HttpRequest rq;
    rq.method = method;
    rq.url = QUrl(m_config.apiUrl + path);
    rq.headers.emplaceBack("Authorization", "Bearer " + m_config.apiKey.toUtf8());
    if (!m_config.organizationId.isEmpty())
        rq.headers.emplaceBack("X-Daytona-Organization-ID", m_config.organizationId.toUtf8());
    rq.headers.emplaceBack("X-Daytona-Source", "sandpad");
    if (body) {
        rq.headers.emplaceBack("Content-Type", "application/json");
        rq.body = QJsonDocument(*body).toJson(QJsonDocument::Compact);
    }
    rq.deadline = QDeadlineTimer(m_config.requestTimeoutMs);
    return rq;
}

HttpRequest DaytonaSandbox::toolboxRequest(const QByteArray& method, const QString& path, const QJsonObject* body) const
{
    HttpRequest rq = apiRequest(method, QString(), body);
    rq.url = QUrl(m_toolbox + path);
    return rq;
}

void DaytonaSandbox::start(const SandboxOptions& options, RunControl& control)
{
    m_http.setControl(&control);
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
    QJsonObject sandbox = parseObject(
        m_http.sendChecked(apiRequest("POST", QStringLiteral("/sandbox"), &body), QStringLiteral("creating a sandbox")).body,
        QStringLiteral("create"));
    m_id = sandbox.value(QLatin1String("id")).toString();
    if (m_id.isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Daytona: create answered no sandbox id"));
    try {
        QDeadlineTimer ready(m_config.readyTimeoutMs);
        qint64 pause = 100;
        QString state = sandbox.value(QLatin1String("state")).toString();
        while (state != QLatin1String("started")) {
            if (state == QLatin1String("error") || state == QLatin1String("build_failed") ||
                state == QLatin1String("destroyed") || state == QLatin1String("destroying"))
                throw ProviderError(ProviderError::Kind::Unavailable,
                                    m_http.redact(QStringLiteral("Daytona: the sandbox did not start (state %1%2)")
                                                      .arg(state, sandbox.value(QLatin1String("errorReason")).toString().isEmpty()
                                                                      ? QString()
                                                                      : QStringLiteral(": ") + sandbox.value(QLatin1String("errorReason")).toString())));
            if (ready.hasExpired())
                throw ProviderError(ProviderError::Kind::Unavailable,
                                    QStringLiteral("Daytona: the sandbox was not started after %1 s (state %2)")
                                        .arg(m_config.readyTimeoutMs / 1000).arg(state));
            if (!m_http.sleep(pause))
                throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Daytona: cancelled while starting"));
            pause = std::min<qint64>(pause * 2, 1000);
            sandbox = parseObject(m_http.sendChecked(apiRequest("GET", QStringLiteral("/sandbox/") + m_id),
                                                     QStringLiteral("checking the sandbox")).body,
                                  QStringLiteral("get sandbox"));
            state = sandbox.value(QLatin1String("state")).toString();
        }
        QString proxy = sandbox.value(QLatin1String("toolboxProxyUrl")).toString();
        while (proxy.endsWith(QLatin1Char('/')))
            proxy.chop(1);
        // Without a proxy URL, the deprecated API route takes the same paths.
        m_toolbox = proxy.isEmpty() ? m_config.apiUrl + QStringLiteral("/toolbox/") + m_id + QStringLiteral("/toolbox")
                                    : proxy + QLatin1Char('/') + m_id;
        if (options.language == Language::Python && !m_config.basePackages.isEmpty())
            ensureBasePackages(options.deadlineSeconds);
    } catch (...) {
        destroy();
        throw;
    }
}

void DaytonaSandbox::ensureBasePackages(int deadlineSeconds)
{
    QStringList quoted;
    for (const auto& p : m_config.basePackages)
        quoted << QStringLiteral("'%1'").arg(QString(p).remove(QLatin1Char('\'')));
    const QString script = QStringLiteral(
        "import importlib.util,subprocess,sys\n"
        "m=[p for p in [%1] if importlib.util.find_spec(p) is None]\n"
        "sys.exit(subprocess.call([sys.executable,'-m','pip','install','-q','--disable-pip-version-check',"
        "'--retries','1','--timeout','15',*m]) if m else 0)\n").arg(quoted.join(QLatin1Char(',')));
    const QJsonObject body{{QStringLiteral("command"), QStringLiteral("python3 -c ") + shellQuote(script)},
                           {QStringLiteral("timeout"), deadlineSeconds}};
    HttpRequest rq = toolboxRequest("POST", QStringLiteral("/process/execute"), &body);
    rq.deadline = QDeadlineTimer(qint64(deadlineSeconds) * 1000 + 5000);
    const QJsonObject answer = parseObject(m_http.sendChecked(rq, QStringLiteral("checking the base packages")).body,
                                           QStringLiteral("process/execute"));
    if (answer.value(QLatin1String("exitCode")).toInt(-1) == 0)
        return;
    m_packageNote = QStringLiteral("sandpad: some base packages (%1) are missing in the Daytona sandbox and "
                                   "could not be installed: %2\n")
                        .arg(m_config.basePackages.join(QLatin1String(", ")),
                             answer.value(QLatin1String("result")).toString().trimmed().split(QLatin1Char('\n')).last());
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
    // Deleting the session kills its commands. Cleanup: not cancellable, errors ignored.
    RunControl* control = m_http.control();
    m_http.setControl(nullptr);
    try {
        HttpRequest rq = toolboxRequest("DELETE", QStringLiteral("/process/session/") + sessionId);
        rq.deadline = QDeadlineTimer(10000);
        m_http.send(rq);
    } catch (const ProviderError&) {
    }
    m_http.setControl(control);
}

CommandOutcome DaytonaSandbox::run(const SandboxCommand& command, const OutputCallback& onOutput,
                                   RunControl& control)
{
    if (command.argv.isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Daytona: empty command"));
    m_http.setControl(&control);
    const QDeadlineTimer deadline(command.timeoutMs);
    CommandOutcome outcome;
    if (!m_packageNote.isEmpty() && !m_noteShown && onOutput) {
        m_noteShown = true;
        onOutput(OutputStream::Stderr, m_packageNote.toUtf8());
    }
    const QString sessionId = QStringLiteral("sandpad-") + QUuid::createUuid().toString(QUuid::Id128).left(16);
    bool sessionMade = false;

    auto bounded = [&](HttpRequest rq) {
        if (deadline.remainingTime() < rq.deadline.remainingTime())
            rq.deadline = deadline;
        return rq;
    };
    auto interrupted = [&](HttpResponse::End end) {
        if (sessionMade)
            deleteSession(sessionId);
        if (end == HttpResponse::End::Cancelled) {
            outcome.cancelled = true;
            outcome.detail = QStringLiteral("cancelled; session deleted");
        } else {
            outcome.timedOut = true;
            outcome.detail = QStringLiteral("timed out after %1 ms; session deleted").arg(command.timeoutMs);
        }
        return outcome;
    };
    // Sends within the deadline; returns false when interrupted (the outcome is then set).
    auto step = [&](const HttpRequest& rq, const QString& what, HttpResponse& resp) {
        try {
            resp = m_http.send(bounded(rq));
        } catch (const ProviderError&) {
            if (sessionMade)
                deleteSession(sessionId);
            throw;
        }
        if (resp.end != HttpResponse::End::Finished) {
            interrupted(resp.end);
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
            return interrupted(HttpResponse::End::DeadlineExpired);
        if (!m_http.sleep(std::min<qint64>(m_config.pollIntervalMs, deadline.remainingTime())))
            return interrupted(HttpResponse::End::Cancelled);
    }
}

std::optional<QByteArray> DaytonaSandbox::readFile(const QString& path)
{
    HttpRequest rq = toolboxRequest("GET", QStringLiteral("/files/download"));
    rq.url = withQuery(rq.url, QStringLiteral("path"), path);
    const HttpResponse resp = m_http.send(rq);
    if (resp.end == HttpResponse::End::Cancelled)
        throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Daytona: reading %1 cancelled").arg(path));
    if (resp.end == HttpResponse::End::DeadlineExpired)
        throw ProviderError(ProviderError::Kind::Unavailable, QStringLiteral("Daytona: reading %1 timed out").arg(path));
    if (resp.status == 404)
        return std::nullopt;
    if (!resp.ok())
        throw m_http.errorFor(resp, QStringLiteral("reading %1").arg(path));
    return resp.body;
}

CleanupReport DaytonaSandbox::destroy()
{
    if (m_cleanup)
        return *m_cleanup;
    CleanupReport report;
    if (m_id.isEmpty()) {
        report.confirmed = true;
        report.detail = QStringLiteral("no sandbox was created");
        m_cleanup = report;
        return report;
    }
    m_http.setControl(nullptr); // cleanup is never cancelled
    try {
        const HttpResponse del = m_http.send(apiRequest("DELETE", QStringLiteral("/sandbox/") + m_id));
        QString problem;
        if (!del.ok() && del.status != 404)
            problem = m_http.errorFor(del, QStringLiteral("deleting the sandbox")).message();
        RemoteCleanup cleanup;
        cleanup.sandboxId = m_id;
        cleanup.action = QStringLiteral("Daytona: deletion");
        cleanup.timeoutMs = m_config.confirmTimeoutMs;
        cleanup.requestTimeoutMs = m_config.requestTimeoutMs;
        cleanup.goneStates = {QStringLiteral("destroyed")};
        cleanup.makeGet = [this] { return apiRequest("GET", QStringLiteral("/sandbox/") + m_id); };
        cleanup.stateOf = [](const QJsonObject& o) { return o.value(QLatin1String("state")).toString(); };
        report = cleanup.confirm(m_http, problem);
    } catch (const std::exception& e) {
        report.confirmed = false;
        report.detail = m_http.redact(QStringLiteral("Daytona: deleting sandbox %1 failed: %2")
                                          .arg(m_id, QString::fromUtf8(e.what())));
    }
    m_cleanup = report;
    return report;
}

} // namespace sandpad
