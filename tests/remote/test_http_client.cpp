// HttpClient's retry rules (HttpRequest::Retry) against a scripted loopback server: what is sent
// again after a 5xx, a 429, a dropped connection or a refused one, and what never is.
#include "core/providers/http/HttpClient.h"
#include "core/sandbox/ProviderError.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

using namespace sandpad;

namespace {
// Answers each request with the next scripted reply ("close" drops the connection once the
// request is in); one request per connection (Connection: close).
class ScriptedServer : public QObject {
public:
    explicit ScriptedServer(QStringList replies) : m_replies(std::move(replies))
    {
        m_server.listen(QHostAddress::LocalHost);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = m_server.nextPendingConnection())
                connect(s, &QTcpSocket::readyRead, this, [this, s] { serve(s); });
        });
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/x").arg(m_server.serverPort())); }
    int requests = 0;

private:
    void serve(QTcpSocket* s)
    {
        QByteArray& buffer = m_buffers[s];
        buffer += s->readAll();
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const qsizetype lengthAt = buffer.toLower().indexOf("content-length:");
        const qsizetype length = lengthAt < 0 ? 0 : buffer.mid(lengthAt + 15, buffer.indexOf('\r', lengthAt) - lengthAt - 15).trimmed().toLongLong();
        if (buffer.size() < end + 4 + length)
            return;
        ++requests;
        const QString reply = m_replies.isEmpty() ? QStringLiteral("200") : m_replies.takeFirst();
        if (reply == u"close") {
            s->abort();
            s->deleteLater();
            return;
        }
        const QStringList parts = reply.split(QLatin1Char(' '));
        QByteArray head = "HTTP/1.1 " + parts.first().toLatin1() + " X\r\nConnection: close\r\nContent-Length: 2\r\n";
        if (parts.size() > 1)
            head += "Retry-After: " + parts.at(1).toLatin1() + "\r\n";
        s->write(head + "\r\n{}");
        s->disconnectFromHost();
    }
    QTcpServer m_server;
    QStringList m_replies;
    QHash<QTcpSocket*, QByteArray> m_buffers;
};

HttpRequest post(const QUrl& url, HttpRequest::Retry retry)
{
    HttpRequest rq;
    rq.method = "POST";
    rq.url = url;
    rq.body = "{}";
    rq.headers.emplaceBack("Content-Type", "application/json");
    rq.retry = retry;
    rq.deadline = QDeadlineTimer(20000);
    return rq;
}
} // namespace

class TestHttpClient : public QObject {
    Q_OBJECT
private slots:
    void notIdempotentIsNotSentAgainAfter5xx()
    {
        ScriptedServer server({QStringLiteral("500"), QStringLiteral("200")});
        HttpClient http(QStringLiteral("Test"));
        const HttpResponse r = http.send(post(server.url(), HttpRequest::Retry::NotIdempotent));
        QCOMPARE(r.status, 500);
        QCOMPARE(server.requests, 1);
        QVERIFY(http.errorFor(r, QStringLiteral("creating")).message().contains(QStringLiteral("service unavailable")));
    }

    void idempotentIsRetriedOn5xx()
    {
        ScriptedServer server({QStringLiteral("502"), QStringLiteral("503"), QStringLiteral("200")});
        HttpClient http(QStringLiteral("Test"));
        QVERIFY(http.send(post(server.url(), HttpRequest::Retry::Idempotent)).ok());
        QCOMPARE(server.requests, 3);
        // ByMethod: a POST is not idempotent, a GET is.
        HttpRequest get = post(server.url(), HttpRequest::Retry::ByMethod);
        QVERIFY(!get.idempotent());
        get.method = "GET";
        QVERIFY(get.idempotent());
    }

    void recoverMakesTheRetrySafe()
    {
        ScriptedServer server({QStringLiteral("500"), QStringLiteral("200"), QStringLiteral("500")});
        HttpClient http(QStringLiteral("Test"));
        int lookups = 0;
        HttpRequest rq = post(server.url(), HttpRequest::Retry::NotIdempotent);
        rq.recover = [&]() -> std::optional<HttpResponse> { ++lookups; return std::nullopt; }; // nothing made
        QVERIFY(http.send(rq).ok());
        QCOMPARE(server.requests, 2);
        QCOMPARE(lookups, 1);
        // The lookup finds what the failed attempt made: it stands for the answer, nothing is resent.
        rq.recover = [&]() -> std::optional<HttpResponse> {
            HttpResponse found;
            found.status = 200;
            found.body = R"({"id":"made"})";
            return found;
        };
        const HttpResponse r = http.send(rq);
        QVERIFY(r.ok() && r.recovered);
        QCOMPARE(r.body, QByteArray(R"({"id":"made"})"));
        QCOMPARE(server.requests, 3);
    }

    void droppedConnectionIsResentOnlyWhenIdempotent()
    {
        ScriptedServer server({QStringLiteral("close"), QStringLiteral("200"), QStringLiteral("close")});
        HttpClient http(QStringLiteral("Test"));
        QVERIFY(http.send(post(server.url(), HttpRequest::Retry::Idempotent)).ok());
        QCOMPARE(server.requests, 2);
        try {
            http.send(post(server.url(), HttpRequest::Retry::NotIdempotent));
            QFAIL("a dropped non-idempotent request must not be sent again");
        } catch (const ProviderError& e) {
            QCOMPARE(e.kind(), ProviderError::Kind::Unavailable);
        }
        QCOMPARE(server.requests, 3);
    }

    void refusedConnectionIsRetriedForAnyMethod()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/x").arg(probe.serverPort()));
        probe.close(); // nothing listens there now: connection refused
        HttpClient http(QStringLiteral("Test"));
        QVERIFY_THROWS_EXCEPTION(ProviderError, http.send(post(url, HttpRequest::Retry::NotIdempotent)));
        QCOMPARE(http.requestCount(), 3); // nothing reached a service: safe to try again
        QVERIFY_THROWS_EXCEPTION(ProviderError, http.send(post(url, HttpRequest::Retry::Never)));
        QCOMPARE(http.requestCount(), 4);
    }

    void longRetryAfterIsNotWaitedOut()
    {
        ScriptedServer server({QStringLiteral("429 45"), QStringLiteral("200")});
        HttpClient http(QStringLiteral("Test"));
        const HttpResponse r = http.send(post(server.url(), HttpRequest::Retry::NotIdempotent));
        QCOMPARE(r.status, 429);
        QCOMPARE(server.requests, 1);
        const ProviderError e = http.errorFor(r, QStringLiteral("creating a sandbox"));
        QCOMPARE(e.kind(), ProviderError::Kind::RateLimited);
        QCOMPARE(e.message(), QStringLiteral("rate limited by Test, try again in 45 s (creating a sandbox)"));
        // A short one is waited, then the request (a refusal did nothing) is sent again.
        ScriptedServer shortWait({QStringLiteral("429 0"), QStringLiteral("200")});
        QVERIFY(http.send(post(shortWait.url(), HttpRequest::Retry::NotIdempotent)).ok());
        QCOMPARE(shortWait.requests, 2);
    }
};

QTEST_GUILESS_MAIN(TestHttpClient)
#include "test_http_client.moc"
