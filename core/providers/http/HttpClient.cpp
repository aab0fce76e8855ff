#include "core/providers/http/HttpClient.h"

#include "core/sandbox/RunControl.h"

#include <QEventLoop>
#include <QHttpMultiPart>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTimer>
#include <atomic>
#include <cmath>
#include <cstring>

namespace sandpad {

namespace {
constexpr int kMaxRetries = 2;

// The body of a request that must not be sent twice. Qt's HTTP connection re-sends a request
// whose connection closed before any answer (its reconnect attempts), for any method; it needs
// to rewind the body to do so. This one cannot be rewound, so Qt reports ContentReSendError
// instead, and the retry rules decide.
class OneShotBody : public QIODevice {
public:
    OneShotBody(QByteArray data, QObject* parent) : QIODevice(parent), m_data(std::move(data))
    {
        open(QIODevice::ReadOnly);
    }
    bool isSequential() const override { return true; }
    bool reset() override { return false; }
    qint64 bytesAvailable() const override { return m_data.size() - m_pos + QIODevice::bytesAvailable(); }
    qint64 size() const override { return m_data.size(); }

protected:
    qint64 readData(char* out, qint64 max) override
    {
        const qint64 n = std::min<qint64>(max, m_data.size() - m_pos);
        if (n <= 0)
            return m_pos >= m_data.size() ? -1 : 0;
        std::memcpy(out, m_data.constData() + m_pos, size_t(n));
        m_pos += n;
        return n;
    }
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    QByteArray m_data;
    qint64 m_pos = 0;
};

// The service's own error text: Vercel {"error":{"code","message"}}, Daytona {"message": str|[str]}.
QString serviceMessage(const QByteArray& body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!doc.isObject())
        return QString::fromUtf8(body.left(200)).trimmed();
    const QJsonObject obj = doc.object();
    if (obj.value(QLatin1String("error")).isObject()) {
        const QJsonObject err = obj.value(QLatin1String("error")).toObject();
        const QString code = err.value(QLatin1String("code")).toString();
        const QString msg = err.value(QLatin1String("message")).toString();
        return code.isEmpty() ? msg : QStringLiteral("%1: %2").arg(code, msg);
    }
    const QJsonValue msg = obj.value(QLatin1String("message"));
    if (msg.isArray()) {
        QStringList parts;
        for (const auto& v : msg.toArray())
            parts << v.toString();
        return parts.join(QLatin1String("; "));
    }
    if (msg.isString())
        return msg.toString();
    return obj.value(QLatin1String("error")).toString();
}
} // namespace

bool HttpRequest::idempotent() const
{
    switch (retry) {
    case Retry::Idempotent:
        return true;
    case Retry::NotIdempotent:
    case Retry::Never:
        return false;
    case Retry::ByMethod:
        break;
    }
    return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE" || method == "OPTIONS";
}

double HttpResponse::retryAfterSeconds() const
{
    double seconds = -1;
    for (const auto& h : headers) {
        const QByteArray name = h.first.toLower();
        if (name == "retry-after" || name.startsWith("retry-after-")) {
            bool ok = false;
            const double value = h.second.trimmed().toDouble(&ok);
            if (ok && value >= 0)
                seconds = std::max(seconds, value);
        }
    }
    return seconds;
}

QByteArray HttpResponse::header(const QByteArray& name) const
{
    for (const auto& h : headers)
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    return {};
}

namespace {
quint64 currentThreadNumber()
{
    static std::atomic<quint64> next{0};
    thread_local const quint64 mine = ++next;
    return mine;
}
} // namespace

HttpClient::HttpClient(QString service) : m_service(std::move(service)) {}

HttpClient::~HttpClient()
{
    // A manager must die in its own thread.
    if (m_manager && m_managerThread != currentThreadNumber())
        m_manager.release()->deleteLater();
}

