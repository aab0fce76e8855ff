#include "core/providers/http/RemoteProvider.h"

#include "core/providers/http/RemoteSessionSandbox.h"
#include "core/sandbox/ProviderError.h"

#include <QJsonDocument>

namespace sandpad {

RemoteProvider::RemoteProvider(QString service, QStringList basePackages)
    : m_service(std::move(service)), m_basePackages(std::move(basePackages))
{
}

ValidationReport RemoteProvider::validate()
{
    ValidationReport report;
    report.provider = name();
    const QString problem = configProblem();
    if (!problem.isEmpty()) {
        report.items.append({QStringLiteral("credentials"), ValidationItem::Level::Error, problem});
    } else {
        const CredentialCheck check = credentialCheck();
        report.items.append({QStringLiteral("credentials"), ValidationItem::Level::Ok, check.detail});
        report.items.append(probe(check));
    }
    report.items.append(runtimeItem());
    report.items.append({QStringLiteral("base packages"), ValidationItem::Level::Ok,
                         QStringLiteral("%1: checked in each Python sandbox, missing ones installed with pip")
                             .arg(m_basePackages.join(QLatin1String(", ")))});
    return report;
}

ValidationItem RemoteProvider::probe(const CredentialCheck& check) const
{
    using Level = ValidationItem::Level;
    const QString name = QStringLiteral("API");
    HttpClient http(m_service);
    for (const auto& secret : check.secrets)
        http.addSecret(secret);
    HttpRequest rq = check.probe;
    rq.deadline = QDeadlineTimer(std::min(check.requestTimeoutMs, 15000));
    rq.retry = HttpRequest::Retry::Never;
    try {
        const HttpResponse resp = http.send(rq);
        if (resp.end != HttpResponse::End::Finished)
            return {name, Level::Error, QStringLiteral("%1 did not answer in time").arg(check.apiUrl)};
        if (!resp.ok() && resp.status != check.alsoAccepted)
            return {name, Level::Error,
                    http.errorFor(resp, QStringLiteral("checking the %1").arg(check.noun)).message()};
        if (resp.ok() && check.wantsJsonObject && !QJsonDocument::fromJson(resp.body).isObject())
            return {name, Level::Error,
                    QStringLiteral("%1 answered, but not like the %2 API").arg(check.apiUrl, m_service)};
        return {name, Level::Ok, QStringLiteral("%1 reachable, %2 accepted").arg(check.apiUrl, check.noun)};
    } catch (const ProviderError& e) {
        return {name, Level::Error, e.message()};
    }
}

std::unique_ptr<Sandbox> RemoteProvider::create(const SandboxOptions& options, RunControl& control)
{
    const QString problem = configProblem();
    if (!problem.isEmpty())
        throw ProviderError(ProviderError::Kind::NotConfigured, m_service + QStringLiteral(": ") + problem);
    return start(options, control);
}

std::unique_ptr<SessionSandbox> RemoteProvider::createSession(const SandboxOptions& options, RunControl& control)
{
    std::unique_ptr<Sandbox> made = create(options, control);
    auto* remote = dynamic_cast<RemoteSandbox*>(made.get());
    if (!remote) {
        made->destroy();
        throw ProviderError(ProviderError::Kind::Protocol, m_service + QStringLiteral(": this sandbox cannot keep a session"));
    }
    made.release();
    auto session = std::make_unique<RemoteSessionSandbox>(std::unique_ptr<RemoteSandbox>(remote), options.language);
    session->start(control);
    return session;
}

QList<RemoteProvider::Listing> RemoteProvider::listAppSandboxes()
{
    throw ProviderError(ProviderError::Kind::Protocol,
                        m_service + QStringLiteral(": listing sandboxes is not implemented"));
}

CleanupReport RemoteProvider::removeAppSandbox(const QString& id)
{
    CleanupReport report;
    report.confirmed = false;
    report.detail = m_service + QStringLiteral(": removing sandbox %1 is not implemented").arg(id);
    return report;
}

} // namespace sandpad
