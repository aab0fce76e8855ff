#include "core/providers/vercel/VercelProvider.h"

#include "core/providers/vercel/VercelSandbox.h"

#include <QDateTime>
#include <QUrlQuery>
#include <QUuid>

namespace sandpad {

VercelProvider::VercelProvider(VercelConfig config)
    : RemoteProvider(QStringLiteral("Vercel"), config.basePackages), m_config(std::move(config))
{
}

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

RemoteProvider::CredentialCheck VercelProvider::credentialCheck() const
{
    CredentialCheck check;
    if (m_config.token.isEmpty()) {
        const QJsonObject claims = VercelConfig::jwtClaims(m_config.oidcToken);
        const qint64 exp = qint64(claims.value(QLatin1String("exp")).toDouble());
        check.detail = QStringLiteral("OIDC token: team %1, project %2%3")
                           .arg(m_config.effectiveTeamId(), m_config.effectiveProjectId(),
                                exp > 0 ? QStringLiteral(", valid until %1")
                                              .arg(QDateTime::fromSecsSinceEpoch(exp).toUTC().toString(Qt::ISODate))
                                        : QString());
    } else {
        check.detail = QStringLiteral("token for team %1, project %2")
                           .arg(m_config.effectiveTeamId(), m_config.effectiveProjectId());
    }
    check.noun = QStringLiteral("credentials");
    check.apiUrl = m_config.apiUrl;
    check.secrets = {m_config.token, m_config.oidcToken};
    // A sandbox id that cannot exist: 404 proves the API is reachable and took the token.
    check.probe.url = QUrl(m_config.apiUrl + QStringLiteral("/v1/sandboxes/sbx_sandpad_check_") +
                           QUuid::createUuid().toString(QUuid::Id128));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("teamId"), m_config.effectiveTeamId());
    check.probe.url.setQuery(q);
    check.probe.headers.emplaceBack("Authorization", "Bearer " + m_config.bearer().toUtf8());
    check.requestTimeoutMs = m_config.requestTimeoutMs;
    check.alsoAccepted = 404;
    return check;
}

ValidationItem VercelProvider::runtimeItem() const
{
    const bool runtimesOk = !m_config.pythonRuntime.isEmpty() && !m_config.nodeRuntime.isEmpty();
    return {QStringLiteral("runtime"), runtimesOk ? ValidationItem::Level::Ok : ValidationItem::Level::Error,
            QStringLiteral("Python: %1, JavaScript: %2, %3 vCPUs")
                .arg(m_config.pythonRuntime, m_config.nodeRuntime).arg(m_config.vcpus)};
}

std::unique_ptr<Sandbox> VercelProvider::start(const SandboxOptions& options, RunControl& control)
{
    auto sandbox = std::make_unique<VercelSandbox>(m_config, options.language);
    sandbox->start(options.deadlineSeconds, control);
    return sandbox;
}

} // namespace sandpad
