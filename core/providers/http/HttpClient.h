#pragma once

#include "core/sandbox/ProviderError.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QList>
#include <QPair>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QThread>
#include <QUrl>
#include <functional>
#include <memory>

class QNetworkAccessManager;
class QHttpMultiPart;

namespace sandpad {

class RunControl;

// One HTTP request of a remote provider.
struct HttpRequest {
    QByteArray method = "GET";
    QUrl url;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    // Multipart body (Daytona uploads). Built fresh for every attempt, since a sent multipart
    // is consumed by Qt.
    std::function<QHttpMultiPart*()> multipart;
    // Streamed responses (long-lived log streams) get their bytes here as they arrive and have
    // no transfer timeout; the body then stays empty.
    std::function<void(const QByteArray&)> onData;
    // Hard stop for this request (the run's wall clock, or the call's own limit).
    QDeadlineTimer deadline{QDeadlineTimer::Forever};
    bool retry = true; // 429 and 5xx are retried twice (providers.md)
};

struct HttpResponse {
    enum class End { Finished, Cancelled, DeadlineExpired };
    End end = End::Finished;
    int status = 0;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;
    int attempts = 0;
    QByteArray header(const QByteArray& name) const; // case-insensitive; empty when absent
    bool ok() const { return end == End::Finished && status >= 200 && status < 300; }
};

// Blocking HTTP for remote sandboxes: runs on the calling (worker) thread with a
// QNetworkAccessManager created in that thread and a local QEventLoop (no busy waiting).
// Cancellation comes from RunControl::cancelRequested, queued into the loop. Tokens are redacted
// from every message this class produces.
class HttpClient {
public:
    explicit HttpClient(QString service);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // Secrets to scrub from messages (tokens, API keys). Empty strings are ignored.
    void addSecret(const QString& secret);
    QString redact(QString text) const;

    // The control whose cancellation aborts requests (null: not cancellable, e.g. cleanup).
    void setControl(RunControl* control);
    RunControl* control() const;

    // Sends with the retry policy (429/5xx twice: ~400 ms, ~800 ms, honouring Retry-After up to
    // 20 s). Answers every HTTP status; cancellation and the deadline are reported in `end`.
    // Throws ProviderError(Unavailable) when the service cannot be reached or a stream drops.
    HttpResponse send(const HttpRequest& request);

    // send(), then: cancellation -> ProviderError(Cancelled), deadline -> ProviderError(Unavailable),
    // a non-2xx status -> ProviderError named after the cause. `what` names the step.
    HttpResponse sendChecked(const HttpRequest& request, const QString& what);

    // The ProviderError for a failed HTTP answer, with the service's own message when it has one.
    ProviderError errorFor(const HttpResponse& response, const QString& what) const;

    // Waits without spinning (a local event loop); returns false when cancelled.
    bool sleep(qint64 ms, bool cancellable = true);

    // Number of HTTP requests sent so far (attempts included), for the request-count reports.
    int requestCount() const { return m_requests; }

    // The delay before retry number `attempt` (1 or 2), from Retry-After / Retry-After-* headers.
    static qint64 retryDelayMs(const HttpResponse& response, int attempt);

private:
    HttpResponse sendOnce(const HttpRequest& request);
    QNetworkAccessManager* manager();

    QString m_service;
    QStringList m_secrets;
    QPointer<RunControl> m_control;
    std::unique_ptr<QNetworkAccessManager> m_manager;
    QThread* m_managerThread = nullptr;
    int m_requests = 0;
};

} // namespace sandpad
