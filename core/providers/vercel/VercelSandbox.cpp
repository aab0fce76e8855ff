#include "core/providers/vercel/VercelSandbox.h"

#include "core/providers/http/TarGzWriter.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>

#include <algorithm>

namespace sandpad {

namespace {
const QString kSessions = QStringLiteral("/v2/sandboxes/sessions/");

// The NDJSON answer of `cmd` with wait + logs, read line by line as it arrives: the first
// {"command"} names it, {"stream":"stdout"|"stderr","data"} lines carry the output, a
// {"stream":"error"} line ends it with an error, the last {"command"} has the exit code.
struct CommandStream {
    const OutputCallback* onOutput = nullptr;
    QByteArray start; // the answer's first bytes: an error answer's body, for its message
    QByteArray pending;
    QString cmdId;
    std::optional<int> exitCode;
    QString error;

    void feed(const QByteArray& chunk)
    {
        if (start.size() < 4096)
            start += chunk.left(4096 - start.size());
        pending += chunk;
        qsizetype nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            const QByteArray line = pending.left(nl);
            pending.remove(0, nl + 1);
            if (!line.trimmed().isEmpty())
                take(QJsonDocument::fromJson(line).object());
        }
    }

    void take(const QJsonObject& o)
    {
        if (o.value(QLatin1String("command")).isObject()) {
            const QJsonObject command = o.value(QLatin1String("command")).toObject();
            if (cmdId.isEmpty())
                cmdId = command.value(QLatin1String("id")).toString();
            if (command.value(QLatin1String("exitCode")).isDouble())
                exitCode = command.value(QLatin1String("exitCode")).toInt();
            return;
        }
        const QString stream = o.value(QLatin1String("stream")).toString();
        if (stream == QLatin1String("stdout") || stream == QLatin1String("stderr")) {
            if (*onOutput)
                (*onOutput)(stream == QLatin1String("stdout") ? OutputStream::Stdout : OutputStream::Stderr,
                            o.value(QLatin1String("data")).toString().toUtf8());
        } else if (stream == QLatin1String("error")) {
            const QJsonObject e = o.value(QLatin1String("data")).toObject();
            error = QStringLiteral("%1: %2").arg(e.value(QLatin1String("code")).toString(),
                                                 e.value(QLatin1String("message")).toString());
        } else if (error.isEmpty()) {
            error = QStringLiteral("unreadable line in the command's stream");
        }
    }
};

bool retryable(const HttpResponse& r) { return r.status == 429 || r.status >= 500; }
} // namespace

VercelSandbox::VercelSandbox(const VercelConfig& config, const SandboxOptions& options)
    : RemoteSandbox({.name = QStringLiteral("Vercel"),
                     .workDir = QStringLiteral("/vercel/sandbox/sandpad"),
                     .stateWord = QStringLiteral("status"),
                     .readyState = QStringLiteral("running"),
                     // snapshotting/stopping: the session is on its way out, it will not run.
                     .failedStates = {QStringLiteral("failed"), QStringLiteral("aborted"), QStringLiteral("stopped"),
                                      QStringLiteral("stopping"), QStringLiteral("snapshotting")},
                     .packagesWhere = QStringLiteral("Vercel runtime"),
                     .removing = QStringLiteral("deleting"),
                     .removal = QStringLiteral("deletion"),
                     .removedStatus = 404, // already gone
                     .goneStates = {},     // only a 404: a stopped sandbox still exists
                     .basePackages = config.basePackages,
                     .requestTimeoutMs = config.requestTimeoutMs,
                     .readyTimeoutMs = config.readyTimeoutMs,
                     .confirmTimeoutMs = config.confirmTimeoutMs},
                    {config.token, config.oidcToken}),
      m_config(config), m_api(config), m_options(options),
      m_runTag(options.runId.isEmpty() ? QStringLiteral("adhoc-") + QUuid::createUuid().toString(QUuid::Id128)
                                       : options.runId)
{
}

VercelSandbox::~VercelSandbox()
{
    destroy();
}

