#include "core/providers/http/RemoteSandbox.h"

#include "core/providers/http/RemoteCleanup.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QJsonDocument>
#include <algorithm>

namespace sandpad {

RemoteSandbox::RemoteSandbox(Service service, const QStringList& secrets)
    : m_http(service.name), m_service(std::move(service))
{
    for (const auto& secret : secrets)
        m_http.addSecret(secret);
    m_secrets = secrets;
}

bool RemoteSandbox::stillRunning()
{
    if (m_id.isEmpty())
        return false;
    RunControl* control = m_http.control();
    m_http.setControl(nullptr);
    HttpResponse resp;
    try {
        HttpRequest rq = describeRequest();
        rq.deadline = QDeadlineTimer(std::min(m_service.requestTimeoutMs, 15000));
        resp = m_http.send(rq);
    } catch (const ProviderError&) {
        m_http.setControl(control);
        return true;
    }
    m_http.setControl(control);
    if (resp.status == 404)
        return false;
    if (!resp.ok())
        return true;
    const QJsonDocument doc = QJsonDocument::fromJson(resp.body);
    return !doc.isObject() || stateOf(doc.object()) == m_service.readyState;
}

QString RemoteSandbox::interpreter(Language language) const
{
    return language == Language::Python ? QStringLiteral("python3") : QStringLiteral("node");
}

QJsonObject RemoteSandbox::parseObject(const QByteArray& body, const QString& what) const
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!doc.isObject())
        throw ProviderError(ProviderError::Kind::Protocol,
                            QStringLiteral("%1: %2 answered something that is not a JSON object")
                                .arg(m_service.name, what));
    return doc.object();
}

void RemoteSandbox::startSandbox(const HttpRequest& create, Language language, int deadlineSeconds,
                                 RunControl& control)
{
    m_http.setControl(&control);
    startFrom(parseObject(m_http.sendChecked(create, QStringLiteral("creating a sandbox")).body, QStringLiteral("create")),
              language, deadlineSeconds);
}

void RemoteSandbox::startFrom(const QJsonObject& created, Language language, int deadlineSeconds)
{
    m_id = idOf(created);
    if (m_id.isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol,
                            QStringLiteral("%1: create answered no sandbox id").arg(m_service.name));
    try {
        onReady(waitUntilReady(created));
        if (language != Language::Python || m_service.basePackages.isEmpty())
            return;
        // One command checks (without importing) and installs only what is missing.
        QStringList quoted;
        for (const auto& p : m_service.basePackages)
            quoted << QStringLiteral("'%1'").arg(QString(p).remove(QLatin1Char('\'')));
        const QString script = QStringLiteral(
            "import importlib.util,subprocess,sys\n"
            "m=[p for p in [%1] if importlib.util.find_spec(p) is None]\n"
            "sys.exit(subprocess.call([sys.executable,'-m','pip','install','-q','--disable-pip-version-check',"
            "'--retries','1','--timeout','15',*m]) if m else 0)\n").arg(quoted.join(QLatin1Char(',')));
        const std::optional<QString> failure = runPackageScript(script, deadlineSeconds);
        if (failure)
            m_packageNote = QStringLiteral("sandpad: some base packages (%1) are missing in the %2 and "
                                           "could not be installed: %3\n")
                                .arg(m_service.basePackages.join(QLatin1String(", ")), m_service.packagesWhere,
                                     failure->trimmed().split(QLatin1Char('\n')).last());
    } catch (...) {
        destroy();
        throw;
    }
}

QJsonObject RemoteSandbox::waitUntilReady(QJsonObject description)
{
    QDeadlineTimer ready(m_service.readyTimeoutMs);
    qint64 pause = 100;
    QString state = stateOf(description);
    while (state != m_service.readyState) {
        if (m_service.failedStates.contains(state)) {
            const QString reason = failureReason(description);
            throw ProviderError(ProviderError::Kind::Unavailable,
                                m_http.redact(QStringLiteral("%1: the sandbox did not start (%2 %3%4)")
                                                  .arg(m_service.name, m_service.stateWord, state,
                                                       reason.isEmpty() ? QString() : QStringLiteral(": ") + reason)));
        }
        if (ready.hasExpired())
            throw ProviderError(ProviderError::Kind::Unavailable,
                                QStringLiteral("%1: the sandbox was not %2 after %3 s (still %4 %5); "
                                               "gave up and removed it")
                                    .arg(m_service.name, m_service.readyState)
                                    .arg(m_service.readyTimeoutMs / 1000)
                                    .arg(m_service.stateWord, state));
        if (!m_http.sleep(pause))
            throw ProviderError(ProviderError::Kind::Cancelled,
                                QStringLiteral("%1: cancelled while starting").arg(m_service.name));
        pause = std::min<qint64>(pause * 2, 1000);
        description = parseObject(m_http.sendChecked(describeRequest(), QStringLiteral("checking the sandbox")).body,
                                  QStringLiteral("get sandbox"));
        state = stateOf(description);
    }
    return description;
}

