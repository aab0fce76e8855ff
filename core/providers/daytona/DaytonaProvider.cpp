#include "core/providers/daytona/DaytonaProvider.h"

#include "core/providers/daytona/DaytonaSandbox.h"

namespace sandpad {

DaytonaProvider::DaytonaProvider(DaytonaConfig config)
    : RemoteProvider(QStringLiteral("Daytona"), config.basePackages), m_config(std::move(config))
{
}

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

RemoteProvider::CredentialCheck DaytonaProvider::credentialCheck() const
{
    CredentialCheck check;
    check.detail = m_config.organizationId.isEmpty()
                       ? QStringLiteral("API key set (no organization id: the key's default)")
                       : QStringLiteral("API key set, organization %1").arg(m_config.organizationId);
    check.noun = QStringLiteral("API key");
    check.apiUrl = m_config.apiUrl;
    check.secrets = {m_config.apiKey};
    check.probe = DaytonaSandbox::apiRequest(m_config, "GET", QStringLiteral("/sandbox?limit=1"));
    check.requestTimeoutMs = m_config.requestTimeoutMs;
    check.wantsJsonObject = true;
    return check;
}

ValidationItem DaytonaProvider::runtimeItem() const
{
    return {QStringLiteral("runtime"), ValidationItem::Level::Ok,
            QStringLiteral("default snapshot; language label python / javascript")};
}

std::unique_ptr<Sandbox> DaytonaProvider::start(const SandboxOptions& options, RunControl& control)
{
    auto sandbox = std::make_unique<DaytonaSandbox>(m_config);
    sandbox->start(options, control);
    return sandbox;
}

} // namespace sandpad
