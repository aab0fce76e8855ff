#pragma once

#include "core/providers/http/HttpClient.h"
#include "core/providers/http/RemoteProvider.h"
#include "core/providers/vercel/VercelConfig.h"

#include <QJsonObject>
#include <optional>

namespace sandpad {

// The requests of the Vercel Sandbox API v2 that the sandbox and the provider share, as
// @vercel/sandbox 3.5.0 sends them (dist/api-client/api-client.js): bearer token, `teamId` on
// every request, JSON bodies. A named sandbox is addressed by name with `projectId`; its running
// VM (a session) under /v2/sandboxes/sessions/{sessionId}.
class VercelApi {
public:
    explicit VercelApi(const VercelConfig& config);

    // `path` below the API base; `query` after teamId; a JSON body when given.
    HttpRequest request(const QByteArray& method, const QString& path, const QJsonObject* body = nullptr,
                        const QList<QPair<QString, QString>>& query = {}) const;
    // GET /v2/sandboxes/{name} without resuming a stopped session: 404 once it is deleted.
    HttpRequest getSandbox(const QString& name) const;
    // DELETE /v2/sandboxes/{name} with its snapshots (none for a non-persistent one).
    HttpRequest deleteSandbox(const QString& name) const;
    // GET /v2/sandboxes filtered by one tag `key:value`, one page (`cursor` empty: the first).
    HttpRequest listSandboxes(const QString& tag, const QString& cursor, int limit) const;

    // Every sandbox carrying `tag`, following pagination.next. Throws ProviderError.
    QList<RemoteProvider::Listing> listAll(HttpClient& http, const QString& tag) const;
    // Deletes sandbox `name` and confirms it gone (GET -> 404) within `confirmTimeoutMs`; never throws.
    CleanupReport remove(HttpClient& http, const QString& name) const;

    // The status a sandbox answer reports: its session's, else the sandbox's.
    static QString statusOf(const QJsonObject& answer);
    // The wait before retry `attempt` (1 or 2) of a 429/5xx answer; nullopt when the service asks
    // for more than 20 s (HttpClient's limit), which the caller reports instead of waiting.
    static std::optional<qint64> retryDelay(const HttpResponse& response, int attempt);
    // "Vercel: rate limited, try again in N s (what)" for such an answer.
    static ProviderError rateLimited(const HttpResponse& response, const QString& what);

    const QString& projectId() const { return m_projectId; }
    QStringList secrets() const { return {m_token, m_oidcToken}; }

private:
    QString m_apiUrl, m_bearer, m_token, m_oidcToken, m_teamId, m_projectId;
    int m_requestTimeoutMs;
    int m_confirmTimeoutMs;
};

} // namespace sandpad
