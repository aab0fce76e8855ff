#include "providers/vercel/VercelSandbox.h"

#include "providers/ProviderError.h"
#include "providers/RunControl.h"
#include "providers/http/RemoteCleanup.h"
#include "providers/http/TarGzWriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>

namespace sandpad {

namespace {
QJsonObject parseObject(const QByteArray& body, const QString& what)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!doc.isObject())
        throw ProviderError(ProviderError::Kind::Protocol,
                            QStringLiteral("Vercel: %1 answered something that is not a JSON object").arg(what));
    return doc.object();
}

QString sandboxStatus(const QJsonObject& answer)
{
    return answer.value(QLatin1String("sandbox")).toObject().value(QLatin1String("status")).toString();
}
} // namespace

VercelSandbox::VercelSandbox(const VercelConfig& config, Language language)
    : m_config(config), m_language(language), m_teamId(config.effectiveTeamId()),
      m_http(QStringLiteral("Vercel"))
{
    m_http.addSecret(config.token);
    m_http.addSecret(config.oidcToken);
}

VercelSandbox::~VercelSandbox()
{
    if (!m_id.isEmpty() && !m_cleanup)
        destroy();
}

QString VercelSandbox::interpreter(Language language) const
{
    return language == Language::Python ? QStringLiteral("python3") : QStringLiteral("node");
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

void VercelSandbox::start(int deadlineSeconds, RunControl& control)
{
    m_http.setControl(&control);
    const QJsonObject body{
        {QStringLiteral("projectId"), m_config.effectiveProjectId()},
        {QStringLiteral("runtime"),
         m_language == Language::Python ? m_config.pythonRuntime : m_config.nodeRuntime},
        {QStringLiteral("resources"), QJsonObject{{QStringLiteral("vcpus"), m_config.vcpus}}},
        // A little above the run's deadline, plus room for the package check: the service
        // stops the VM by itself even if we never get to.
        {QStringLiteral("timeout"), qint64(deadlineSeconds + 120) * 1000},
    };
    const HttpResponse created =
        m_http.sendChecked(request("POST", QStringLiteral("/v1/sandboxes"), &body), QStringLiteral("creating a sandbox"));
    QJsonObject answer = parseObject(created.body, QStringLiteral("create"));
    m_id = answer.value(QLatin1String("sandbox")).toObject().value(QLatin1String("id")).toString();
    if (m_id.isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Vercel: create answered no sandbox id"));

    try {
        QDeadlineTimer ready(m_config.readyTimeoutMs);
        qint64 pause = 100;
        QString status = sandboxStatus(answer);
        while (status != QLatin1String("running")) {
            if (status == QLatin1String("failed") || status == QLatin1String("stopped") ||
                status == QLatin1String("stopping"))
                throw ProviderError(ProviderError::Kind::Unavailable,
                                    QStringLiteral("Vercel: the sandbox did not start (status %1)").arg(status));
            if (ready.hasExpired())
                throw ProviderError(ProviderError::Kind::Unavailable,
                                    QStringLiteral("Vercel: the sandbox was not running after %1 s (status %2)")
                                        .arg(m_config.readyTimeoutMs / 1000).arg(status));
            if (!m_http.sleep(pause))
                throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Vercel: cancelled while starting"));
            pause = std::min<qint64>(pause * 2, 1000);
            answer = parseObject(m_http.sendChecked(request("GET", QStringLiteral("/v1/sandboxes/") + m_id),
                                                    QStringLiteral("checking the sandbox")).body,
                                 QStringLiteral("get sandbox"));
            status = sandboxStatus(answer);
        }
        if (m_language == Language::Python && !m_config.basePackages.isEmpty())
            ensureBasePackages(deadlineSeconds);
    } catch (...) {
        destroy();
        throw;
    }
}

void VercelSandbox::ensureBasePackages(int deadlineSeconds)
{
    // One command checks (without importing) and installs only what is missing; the log is read
    // only when it failed, so a complete runtime costs two requests.
    QStringList quoted;
    for (const auto& p : m_config.basePackages)
        quoted << QStringLiteral("'%1'").arg(QString(p).remove(QLatin1Char('\'')));
    const QString script = QStringLiteral(
        "import importlib.util,subprocess,sys\n"
        "m=[p for p in [%1] if importlib.util.find_spec(p) is None]\n"
        "sys.exit(subprocess.call([sys.executable,'-m','pip','install','-q','--disable-pip-version-check',"
        "'--retries','1','--timeout','15',*m]) if m else 0)\n").arg(quoted.join(QLatin1Char(',')));
    SandboxCommand cmd;
    cmd.argv = {interpreter(Language::Python), QStringLiteral("-c"), script};
    cmd.timeoutMs = qint64(deadlineSeconds) * 1000;
    const QJsonObject body{{QStringLiteral("command"), cmd.argv[0]},
                           {QStringLiteral("args"), QJsonArray::fromStringList(cmd.argv.mid(1))},
                           {QStringLiteral("env"), QJsonObject{}},
                           {QStringLiteral("sudo"), false}};
    const QJsonObject started = parseObject(
        m_http.sendChecked(request("POST", QStringLiteral("/v1/sandboxes/%1/cmd").arg(m_id), &body),
                           QStringLiteral("checking the base packages")).body,
        QStringLiteral("cmd"));
    const QString cmdId = started.value(QLatin1String("command")).toObject().value(QLatin1String("id")).toString();
    HttpRequest wait = request("GET", QStringLiteral("/v1/sandboxes/%1/cmd/%2").arg(m_id, cmdId), nullptr, cmd.timeoutMs);
    wait.url = url(QStringLiteral("/v1/sandboxes/%1/cmd/%2").arg(m_id, cmdId), {{QStringLiteral("wait"), QStringLiteral("true")}});
    const HttpResponse done = m_http.sendChecked(wait, QStringLiteral("installing the base packages"));
    const QJsonValue exit = parseObject(done.body, QStringLiteral("cmd wait"))
                                .value(QLatin1String("command")).toObject().value(QLatin1String("exitCode"));
    if (exit.isDouble() && exit.toInt() == 0)
        return;
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
    m_packageNote = QStringLiteral("sandpad: some base packages (%1) are missing in the Vercel runtime and "
                                   "could not be installed: %2\n")
                        .arg(m_config.basePackages.join(QLatin1String(", ")),
                             stderrText.trimmed().split(QLatin1Char('\n')).last());
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
    // Cleanup work: not cancellable, short, errors ignored (destroy() stops the VM anyway).
    RunControl* control = m_http.control();
    m_http.setControl(nullptr);
    try {
        const QJsonObject body{{QStringLiteral("signal"), 9}};
        m_http.send(request("POST", QStringLiteral("/v1/sandboxes/%1/%2/kill").arg(m_id, cmdId), &body, 10000));
    } catch (const ProviderError&) {
    }
    m_http.setControl(control);
}

CommandOutcome VercelSandbox::run(const SandboxCommand& command, const OutputCallback& onOutput,
                                  RunControl& control)
{
    if (command.argv.isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Vercel: empty command"));
    m_http.setControl(&control);
    const QDeadlineTimer deadline(command.timeoutMs);
    CommandOutcome outcome;
    if (!m_packageNote.isEmpty() && !m_noteShown && onOutput) {
        m_noteShown = true;
        onOutput(OutputStream::Stderr, m_packageNote.toUtf8());
    }

    QJsonObject env;
    for (auto it = command.env.begin(); it != command.env.end(); ++it)
        env.insert(it.key(), it.value());
    QJsonObject body{{QStringLiteral("command"), command.argv[0]},
                     {QStringLiteral("args"), QJsonArray::fromStringList(command.argv.mid(1))},
                     {QStringLiteral("env"), env},
                     {QStringLiteral("sudo"), false}};
    if (!command.cwd.isEmpty())
        body.insert(QStringLiteral("cwd"), command.cwd);
    HttpRequest post = request("POST", QStringLiteral("/v1/sandboxes/%1/cmd").arg(m_id), &body);
    if (deadline.remainingTime() < post.deadline.remainingTime())
        post.deadline = deadline;
    const HttpResponse started = m_http.send(post);
    if (started.end == HttpResponse::End::Cancelled) {
        outcome.cancelled = true;
        outcome.detail = QStringLiteral("cancelled before the command started");
        return outcome;
    }
    if (started.end == HttpResponse::End::DeadlineExpired) {
        outcome.timedOut = true;
        outcome.detail = QStringLiteral("timed out before the command started");
        return outcome;
    }
    if (!started.ok())
        throw m_http.errorFor(started, QStringLiteral("starting the command"));
    const QString cmdId = parseObject(started.body, QStringLiteral("cmd"))
                              .value(QLatin1String("command")).toObject().value(QLatin1String("id")).toString();
    if (cmdId.isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Vercel: the command answer has no id"));

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
    auto interrupted = [&](HttpResponse::End end) {
        kill(cmdId);
        if (end == HttpResponse::End::Cancelled) {
            outcome.cancelled = true;
            outcome.detail = QStringLiteral("cancelled; command killed");
        } else {
            outcome.timedOut = true;
            outcome.detail = QStringLiteral("timed out after %1 ms; command killed").arg(command.timeoutMs);
        }
        return outcome;
    };
    if (streamed.end != HttpResponse::End::Finished)
        return interrupted(streamed.end);
    if (!streamed.ok())
        throw m_http.errorFor(streamed, QStringLiteral("reading the command's output"));
    if (!streamError.isEmpty()) {
        kill(cmdId);
        throw ProviderError(ProviderError::Kind::Unavailable,
                            m_http.redact(QStringLiteral("Vercel: the log stream reported an error: %1").arg(streamError)));
    }

    HttpRequest wait = request("GET", QString());
    wait.url = url(QStringLiteral("/v1/sandboxes/%1/cmd/%2").arg(m_id, cmdId), {{QStringLiteral("wait"), QStringLiteral("true")}});
    wait.deadline = deadline;
    const HttpResponse done = m_http.send(wait);
    if (done.end != HttpResponse::End::Finished)
        return interrupted(done.end);
    if (!done.ok())
        throw m_http.errorFor(done, QStringLiteral("waiting for the command"));
    const QJsonValue exit = parseObject(done.body, QStringLiteral("cmd wait"))
                                .value(QLatin1String("command")).toObject().value(QLatin1String("exitCode"));
    if (!exit.isDouble())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Vercel: the finished command has no exit code"));
    outcome.exitCode = exit.toInt();
    return outcome;
}

std::optional<QByteArray> VercelSandbox::readFile(const QString& path)
{
    const QJsonObject body{{QStringLiteral("path"), path}};
    const HttpResponse resp = m_http.send(request("POST", QStringLiteral("/v1/sandboxes/%1/fs/read").arg(m_id), &body));
    if (resp.end == HttpResponse::End::Cancelled)
        throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Vercel: reading %1 cancelled").arg(path));
    if (resp.end == HttpResponse::End::DeadlineExpired)
        throw ProviderError(ProviderError::Kind::Unavailable, QStringLiteral("Vercel: reading %1 timed out").arg(path));
    if (resp.status == 404)
        return std::nullopt;
    if (!resp.ok())
        throw m_http.errorFor(resp, QStringLiteral("reading %1").arg(path));
    return resp.body;
}

CleanupReport VercelSandbox::destroy()
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
        const HttpResponse stop = m_http.send(request("POST", QStringLiteral("/v1/sandboxes/%1/stop").arg(m_id)));
        // 410: already stopped; anything else failing is reported, but the state check decides.
        QString problem;
        if (!stop.ok() && stop.status != 410)
            problem = m_http.errorFor(stop, QStringLiteral("stopping the sandbox")).message();
        RemoteCleanup cleanup;
        cleanup.sandboxId = m_id;
        cleanup.action = QStringLiteral("Vercel: stop");
        cleanup.timeoutMs = m_config.confirmTimeoutMs;
        cleanup.requestTimeoutMs = m_config.requestTimeoutMs;
        cleanup.goneStates = {QStringLiteral("stopped"), QStringLiteral("failed")};
        cleanup.makeGet = [this] { return request("GET", QStringLiteral("/v1/sandboxes/") + m_id); };
        cleanup.stateOf = [](const QJsonObject& o) { return sandboxStatus(o); };
        report = cleanup.confirm(m_http, problem);
    } catch (const std::exception& e) {
        report.confirmed = false;
        report.detail = m_http.redact(QStringLiteral("Vercel: stopping sandbox %1 failed: %2")
                                          .arg(m_id, QString::fromUtf8(e.what())));
    }
    m_cleanup = report;
    return report;
}

} // namespace sandpad
