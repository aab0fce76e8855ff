#include "providers/vercel/VercelProvider.h"

#include "providers/ProviderError.h"
#include "providers/http/HttpClient.h"
#include "providers/vercel/VercelSandbox.h"

#include <QDateTime>
#include <QUrlQuery>
#include <QUuid>

namespace sandpad {

VercelProvider::VercelProvider(VercelConfig config) : m_config(std::move(config)) {}

QString VercelProvider::credentialProblem(const VercelConfig& c)
{
    if (c.token.isEmpty() && c.oidcToken.isEmpty())
        return QStringLiteral("no credentials: set VERCEL_TOKEN with VERCEL_TEAM_ID and VERCEL_PROJECT_ID, "
                              "or VERCEL_OIDC_TOKEN");
    if (c.token.isEmpty()) {
        const QJsonObject claims = VercelConfig::jwtClaims(c.oidcToken);
        if (claims.isEmpty())
            return QStringLiteral("VERCEL_OIDC_TOKEN is not a well-formed JWT (header.payload.signature)");
        const qint64 exp = qint64(claims.value(QLatin1String("exp")).toDouble());
        if (exp > 0 && exp < QDateTime::currentSecsSinceEpoch())
            return QStringLiteral("VERCEL_OIDC_TOKEN expired at %1 (run `vercel env pull` for a fresh one)")
                .arg(QDateTime::fromSecsSinceEpoch(exp).toUTC().toString(Qt::ISODate));
    } else if (c.token.contains(QLatin1Char(' ')) || c.token.size() < 8) {
        return QStringLiteral("VERCEL_TOKEN does not look like a Vercel token");
    }
    if (c.effectiveTeamId().isEmpty())
        return QStringLiteral("no team id: set VERCEL_TEAM_ID (or use an OIDC token with an owner_id claim)");
    if (c.effectiveProjectId().isEmpty())
        return QStringLiteral("no project id: set VERCEL_PROJECT_ID (or use an OIDC token with a project_id claim)");
    return {};
}

ValidationReport VercelProvider::validate()
{
    ValidationReport report;
    report.provider = name();
    using Level = ValidationItem::Level;
    const QString problem = credentialProblem(m_config);
    if (!problem.isEmpty()) {
        report.items.append({QStringLiteral("credentials"), Level::Error, problem});
    } else if (m_config.token.isEmpty()) {
        const QJsonObject claims = VercelConfig::jwtClaims(m_config.oidcToken);
        const qint64 exp = qint64(claims.value(QLatin1String("exp")).toDouble());
        report.items.append({QStringLiteral("credentials"), Level::Ok,
                             QStringLiteral("OIDC token: team %1, project %2%3")
                                 .arg(m_config.effectiveTeamId(), m_config.effectiveProjectId(),
                                      exp > 0 ? QStringLiteral(", valid until %1")
                                                    .arg(QDateTime::fromSecsSinceEpoch(exp).toUTC().toString(Qt::ISODate))
                                              : QString())});
    } else {
        report.items.append({QStringLiteral("credentials"), Level::Ok,
                             QStringLiteral("token for team %1, project %2")
                                 .arg(m_config.effectiveTeamId(), m_config.effectiveProjectId())});
    }

    if (problem.isEmpty()) {
        // A sandbox id that cannot exist: 404 proves the API is reachable and took the token.
        HttpClient http(QStringLiteral("Vercel"));
        http.addSecret(m_config.token);
        http.addSecret(m_config.oidcToken);
        HttpRequest rq;
        rq.url = QUrl(m_config.apiUrl + QStringLiteral("/v1/sandboxes/sbx_sandpad_check_") +
                      QUuid::createUuid().toString(QUuid::Id128));
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("teamId"), m_config.effectiveTeamId());
        rq.url.setQuery(q);
        rq.headers.emplaceBack("Authorization", "Bearer " + m_config.bearer().toUtf8());
        rq.deadline = QDeadlineTimer(std::min(m_config.requestTimeoutMs, 15000));
        rq.retry = false;
        try {
            const HttpResponse resp = http.send(rq);
            if (resp.end != HttpResponse::End::Finished)
                report.items.append({QStringLiteral("API"), Level::Error,
                                     QStringLiteral("%1 did not answer in time").arg(m_config.apiUrl)});
            else if (resp.status == 404 || resp.ok())
                report.items.append({QStringLiteral("API"), Level::Ok,
                                     QStringLiteral("%1 reachable, credentials accepted").arg(m_config.apiUrl)});
            else
                report.items.append({QStringLiteral("API"), Level::Error,
                                     http.errorFor(resp, QStringLiteral("checking the credentials")).message()});
        } catch (const ProviderError& e) {
            report.items.append({QStringLiteral("API"), Level::Error, e.message()});
        }
    }

    const bool runtimesOk = !m_config.pythonRuntime.isEmpty() && !m_config.nodeRuntime.isEmpty();
    report.items.append({QStringLiteral("runtime"), runtimesOk ? Level::Ok : Level::Error,
                         QStringLiteral("Python: %1, JavaScript: %2, %3 vCPUs")
                             .arg(m_config.pythonRuntime, m_config.nodeRuntime).arg(m_config.vcpus)});
    report.items.append({QStringLiteral("base packages"), Level::Ok,
                         QStringLiteral("%1: checked in each Python sandbox, missing ones installed with pip")
                             .arg(m_config.basePackages.join(QLatin1String(", ")))});
    return report;
}

std::unique_ptr<Sandbox> VercelProvider::create(const SandboxOptions& options, RunControl& control)
{
    const QString problem = credentialProblem(m_config);
    if (!problem.isEmpty())
        throw ProviderError(ProviderError::Kind::NotConfigured, QStringLiteral("Vercel: ") + problem);
    auto sandbox = std::make_unique<VercelSandbox>(m_config, options.language);
    sandbox->start(options.deadlineSeconds, control);
    return sandbox;
}

} // namespace sandpad