void HttpClient::addSecret(const QString& secret)
{
    if (!secret.isEmpty() && !m_secrets.contains(secret))
        m_secrets << secret;
}

QString HttpClient::redact(QString text) const
{
    for (const auto& s : m_secrets)
        text.replace(s, QLatin1String("[redacted]"));
    static const QRegularExpression bearer(QStringLiteral("(Bearer\\s+)[^\\s\"']+"),
                                           QRegularExpression::CaseInsensitiveOption);
    text.replace(bearer, QStringLiteral("\\1[redacted]"));
    return text;
}

void HttpClient::setControl(RunControl* control) { m_control = control; }
RunControl* HttpClient::control() const { return m_control.data(); }

QNetworkAccessManager* HttpClient::manager()
{
    if (!m_manager || m_managerThread != currentThreadNumber()) {
        if (m_manager)
            m_manager.release()->deleteLater();
        m_manager = std::make_unique<QNetworkAccessManager>();
        m_manager->setAutoDeleteReplies(false);
        m_managerThread = currentThreadNumber();
    }
    return m_manager.get();
}

bool HttpClient::sleep(qint64 ms, bool cancellable)
{
    RunControl* control = cancellable ? m_control.data() : nullptr;
    if (control && control->isCancelled())
        return false;
    if (ms <= 0)
        return true;
    QEventLoop loop;
    bool cancelled = false;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    if (control)
        QObject::connect(control, &RunControl::cancelRequested, &loop, [&] {
            cancelled = true;
            loop.quit();
        }, Qt::QueuedConnection);
    loop.exec();
    return !cancelled && !(control && control->isCancelled());
}

qint64 HttpClient::retryDelayMs(const HttpResponse& response, int attempt)
{
    const double seconds = response.retryAfterSeconds();
    if (seconds >= 0)
        return std::min(qint64(seconds * 1000), kMaxRetryAfterMs);
    return attempt <= 1 ? 400 : 800;
}

