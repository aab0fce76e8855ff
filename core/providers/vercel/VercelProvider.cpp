#include "core/providers/vercel/VercelProvider.h"

#include "core/providers/vercel/VercelApi.h"
#include "core/providers/vercel/VercelSandbox.h"
#include "core/sandbox/ProviderError.h"
#include "core/settings/AppSettings.h"

#include <QDateTime>

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
    const VercelApi api(m_config);
    check.noun = QStringLiteral("credentials and project %1").arg(m_config.effectiveProjectId());
    check.apiUrl = m_config.apiUrl;
    check.secrets = api.secrets();
    // The list call proves the token, the team and the project at once (an unknown project: 404).
    check.probe = api.listSandboxes(QStringLiteral("%1:%2").arg(QLatin1String(kAppLabel), QLatin1String(kAppLabelValue)),
                                    QString(), 1);
    check.requestTimeoutMs = m_config.requestTimeoutMs;
    check.wantsJsonObject = true;
    return check;
}

ValidationItem VercelProvider::runtimeItem() const
{
    const bool runtimesOk = !m_config.pythonRuntime.isEmpty() && !m_config.nodeRuntime.isEmpty();
    const int vcpus = VercelConfig::vcpusFor(m_config.memoryMb);
    return {QStringLiteral("runtime"), runtimesOk ? ValidationItem::Level::Ok : ValidationItem::Level::Error,
            QStringLiteral("Python: %1, JavaScript: %2; each run gets %3 vCPU%4 and %5 GB (memory setting %6 MB; "
                           "Vercel gives 2 GB per vCPU%7)")
                .arg(m_config.pythonRuntime, m_config.nodeRuntime)
                .arg(vcpus)
                .arg(vcpus == 1 ? QString() : QStringLiteral("s"))
                .arg(vcpus * 2)
                .arg(m_config.memoryMb)
                .arg(m_config.memoryMb > 8 * 2048 ? QStringLiteral(", at most 8 vCPUs") : QString())};
}

std::unique_ptr<Sandbox> VercelProvider::start(const SandboxOptions& options, RunControl& control)
{
    auto sandbox = std::make_unique<VercelSandbox>(m_config, options);
    sandbox->start(control);
    return sandbox;
}

QList<RemoteProvider::Listing> VercelProvider::listAppSandboxes()
{
    const QString problem = configProblem();
    if (!problem.isEmpty())
        throw ProviderError(ProviderError::Kind::NotConfigured, QStringLiteral("Vercel: ") + problem);
    const VercelApi api(m_config);
    HttpClient http(QStringLiteral("Vercel"));
    for (const auto& secret : api.secrets())
        http.addSecret(secret);
    return api.listAll(http, QStringLiteral("%1:%2").arg(QLatin1String(kAppLabel), QLatin1String(kAppLabelValue)));
}

CleanupReport VercelProvider::removeAppSandbox(const QString& id)
{
    const QString problem = configProblem();
    if (!problem.isEmpty())
        return {false, QStringLiteral("Vercel: ") + problem};
    const VercelApi api(m_config);
    HttpClient http(QStringLiteral("Vercel"));
    for (const auto& secret : api.secrets())
        http.addSecret(secret);
    return api.remove(http, id);
}

ProviderDescriptor VercelProvider::descriptor()
{
    using Kind = ProviderField::Kind;
    ProviderDescriptor d;
    d.name = QStringLiteral("vercel");
    d.displayName = QStringLiteral("Vercel Sandbox");
    d.fields = {
        {.key = QStringLiteral("token"), .label = QStringLiteral("&Token:"),
         .environmentVariable = QStringLiteral("VERCEL_TOKEN"), .secret = true},
        {.key = QStringLiteral("teamId"), .label = QStringLiteral("T&eam ID:"),
         .environmentVariable = QStringLiteral("VERCEL_TEAM_ID")},
        {.key = QStringLiteral("projectId"), .label = QStringLiteral("Pro&ject ID:"),
         .environmentVariable = QStringLiteral("VERCEL_PROJECT_ID")},
        {.key = QStringLiteral("oidcToken"), .label = QStringLiteral("&OIDC token:"),
         .environmentVariable = QStringLiteral("VERCEL_OIDC_TOKEN"), .secret = true},
        {.key = QStringLiteral("apiUrl"), .label = QStringLiteral("API &URL:"),
         .environmentVariable = QStringLiteral("VERCEL_API_URL"), .kind = Kind::Url,
         .placeholder = QStringLiteral("https://api.vercel.com")},
    };
    d.create = [](const ProviderSettings& settings) -> std::shared_ptr<SandboxProvider> {
        VercelConfig config = VercelConfig::fromEnvironment(); // the variables win over settings
        if (!settings.overridden(QStringLiteral("apiUrl")) && !settings.stored(QStringLiteral("apiUrl")).isEmpty())
            config.apiUrl = settings.stored(QStringLiteral("apiUrl"));
        config.teamId = settings.value(QStringLiteral("teamId"));
        config.projectId = settings.value(QStringLiteral("projectId"));
        config.memoryMb = settings.settings().memoryLimitMb; // validation says what a run gets
        config.token = settings.secret(QStringLiteral("token"));
        if (config.token.isEmpty())
            config.oidcToken = settings.secret(QStringLiteral("oidcToken"));
        return std::make_shared<VercelProvider>(config);
    };
    return d;
}

} // namespace sandpad