CommandOutcome RemoteSandbox::run(const SandboxCommand& command, const OutputCallback& onOutput,
                                  RunControl& control)
{
    if (command.argv.isEmpty())
        throw ProviderError(ProviderError::Kind::Protocol, QStringLiteral("%1: empty command").arg(m_service.name));
    m_http.setControl(&control);
    const QDeadlineTimer deadline(command.timeoutMs);
    if (!m_packageNote.isEmpty() && !m_noteShown && onOutput) {
        m_noteShown = true;
        onOutput(OutputStream::Stderr, m_packageNote.toUtf8());
    }
    return runCommand(command, onOutput, deadline);
}

CommandOutcome RemoteSandbox::interrupted(HttpResponse::End end, const QString& cancelledDetail,
                                          const QString& timedOutDetail)
{
    CommandOutcome outcome;
    if (end == HttpResponse::End::Cancelled) {
        outcome.cancelled = true;
        outcome.detail = cancelledDetail;
    } else {
        outcome.timedOut = true;
        outcome.detail = timedOutDetail;
    }
    return outcome;
}

HttpRequest RemoteSandbox::bounded(HttpRequest request, const QDeadlineTimer& deadline)
{
    if (deadline.remainingTime() < request.deadline.remainingTime())
        request.deadline = deadline;
    return request;
}

void RemoteSandbox::sendCleanup(HttpRequest request)
{
    RunControl* control = m_http.control();
    m_http.setControl(nullptr);
    request.deadline = QDeadlineTimer(10000);
    try {
        m_http.send(request);
    } catch (const ProviderError&) {
    }
    m_http.setControl(control);
}

std::optional<QByteArray> RemoteSandbox::readFile(const QString& path)
{
    const HttpResponse resp = m_http.send(readRequest(path));
    if (resp.end == HttpResponse::End::Cancelled)
        throw ProviderError(ProviderError::Kind::Cancelled,
                            QStringLiteral("%1: reading %2 cancelled").arg(m_service.name, path));
    if (resp.end == HttpResponse::End::DeadlineExpired)
        throw ProviderError(ProviderError::Kind::Unavailable,
                            QStringLiteral("%1: reading %2 timed out").arg(m_service.name, path));
    if (resp.status == 404)
        return std::nullopt;
    if (!resp.ok())
        throw m_http.errorFor(resp, QStringLiteral("reading %1").arg(path));
    return fileIn(resp, path);
}

std::optional<QByteArray> RemoteSandbox::fileIn(const HttpResponse& answer, const QString&) const
{
    return answer.body;
}

CleanupReport RemoteSandbox::destroy()
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
        const HttpResponse removed = m_http.send(removeRequest());
        // Already gone is fine; anything else failing is reported, but the state check decides.
        QString problem;
        if (!removed.ok() && removed.status != m_service.removedStatus)
            problem = m_http.errorFor(removed, QStringLiteral("%1 the sandbox").arg(m_service.removing)).message();
        RemoteCleanup cleanup;
        cleanup.sandboxId = m_id;
        cleanup.action = QStringLiteral("%1: %2").arg(m_service.name, m_service.removal);
        cleanup.timeoutMs = m_service.confirmTimeoutMs;
        cleanup.requestTimeoutMs = m_service.requestTimeoutMs;
        cleanup.goneStates = m_service.goneStates;
        cleanup.makeGet = [this] { return describeRequest(); };
        cleanup.stateOf = [this](const QJsonObject& o) { return stateOf(o); };
        report = cleanup.confirm(m_http, problem);
    } catch (const std::exception& e) {
        report.confirmed = false;
        report.detail = m_http.redact(QStringLiteral("%1: %2 sandbox %3 failed: %4")
                                          .arg(m_service.name, m_service.removing, m_id, QString::fromUtf8(e.what())));
    }
    m_cleanup = report;
    return report;
}

} // namespace sandpad
