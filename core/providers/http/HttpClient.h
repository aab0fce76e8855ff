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
#include <optional>

class QNetworkAccessManager;
class QHttpMultiPart;

namespace sandpad {

class RunControl;
struct HttpResponse;

// One HTTP request of a remote provider.
struct HttpRequest {
    // What may be sent again, and when (docs/providers.md, "Retries"). Transport failures are
    // retried as the vendors' SDKs do: one before anything was sent (connection refused, host not
    // found) on any request, one after (the connection dropped) only on an idempotent one; two
    // retries, 250 ms x attempt + jitter. A 429 is a refusal (nothing was done): retried after its
    // Retry-After, unless that is over 20 s (then it fails at once: "try again in N s").
    enum class Retry {
        ByMethod,      // GET, HEAD, PUT, DELETE: Idempotent; anything else: NotIdempotent
        Idempotent,    // also retried on 5xx: twice, ~400 ms then ~800 ms
        NotIdempotent, // never again after an answer it may have acted on (5xx, a dropped
                       // connection), unless `recover` makes that safe (below)
        Never,         // sent once whatever happens (probes)
    };
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
    Retry retry = Retry::ByMethod;
    // For a NotIdempotent request after a 5xx or a dropped connection: finds what the first attempt
    // may have made (e.g. a sandbox by its run label). Its answer, when it has one, stands for the
    // request's (no second one is made); nullopt: nothing was made, so sending again is safe.
    // Throws ProviderError when it cannot tell (then nothing is sent again).
    std::function<std::optional<HttpResponse>()> recover;

    bool idempotent() const;
};

struct HttpResponse {
    enum class End { Finished, Cancelled, DeadlineExpired };
    End end = End::Finished;
    int status = 0;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;
    int attempts = 0;
    bool recovered = false; // the answer came from HttpRequest::recover, not from the request
    QByteArray header(const QByteArray& name) const; // case-insensitive; empty when absent
    // Seconds a 429 asks to wait (Retry-After, or Daytona's Retry-After-<limit>); -1 without one.
    double retryAfterSeconds() const;
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

    // Sends with the request's retry policy (HttpRequest::Retry). Answers every HTTP status;
    // cancellation and the deadline are reported in `end`.
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
    // A Retry-After longer than this is not waited out: the 429 fails at once (the Vercel SDK's
    // rule, applied to both services).
    static constexpr qint64 kMaxRetryAfterMs = 20000;

private:
    // How an attempt failed below HTTP (no usable answer).
    struct TransportFailure {
        enum class Phase { None, Connect, MidFlight, Other };
        Phase phase = Phase::None; // Connect: nothing reached the service; MidFlight: it may have
        QString message;
    };
    HttpResponse sendOnce(const HttpRequest& request, TransportFailure& failure);
    bool retryable(const HttpRequest& request, const TransportFailure& failure) const;
    QNetworkAccessManager* manager();

    QString m_service;
    QStringList m_secrets;
    QPointer<RunControl> m_control;
    std::unique_ptr<QNetworkAccessManager> m_manager;
    // The thread m_manager was made in, by a number never reused: a QThread's address is (a run's
    // thread goes, the next run's may get it), and a remote session's sandbox serves many runs.
    quint64 m_managerThread = 0;
    int m_requests = 0;
};

} // namespace sandpad