QJsonObject VercelSandbox::createBody() const
{
    // Only keys the SDK sends (the service refuses others), as Sandbox.create sends them.
    return {
        {QStringLiteral("projectId"), m_api.projectId()},
        {QStringLiteral("ports"), QJsonArray()},
        {QStringLiteral("runtime"),
         m_options.language == Language::Python ? m_config.pythonRuntime : m_config.nodeRuntime},
        {QStringLiteral("resources"),
         QJsonObject{{QStringLiteral("vcpus"), VercelConfig::vcpusFor(m_options.memoryLimitMb)}}},
        // A little above the run's deadline, plus room for the package check: the service
        // stops the VM by itself even if we never get to.
        {QStringLiteral("timeout"), qint64(m_options.deadlineSeconds + 120) * 1000},
        // Nothing kept after the run: no snapshot on stop.
        {QStringLiteral("persistent"), false},
        // The service's default is the full network; the network setting decides.
        {QStringLiteral("networkPolicy"),
         QJsonObject{{QStringLiteral("mode"), m_options.allowNetwork ? QStringLiteral("allow-all")
                                                                     : QStringLiteral("deny-all")}}},
        {QStringLiteral("tags"), QJsonObject{{QLatin1String(RemoteProvider::kAppLabel), QLatin1String(RemoteProvider::kAppLabelValue)},
                                             {QLatin1String(RemoteProvider::kRunLabel), m_runTag}}},
    };
}

void VercelSandbox::start(RunControl& control)
{
    m_http.setControl(&control);
    // Counted from before the create: the service's clock starts a little later, never earlier.
    m_expires = QDeadlineTimer(createBody().value(QLatin1String("timeout")).toInteger());
    const QJsonObject created = create();
    try {
        startFrom(created, m_options.language, m_options.deadlineSeconds);
    } catch (const ProviderError& e) {
        if (m_id.isEmpty())
            throw;
        // startFrom() already removed it; the caller gets no sandbox, so the message says so.
        const CleanupReport removed = destroy();
        throw ProviderError(e.kind(), e.message() + (removed.confirmed ? QStringLiteral("; the sandbox was deleted")
                                                                       : QStringLiteral("; ") + removed.detail));
    }
}

QJsonObject VercelSandbox::create()
{
    const QJsonObject body = createBody();
    const QString what = QStringLiteral("creating a sandbox");
    for (int attempt = 1;; ++attempt) {
        HttpRequest rq = m_api.request("POST", QStringLiteral("/v2/sandboxes"), &body);
        rq.retry = HttpRequest::Retry::Never; // retried here, after looking for an accepted create
        HttpResponse resp;
        QString failure;
        try {
            resp = m_http.send(rq);
        } catch (const ProviderError& e) { // no answer: the service may still have created it
            failure = e.message();
        }
        if (failure.isEmpty()) {
            if (resp.end == HttpResponse::End::Cancelled)
                throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Vercel: %1 cancelled").arg(what));
            if (resp.end == HttpResponse::End::Finished) {
                if (resp.ok())
                    return parseObject(resp.body, QStringLiteral("create"));
                resp.attempts = attempt;
                if (!retryable(resp))
                    throw m_http.errorFor(resp, what);
                if (resp.status == 429 && !VercelApi::retryDelay(resp, attempt))
                    throw VercelApi::rateLimited(resp, what);
                failure = m_http.errorFor(resp, what).message();
            } else {
                failure = QStringLiteral("Vercel: %1 timed out (no answer in time)").arg(what);
            }
        }
        // A 429 was refused before anything was made; a 5xx, a timeout or a lost connection may
        // hide an accepted create.
        if (resp.status != 429) {
            std::optional<QJsonObject> found;
            try {
                found = findCreated();
            } catch (const ProviderError& e) {
                throw ProviderError(e.kind() == ProviderError::Kind::Cancelled ? e.kind() : ProviderError::Kind::Unavailable,
                                    QStringLiteral("%1; looking for a sandbox it may have made failed too (%2)")
                                        .arg(failure, e.message()));
            }
            if (found)
                return *found;
        }
        const std::optional<qint64> delay = VercelApi::retryDelay(resp, attempt);
        if (attempt >= 3 || resp.end == HttpResponse::End::DeadlineExpired)
            throw ProviderError(resp.status == 429 ? ProviderError::Kind::RateLimited : ProviderError::Kind::Unavailable,
                                failure);
        if (!m_http.sleep(delay.value_or(0)))
            throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Vercel: %1 cancelled").arg(what));
    }
}

