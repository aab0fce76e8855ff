#include "core/providers/vercel/VercelApi.h"

#include "core/providers/http/RemoteCleanup.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>
#include <cmath>

namespace sandpad {

VercelApi::VercelApi(const VercelConfig& config)
    : m_apiUrl(config.apiUrl), m_bearer(config.bearer()), m_token(config.token), m_oidcToken(config.oidcToken),
      m_teamId(config.effectiveTeamId()), m_projectId(config.effectiveProjectId()),
      m_requestTimeoutMs(config.requestTimeoutMs), m_confirmTimeoutMs(config.confirmTimeoutMs)
{
}

HttpRequest VercelApi::request(const QByteArray& method, const QString& path, const QJsonObject* body,
                               const QList<QPair<QString, QString>>& query) const
{
    HttpRequest rq;
    rq.method = method;
    rq.url = QUrl(m_apiUrl + path);
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("teamId"), m_teamId);
    for (const auto& item : query)
        q.addQueryItem(item.first, item.second);
    rq.url.setQuery(q);
    rq.headers.emplaceBack("Authorization", "Bearer " + m_bearer.toUtf8());
    if (body) {
        rq.headers.emplaceBack("Content-Type", "application/json");
        rq.body = QJsonDocument(*body).toJson(QJsonDocument::Compact);
    }
    rq.deadline = QDeadlineTimer(m_requestTimeoutMs);
    return rq;
}

HttpRequest VercelApi::getSandbox(const QString& name) const
{
    return request("GET", QStringLiteral("/v2/sandboxes/") + QString::fromLatin1(QUrl::toPercentEncoding(name)), nullptr,
                   {{QStringLiteral("projectId"), m_projectId}, {QStringLiteral("resume"), QStringLiteral("false")}});
}

HttpRequest VercelApi::deleteSandbox(const QString& name) const
{
    return request("DELETE", QStringLiteral("/v2/sandboxes/") + QString::fromLatin1(QUrl::toPercentEncoding(name)),
                   nullptr,
                   {{QStringLiteral("projectId"), m_projectId}, {QStringLiteral("deleteOrphanSnapshots"), QStringLiteral("true")}});
}

HttpRequest VercelApi::listSandboxes(const QString& tag, const QString& cursor, int limit) const
{
    QList<QPair<QString, QString>> query{{QStringLiteral("project"), m_projectId},
                                         {QStringLiteral("limit"), QString::number(limit)},
                                         {QStringLiteral("tags"), tag}};
    if (!cursor.isEmpty())
        query.append({QStringLiteral("cursor"), cursor});
    return request("GET", QStringLiteral("/v2/sandboxes"), nullptr, query);
}

QList<RemoteProvider::Listing> VercelApi::listAll(HttpClient& http, const QString& tag) const
{
    QList<RemoteProvider::Listing> all;
    QString cursor;
    QStringList seen; // a cursor the service repeats would loop forever
    for (;;) {
        const HttpResponse resp = http.sendChecked(listSandboxes(tag, cursor, 100), QStringLiteral("listing sandboxes"));
        const QJsonObject page = QJsonDocument::fromJson(resp.body).object();
        if (!page.value(QLatin1String("sandboxes")).isArray())
            throw ProviderError(ProviderError::Kind::Protocol,
                                QStringLiteral("Vercel: the sandbox list answered no `sandboxes` array"));
        for (const auto& v : page.value(QLatin1String("sandboxes")).toArray()) {
            const QJsonObject s = v.toObject();
            all.append({s.value(QLatin1String("name")).toString(),
                        s.value(QLatin1String("tags")).toObject().value(QLatin1String(RemoteProvider::kRunLabel)).toString(),
                        s.value(QLatin1String("status")).toString()});
        }
        cursor = page.value(QLatin1String("pagination")).toObject().value(QLatin1String("next")).toString();
        if (cursor.isEmpty())
            return all;
        if (seen.contains(cursor))
            throw ProviderError(ProviderError::Kind::Protocol,
                                QStringLiteral("Vercel: the sandbox list repeated its cursor %1").arg(cursor));
        seen << cursor;
    }
}

CleanupReport VercelApi::remove(HttpClient& http, const QString& name) const
{
    QString problem;
    try {
        const HttpResponse removed = http.send(deleteSandbox(name));
        if (!removed.ok() && removed.status != 404) // 404: already gone
            problem = http.errorFor(removed, QStringLiteral("deleting the sandbox")).message();
    } catch (const ProviderError& e) {
        problem = e.message();
    }
    RemoteCleanup cleanup;
    cleanup.sandboxId = name;
    cleanup.action = QStringLiteral("Vercel: deletion");
    cleanup.timeoutMs = m_confirmTimeoutMs;
    cleanup.requestTimeoutMs = m_requestTimeoutMs;
    cleanup.makeGet = [this, name] { return getSandbox(name); };
    cleanup.stateOf = [](const QJsonObject& o) { return statusOf(o); };
    return cleanup.confirm(http, problem);
}

QString VercelApi::statusOf(const QJsonObject& answer)
{
    const QJsonObject session = answer.value(QLatin1String("session")).toObject();
    if (session.contains(QLatin1String("status")))
        return session.value(QLatin1String("status")).toString();
    return answer.value(QLatin1String("sandbox")).toObject().value(QLatin1String("status")).toString();
}

std::optional<qint64> VercelApi::retryDelay(const HttpResponse& response, int attempt)
{
    // The SDK (with-retry.js) waits no longer than HttpClient does.
    if (response.retryAfterSeconds() * 1000 > HttpClient::kMaxRetryAfterMs)
        return std::nullopt;
    return HttpClient::retryDelayMs(response, attempt);
}

ProviderError VercelApi::rateLimited(const HttpResponse& response, const QString& what)
{
    return ProviderError(ProviderError::Kind::RateLimited,
                         QStringLiteral("Vercel: rate limited, try again in %1 s (%2)")
                             .arg(qint64(std::ceil(response.retryAfterSeconds())))
                             .arg(what));
}

} // namespace sandpad