HttpResponse HttpClient::sendOnce(const HttpRequest& rq, TransportFailure& failure)
{
    HttpResponse resp;
    RunControl* control = m_control.data();
    if (control && control->isCancelled()) {
        resp.end = HttpResponse::End::Cancelled;
        return resp;
    }
    if (rq.deadline.hasExpired()) {
        resp.end = HttpResponse::End::DeadlineExpired;
        return resp;
    }

    QNetworkRequest nr(rq.url);
    for (const auto& h : rq.headers)
        nr.setRawHeader(h.first, h.second);
    nr.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    nr.setTransferTimeout(0); // the deadline bounds every request

    ++m_requests;
    QNetworkReply* reply = nullptr;
    if (rq.multipart) {
        QHttpMultiPart* mp = rq.multipart();
        reply = manager()->sendCustomRequest(nr, rq.method, mp);
        mp->setParent(reply);
    } else if (rq.method == "GET") {
        reply = manager()->get(nr);
    } else if (rq.method == "DELETE" && rq.body.isEmpty()) {
        reply = manager()->deleteResource(nr);
    } else if (!rq.idempotent()) {
        nr.setAttribute(QNetworkRequest::DoNotBufferUploadDataAttribute, true);
        nr.setHeader(QNetworkRequest::ContentLengthHeader, rq.body.size());
        auto* body = new OneShotBody(rq.body, nullptr);
        reply = manager()->sendCustomRequest(nr, rq.method, body);
        body->setParent(reply);
    } else {
        reply = manager()->sendCustomRequest(nr, rq.method, rq.body);
    }
    std::unique_ptr<QNetworkReply> owner(reply);

    QEventLoop loop;
    QTimer deadlineTimer;
    deadlineTimer.setSingleShot(true);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    if (!rq.deadline.isForever()) {
        QObject::connect(&deadlineTimer, &QTimer::timeout, &loop, [&] {
            resp.end = HttpResponse::End::DeadlineExpired;
            reply->abort();
        });
        deadlineTimer.start(std::chrono::milliseconds(std::max<qint64>(0, rq.deadline.remainingTime())));
    }
    if (control)
        QObject::connect(control, &RunControl::cancelRequested, &loop, [&] {
            resp.end = HttpResponse::End::Cancelled;
            reply->abort();
        }, Qt::QueuedConnection);
    bool delivered = false; // a stream that delivered bytes is never sent again
    if (rq.onData)
        QObject::connect(reply, &QNetworkReply::readyRead, &loop, [&] {
            const QByteArray chunk = reply->readAll();
            if (!chunk.isEmpty()) {
                delivered = true;
                rq.onData(chunk);
            }
        });
    if (control && control->isCancelled()) { // cancelled between the check above and connect()
        resp.end = HttpResponse::End::Cancelled;
        reply->abort();
    }
    if (!reply->isFinished())
        loop.exec();

    resp.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    resp.headers = reply->rawHeaderPairs();
    if (resp.end != HttpResponse::End::Finished)
        return resp;
    const QByteArray rest = reply->readAll();
    if (rq.onData) {
        if (!rest.isEmpty())
            rq.onData(rest);
    } else {
        resp.body = rest;
    }
    const auto err = reply->error();
    // 1..199: connection, socket and proxy failures (no usable HTTP answer, or a cut stream).
    if (err > 0 && (int(err) < 200 || resp.status == 0)) {
        const QString what = resp.status != 0
                                 ? QStringLiteral("%1: the connection dropped during %2 %3 (%4)")
                                 : QStringLiteral("%1: service unavailable: %2 %3 failed (%4)");
        failure.message = redact(what.arg(m_service, QString::fromLatin1(rq.method), rq.url.path(),
                                          reply->errorString()));
        using Phase = TransportFailure::Phase;
        if (delivered || (rq.onData && resp.status != 0))
            failure.phase = Phase::Other; // a stream that began answering: never sent again
        else if (err == QNetworkReply::ConnectionRefusedError || err == QNetworkReply::HostNotFoundError ||
                 err == QNetworkReply::ProxyConnectionRefusedError || err == QNetworkReply::ProxyNotFoundError)
            failure.phase = Phase::Connect;
        else if (err == QNetworkReply::RemoteHostClosedError || err == QNetworkReply::ContentReSendError)
            failure.phase = Phase::MidFlight; // the service may have had the request
        else
            failure.phase = Phase::Other;
    }
    return resp;
}

bool HttpClient::retryable(const HttpRequest& rq, const TransportFailure& failure) const
{
    using Phase = TransportFailure::Phase;
    if (rq.retry == HttpRequest::Retry::Never)
        return false;
    // The Daytona SDK's RetryAdapter: connect-phase failures on any method, a dropped connection
    // only where sending again cannot do a thing twice.
    return failure.phase == Phase::Connect || (failure.phase == Phase::MidFlight && rq.idempotent());
}