std::optional<QJsonObject> VercelSandbox::findCreated()
{
    const QList<RemoteProvider::Listing> found =
        m_api.listAll(m_http, QStringLiteral("%1:%2").arg(QLatin1String(RemoteProvider::kRunLabel), m_runTag));
    if (found.isEmpty())
        return std::nullopt;
    // One create per run tag: the first one found is ours. The list has no session, only its id.
    const HttpResponse got = m_http.sendChecked(m_api.getSandbox(found.first().id), QStringLiteral("checking the sandbox"));
    return parseObject(got.body, QStringLiteral("get sandbox"));
}

QString VercelSandbox::idOf(const QJsonObject& created) const
{
    return created.value(QLatin1String("sandbox")).toObject().value(QLatin1String("name")).toString();
}

QString VercelSandbox::stateOf(const QJsonObject& description) const
{
    return VercelApi::statusOf(description);
}

QString VercelSandbox::failureReason(const QJsonObject& description) const
{
    if (stateOf(description) == QLatin1String("aborted"))
        return QStringLiteral("the service aborted the VM before it ran");
    return {};
}

void VercelSandbox::onReady(const QJsonObject& description)
{
    m_sessionId = description.value(QLatin1String("session")).toObject().value(QLatin1String("id")).toString();
    if (m_sessionId.isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Vercel: the sandbox answer has no session id"));
}

HttpRequest VercelSandbox::describeRequest() const
{
    return m_api.getSandbox(m_id);
}

HttpRequest VercelSandbox::removeRequest() const
{
    return m_api.deleteSandbox(m_id);
}

QString VercelSandbox::sessionPath(const QString& path) const
{
    return kSessions + m_sessionId + path;
}

HttpRequest VercelSandbox::readRequest(const QString& path) const
{
    const QJsonObject body{{QStringLiteral("path"), path}};
    HttpRequest rq = m_api.request("POST", sessionPath(QStringLiteral("/fs/read")), &body);
    rq.retry = HttpRequest::Retry::Idempotent; // a read: the SDK retries it on 5xx too
    return rq;
}

void VercelSandbox::writeFiles(const QList<SandboxFile>& files)
{
    if (files.isEmpty())
        return;
    HttpRequest rq = m_api.request("POST", sessionPath(QStringLiteral("/fs/write")));
    rq.headers.emplaceBack("Content-Type", "application/gzip");
    rq.headers.emplaceBack("x-cwd", "/"); // the tar's names are relative to /
    rq.body = TarGzWriter::tarGz(files);
    rq.retry = HttpRequest::Retry::Idempotent; // writing the same files again is harmless
    m_http.sendChecked(rq, QStringLiteral("writing files"));
}

namespace {
QJsonObject detachedBody(const SandboxCommand& command)
{
    QJsonObject env;
    for (auto it = command.env.begin(); it != command.env.end(); ++it)
        env.insert(it.key(), it.value());
    QJsonObject body{{QStringLiteral("command"), command.argv.value(0)},
                     {QStringLiteral("args"), QJsonArray::fromStringList(command.argv.mid(1))},
                     {QStringLiteral("env"), env},
                     {QStringLiteral("sudo"), false}};
    if (!command.cwd.isEmpty())
        body.insert(QStringLiteral("cwd"), command.cwd);
    return body; // no `wait`: the SDK's runCommand({detached: true}) answers once it started
}
} // namespace

void VercelSandbox::startDetached(const SandboxCommand& command)
{
    if (m_sessionId.isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Vercel: no session to run in"));
    const QJsonObject body = detachedBody(command);
    HttpRequest rq = m_api.request("POST", sessionPath(QStringLiteral("/cmd")), &body);
    rq.retry = HttpRequest::Retry::Never; // a second one would be a second host
    const HttpResponse resp = m_http.sendChecked(rq, QStringLiteral("starting the session's interpreter"));
    if (parseObject(resp.body, QStringLiteral("cmd")).value(QLatin1String("command")).toObject().value(QLatin1String("id")).toString().isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Vercel: the detached command was not named"));
}

bool VercelSandbox::startFromAnyThread(const SandboxCommand& command) const
{
    if (m_sessionId.isEmpty())
        return false;
    HttpClient http(QStringLiteral("Vercel"));
    for (const auto& secret : m_secrets)
        http.addSecret(secret);
    const QJsonObject body = detachedBody(command);
    HttpRequest rq = m_api.request("POST", sessionPath(QStringLiteral("/cmd")), &body);
    rq.retry = HttpRequest::Retry::Never;
    rq.deadline = QDeadlineTimer(10000);
    try {
        return http.send(rq).ok();
    } catch (const ProviderError&) {
        return false;
    }
}

void VercelSandbox::keepAlive(qint64 ms)
{
    constexpr qint64 kSlackMs = 5 * 60 * 1000; // one extension covers the next few executions
    const qint64 remaining = std::max<qint64>(0, m_expires.remainingTime());
    if (remaining >= ms)
        return;
    const qint64 duration = ms - remaining + kSlackMs;
    // The SDK's Session.extendTimeout(duration): the session's timeout grows by `duration`.
    const QJsonObject body{{QStringLiteral("duration"), duration}};
    HttpRequest rq = m_api.request("POST", sessionPath(QStringLiteral("/extend-timeout")), &body);
    rq.retry = HttpRequest::Retry::Idempotent; // a second extension only keeps it longer
    const HttpResponse resp = m_http.send(rq);
    if (resp.end == HttpResponse::End::Cancelled)
        throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Vercel: cancelled while extending the sandbox's timeout"));
    if (resp.status == 410 || resp.status == 422)
        throw ProviderError(ProviderError::Kind::SandboxStopped,
                            QStringLiteral("Vercel: the session's sandbox has stopped by itself (its timeout passed)"));
    if (!resp.ok())
        throw m_http.errorFor(resp, QStringLiteral("extending the sandbox's timeout"));
    m_expires = QDeadlineTimer(remaining + duration);
}

void VercelSandbox::kill(const QString& cmdId)
{
    const QJsonObject body{{QStringLiteral("signal"), 9}};
    HttpRequest rq = m_api.request("POST", sessionPath(QStringLiteral("/cmd/%1/kill").arg(cmdId)), &body);
    rq.retry = HttpRequest::Retry::Idempotent; // killing twice is harmless
    sendCleanup(rq);
}

std::optional<QString> VercelSandbox::runPackageScript(const QString& script, int deadlineSeconds)
{
    SandboxCommand cmd;
    cmd.argv = {interpreter(Language::Python), QStringLiteral("-c"), script};
    cmd.timeoutMs = qint64(deadlineSeconds) * 1000;
    QString stderrText;
    const OutputCallback collect = [&](OutputStream s, const QByteArray& b) {
        if (s == OutputStream::Stderr)
            stderrText += QString::fromUtf8(b);
    };
    const CommandOutcome outcome =
        runStreamed(cmd, collect, QDeadlineTimer(cmd.timeoutMs), QStringLiteral("installing the base packages"));
    if (outcome.cancelled)
        throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Vercel: cancelled while installing the base packages"));
    if (outcome.timedOut)
        throw ProviderError(ProviderError::Kind::Unavailable, QStringLiteral("Vercel: installing the base packages timed out"));
    if (outcome.exitCode.value_or(-1) == 0)
        return std::nullopt;
    return stderrText.isEmpty() ? QStringLiteral("exit code %1").arg(outcome.exitCode.value_or(-1)) : stderrText;
}

CommandOutcome VercelSandbox::runCommand(const SandboxCommand& command, const OutputCallback& onOutput,
                                         const QDeadlineTimer& deadline)
{
    return runStreamed(command, onOutput, deadline, QStringLiteral("running the command"));
}

CommandOutcome VercelSandbox::runStreamed(const SandboxCommand& command, const OutputCallback& onOutput,
                                          const QDeadlineTimer& deadline, const QString& what)
{
    if (m_sessionId.isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("Vercel: no session to run in"));
    QJsonObject env;
    for (auto it = command.env.begin(); it != command.env.end(); ++it)
        env.insert(it.key(), it.value());
    QJsonObject body{{QStringLiteral("command"), command.argv[0]},
                     {QStringLiteral("args"), QJsonArray::fromStringList(command.argv.mid(1))},
                     {QStringLiteral("env"), env},
                     {QStringLiteral("sudo"), false},
                     {QStringLiteral("wait"), true},
                     {QStringLiteral("logs"), true}};
    if (!command.cwd.isEmpty())
        body.insert(QStringLiteral("cwd"), command.cwd);
    if (command.timeoutMs > 0) // the service's own limit, a little after ours: a backstop if we vanish
        body.insert(QStringLiteral("timeout"), command.timeoutMs + 5000);

    for (int attempt = 1;; ++attempt) {
        CommandStream stream; // fresh for each attempt: an error answer's body is no output
        stream.onOutput = &onOutput;
        HttpRequest rq = m_api.request("POST", sessionPath(QStringLiteral("/cmd")), &body);
        rq.deadline = deadline; // a stream lasts as long as the command
        rq.retry = HttpRequest::Retry::Never;       // retried below, only while no command was named
        rq.onData = [&stream](const QByteArray& chunk) { stream.feed(chunk); };
        HttpResponse resp;
        try {
            resp = m_http.send(rq);
        } catch (const ProviderError& e) {
            if (stream.cmdId.isEmpty())
                throw;
            kill(stream.cmdId);
            throw ProviderError(ProviderError::Kind::Unavailable,
                                QStringLiteral("Vercel: the log stream dropped before the command ended (%1)").arg(e.message()));
        }
        if (resp.end != HttpResponse::End::Finished) {
            if (stream.cmdId.isEmpty())
                return interrupted(resp.end, QStringLiteral("cancelled before the command started"),
                                   QStringLiteral("timed out before the command started"));
            kill(stream.cmdId);
            return interrupted(resp.end, QStringLiteral("cancelled; command killed"),
                               QStringLiteral("timed out after %1 ms; command killed").arg(command.timeoutMs));
        }
        if (retryable(resp) && attempt < 3) {
            const std::optional<qint64> delay = VercelApi::retryDelay(resp, attempt);
            if (!delay)
                throw VercelApi::rateLimited(resp, what);
            if (*delay < deadline.remainingTime() || deadline.isForever()) {
                if (!m_http.sleep(*delay))
                    return interrupted(HttpResponse::End::Cancelled, QStringLiteral("cancelled before the command started"), {});
                continue;
            }
        }
        resp.attempts = attempt;
        if (!resp.ok()) {
            resp.body = stream.start; // the streamed request kept no body
            throw m_http.errorFor(resp, what);
        }
        // The SDK refuses any other content type (api-client.js runCommand).
        if (resp.header("Content-Type").split(';').first().trimmed() != "application/x-ndjson")
            throw ProviderError(ProviderError::Kind::Protocol,
                                QStringLiteral("Vercel: %1: the answer is not a stream of command data (%2)")
                                    .arg(what, QString::fromLatin1(resp.header("Content-Type"))));
        stream.feed("\n"); // a last line without its newline
        if (!stream.error.isEmpty()) {
            if (!stream.cmdId.isEmpty())
                kill(stream.cmdId);
            throw ProviderError(ProviderError::Kind::Unavailable,
                                m_http.redact(QStringLiteral("Vercel: the log stream reported an error: %1").arg(stream.error)));
        }
        if (!stream.exitCode) {
            if (!stream.cmdId.isEmpty())
                kill(stream.cmdId);
            throw ProviderError(ProviderError::Kind::Unavailable,
                                QStringLiteral("Vercel: the log stream dropped before the command ended (no exit code)"));
        }
        CommandOutcome outcome;
        outcome.exitCode = *stream.exitCode;
        return outcome;
    }
}

} // namespace sandpad
