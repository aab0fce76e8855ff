#include "providers/daytona/DaytonaProvider.h"

#include "providers/ProviderError.h"
#include "providers/daytona/DaytonaSandbox.h"
#include "providers/http/HttpClient.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace sandpad {

DaytonaProvider::DaytonaProvider(DaytonaConfig config) : m_config(std::move(config)) {}

QString DaytonaProvider::credentialProblem(const DaytonaConfig& c)
{
    if (c.apiKey.isEmpty())
        return QStringLiteral("no API key: set DAYTONA_API_KEY (Daytona dashboard > Keys)");
    if (c.apiKey.contains(QLatin1Char(' ')) || c.apiKey.size() < 8)
        return QStringLiteral("DAYTONA_API_KEY does not look like a Daytona API key");
    const QUrl url(c.apiUrl);
    if (!url.isValid() || (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")))
        return QStringLiteral("DAYTONA_API_URL is not an http(s) URL: %1").arg(c.apiUrl);
    return {};
}

ValidationReport DaytonaProvider::validate()
{
    ValidationReport report;
    report.provider = name();
    using Level = ValidationItem::Level;
    const QString problem = credentialProblem(m_config);
    if (!problem.isEmpty()) {
        report.items.append({QStringLiteral("credentials"), Level::Error, problem});
    } else {
        report.items.append({QStringLiteral("credentials"), Level::Ok,
                             m_config.organizationId.isEmpty()
                                 ? QStringLiteral("API key set (no organization id: the key's default)")
                                 : QStringLiteral("API key set, organization %1").arg(m_config.organizationId)});
        HttpClient http(QStringLiteral("Daytona"));
        http.addSecret(m_config.apiKey);
        HttpRequest rq;
        rq.url = QUrl(m_config.apiUrl + QStringLiteral("/sandbox?limit=1"));
        rq.headers.emplaceBack("Authorization", "Bearer " + m_config.apiKey.toUtf8());
        if (!m_config.organizationId.isEmpty())
            rq.headers.emplaceBack("X-Daytona-Organization-ID", m_config.organizationId.toUtf8());
        rq.headers.emplaceBack("X-Daytona-Source", "sandpad");
        rq.deadline = QDeadlineTimer(std::min(m_config.requestTimeoutMs, 15000));
        rq.retry = false;
        try {
            const HttpResponse resp = http.send(rq);
            if (resp.end != HttpResponse::End::Finished)
                report.items.append({QStringLiteral("API"), Level::Error,
                                     QStringLiteral("%1 did not answer in time").arg(m_config.apiUrl)});
            else if (resp.ok() && QJsonDocument::fromJson(resp.body).isObject())
                report.items.append({QStringLiteral("API"), Level::Ok,
                                     QStringLiteral("%1 reachable, API key accepted").arg(m_config.apiUrl)});
            else if (resp.ok())
                report.items.append({QStringLiteral("API"), Level::Error,
                                     QStringLiteral("%1 answered, but not like the Daytona API").arg(m_config.apiUrl)});
            else
                report.items.append({QStringLiteral("API"), Level::Error,
                                     http.errorFor(resp, QStringLiteral("checking the API key")).message()});
        } catch (const ProviderError& e) {
            report.items.append({QStringLiteral("API"), Level::Error, e.message()});
        }
    }
    report.items.append({QStringLiteral("runtime"), Level::Ok,
                         QStringLiteral("default snapshot; language label python / javascript")});
    report.items.append({QStringLiteral("base packages"), Level::Ok,
                         QStringLiteral("%1: checked in each Python sandbox, missing ones installed with pip")
                             .arg(m_config.basePackages.join(QLatin1String(", ")))});
    return report;
}

std::unique_ptr<Sandbox> DaytonaProvider::create(const SandboxOptions& options, RunControl& control)
{
    const QString problem = credentialProblem(m_config);
    if (!problem.isEmpty())
        throw ProviderError(ProviderError::Kind::NotConfigured, QStringLiteral("Daytona: ") + problem);
    auto sandbox = std::make_unique<DaytonaSandbox>(m_config);
    sandbox->start(options, control);
    return sandbox;
}

} // namespace sandpad