HttpResponse HttpClient::send(const HttpRequest& rq)
{
    for (int attempt = 0;; ++attempt) {
        TransportFailure failure;
        HttpResponse resp = sendOnce(rq, failure);
        resp.attempts = attempt + 1;
        if (resp.end != HttpResponse::End::Finished)
            return resp;
        qint64 delay = 0;
        if (failure.phase != TransportFailure::Phase::None) {
            const bool mayHaveActed = failure.phase != TransportFailure::Phase::Connect;
            const bool recoverable = mayHaveActed && !rq.idempotent() && rq.recover &&
                                     failure.phase == TransportFailure::Phase::MidFlight;
            if (attempt >= kMaxRetries || (!retryable(rq, failure) && !recoverable))
                throw ProviderError(ProviderError::Kind::Unavailable, failure.message);
            if (recoverable) {
                if (std::optional<HttpResponse> found = rq.recover()) {
                    found->recovered = true;
                    found->attempts = attempt + 1;
                    return *found;
                }
            }
            delay = 250 * (attempt + 1) + qint64(QRandomGenerator::global()->bounded(100));
        } else if (resp.status == 429) {
            // A refusal: nothing was done, so any request may be sent again, after the wait asked.
            if (rq.retry == HttpRequest::Retry::Never || attempt >= kMaxRetries ||
                resp.retryAfterSeconds() * 1000 > kMaxRetryAfterMs)
                return resp;
            delay = retryDelayMs(resp, attempt + 1);
        } else if (resp.status >= 500) {
            if (rq.retry == HttpRequest::Retry::Never || attempt >= kMaxRetries)
                return resp;
            if (!rq.idempotent()) {
                // The service may have done it before failing: only a lookup makes a retry safe.
                if (!rq.recover)
                    return resp;
                if (std::optional<HttpResponse> found = rq.recover()) {
                    found->recovered = true;
                    found->attempts = attempt + 1;
                    return *found;
                }
            }
            delay = retryDelayMs(resp, attempt + 1);
        } else {
            return resp;
        }
        if (!rq.deadline.isForever() && delay >= rq.deadline.remainingTime())
            return resp;
        if (!sleep(delay)) {
            resp.end = HttpResponse::End::Cancelled;
            return resp;
        }
    }
}

HttpResponse HttpClient::sendChecked(const HttpRequest& rq, const QString& what)
{
    HttpResponse resp = send(rq);
    if (resp.end == HttpResponse::End::Cancelled)
        throw ProviderError(ProviderError::Kind::Cancelled,
                            QStringLiteral("%1: %2 cancelled").arg(m_service, what));
    if (resp.end == HttpResponse::End::DeadlineExpired)
        throw ProviderError(ProviderError::Kind::Unavailable,
                            QStringLiteral("%1: %2 timed out (no answer in time)").arg(m_service, what));
    if (!resp.ok())
        throw errorFor(resp, what);
    return resp;
}

ProviderError HttpClient::errorFor(const HttpResponse& resp, const QString& what) const
{
    using Kind = ProviderError::Kind;
    Kind kind = Kind::Protocol;
    QString cause;
    const int s = resp.status;
    if (s == 401 || s == 403) {
        kind = Kind::Unauthorized;
        cause = QStringLiteral("bad credentials (the token or API key was refused)");
    } else if (s == 402) {
        kind = Kind::PaymentRequired;
        cause = QStringLiteral("payment required (the account is blocked or out of credit)");
    } else if (s == 404) {
        kind = Kind::NotFound;
        cause = QStringLiteral("not found");
    } else if (s == 410 || s == 422) {
        kind = Kind::SandboxStopped;
        cause = QStringLiteral("sandbox stopped");
    } else if (s == 429) {
        kind = Kind::RateLimited;
        const double wait = resp.retryAfterSeconds();
        if (wait * 1000 > kMaxRetryAfterMs)
            return ProviderError(kind, QStringLiteral("rate limited by %1, try again in %2 s (%3)")
                                           .arg(m_service)
                                           .arg(qint64(std::ceil(wait)))
                                           .arg(what));
        cause = QStringLiteral("rate limited (still refused after %1 attempts)").arg(resp.attempts);
    } else if (s == 408) {
        kind = Kind::Unavailable;
        cause = QStringLiteral("request timed out on the service");
    } else if (s >= 500) {
        kind = Kind::Unavailable;
        cause = QStringLiteral("service unavailable (after %1 attempts)").arg(resp.attempts);
    } else if (s == 400) {
        cause = QStringLiteral("bad request");
    } else {
        cause = QStringLiteral("unexpected answer");
    }
    QString text = QStringLiteral("%1: %2 failed: %3 (HTTP %4)").arg(m_service, what, cause).arg(s);
    const QString detail = serviceMessage(resp.body);
    if (!detail.isEmpty())
        text += QStringLiteral(": ") + detail;
    return ProviderError(kind, redact(text));
}

} // namespace sandpad
