#include "core/providers/daytona/DaytonaProvider.h"

#include "core/providers/daytona/DaytonaSandbox.h"
#include "core/providers/http/RemoteCleanup.h"
#include "core/sandbox/ProviderError.h"
#include "core/settings/AppSettings.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

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
                       ? QStringLiteral("API key set (its own organization)")
                       : QStringLiteral("API key set (its own organization; DAYTONA_ORGANIZATION_ID %1 is not sent: "
                                        "Daytona reads it only with JWT sign-in)")
                             .arg(m_config.organizationId);
    check.noun = QStringLiteral("API key");
    check.apiUrl = m_config.apiUrl;
    check.secrets = {m_config.apiKey};
    check.probe = DaytonaSandbox::apiRequest(m_config, "GET", QStringLiteral("/sandbox?limit=1"),
                                             HttpRequest::Retry::Never);
    check.requestTimeoutMs = m_config.requestTimeoutMs;
    check.wantsJsonObject = true;
    return check;
}

ValidationItem DaytonaProvider::runtimeItem() const
{
    const int gib = DaytonaConfig::memoryGiB(m_config.memoryLimitMb);
    return {QStringLiteral("runtime"), ValidationItem::Level::Ok,
            QStringLiteral("default snapshot; language label python / javascript; each run gets %1 GiB of memory "
                           "(the %2 MB limit in whole GiB, rounded up) and 1 vCPU (Daytona's default)")
                .arg(gib)
                .arg(m_config.memoryLimitMb)};
}

QList<RemoteProvider::Listing> DaytonaProvider::listAppSandboxes()
{
    if (const QString problem = configProblem(); !problem.isEmpty())
        throw ProviderError(ProviderError::Kind::NotConfigured, QStringLiteral("Daytona: ") + problem);
    HttpClient http(QStringLiteral("Daytona"));
    http.addSecret(m_config.apiKey);
    QList<Listing> found;
    QString cursor;
    for (int page = 0; page < 100; ++page) { // 20,000 sandboxes: a bound, not a real limit
        const HttpResponse resp = http.sendChecked(
            DaytonaSandbox::listRequest(m_config, QJsonObject{{QLatin1String(kAppLabel), QLatin1String(kAppLabelValue)}},
                                        cursor, 200),
            QStringLiteral("listing sandboxes"));
        const QJsonObject body = QJsonDocument::fromJson(resp.body).object();
        for (const auto& v : body.value(QLatin1String("items")).toArray()) {
            const QJsonObject item = v.toObject();
            const QJsonObject labels = item.value(QLatin1String("labels")).toObject();
            if (labels.value(QLatin1String(kAppLabel)).toString() != QLatin1String(kAppLabelValue))
                continue; // a service that ignores the filter must not make us delete others
            found.append({item.value(QLatin1String("id")).toString(), labels.value(QLatin1String(kRunLabel)).toString(),
                          item.value(QLatin1String("state")).toString()});
        }
        cursor = body.value(QLatin1String("nextCursor")).toString();
        if (cursor.isEmpty())
            break;
    }
    return found;
}

CleanupReport DaytonaProvider::removeAppSandbox(const QString& id)
{
    HttpClient http(QStringLiteral("Daytona"));
    http.addSecret(m_config.apiKey);
    CleanupReport report;
    try {
        const HttpResponse removed = http.send(DaytonaSandbox::apiRequest(
            m_config, "DELETE", QStringLiteral("/sandbox/") + id, HttpRequest::Retry::Idempotent));
        QString problem;
        if (!removed.ok() && removed.status != 404)
            problem = http.errorFor(removed, QStringLiteral("deleting sandbox %1").arg(id)).message();
        RemoteCleanup cleanup;
        cleanup.sandboxId = id;
        cleanup.action = QStringLiteral("Daytona: deletion");
        cleanup.timeoutMs = m_config.confirmTimeoutMs;
        cleanup.requestTimeoutMs = m_config.requestTimeoutMs;
        cleanup.goneStates = {QStringLiteral("destroyed")};
        cleanup.makeGet = [this, id] {
            return DaytonaSandbox::apiRequest(m_config, "GET", QStringLiteral("/sandbox/") + id,
                                              HttpRequest::Retry::Idempotent);
        };
        cleanup.stateOf = [](const QJsonObject& o) { return o.value(QLatin1String("state")).toString(); };
        report = cleanup.confirm(http, problem);
    } catch (const std::exception& e) {
        report.confirmed = false;
        report.detail = http.redact(QStringLiteral("Daytona: deleting sandbox %1 failed: %2").arg(id, QString::fromUtf8(e.what())));
    }
    return report;
}

std::unique_ptr<Sandbox> DaytonaProvider::start(const SandboxOptions& options, RunControl& control)
{
    auto sandbox = std::make_unique<DaytonaSandbox>(m_config);
    sandbox->start(options, control);
    return sandbox;
}

ProviderDescriptor DaytonaProvider::descriptor()
{
    using Kind = ProviderField::Kind;
    ProviderDescriptor d;
    d.name = QStringLiteral("daytona");
    d.displayName = QStringLiteral("Daytona");
    d.fields = {
        {.key = QStringLiteral("apiKey"), .label = QStringLiteral("API &key:"),
         .environmentVariable = QStringLiteral("DAYTONA_API_KEY"), .secret = true},
        {.key = QStringLiteral("organizationId"), .label = QStringLiteral("Or&ganization ID:"),
         .environmentVariable = QStringLiteral("DAYTONA_ORGANIZATION_ID")},
        {.key = QStringLiteral("apiUrl"), .label = QStringLiteral("API &URL:"),
         .environmentVariable = QStringLiteral("DAYTONA_API_URL"), .kind = Kind::Url,
         .placeholder = QStringLiteral("https://app.daytona.io/api")},
    };
    d.create = [](const ProviderSettings& settings) -> std::shared_ptr<SandboxProvider> {
        DaytonaConfig config = DaytonaConfig::fromEnvironment(); // the variables win over settings
        if (!settings.overridden(QStringLiteral("apiUrl")) && !settings.stored(QStringLiteral("apiUrl")).isEmpty())
            config.apiUrl = settings.stored(QStringLiteral("apiUrl"));
        config.organizationId = settings.value(QStringLiteral("organizationId"));
        config.memoryLimitMb = settings.settings().memoryLimitMb;
        config.apiKey = settings.secret(QStringLiteral("apiKey"));
        return std::make_shared<DaytonaProvider>(config);
    };
    return d;
}

} // namespace sandpad
