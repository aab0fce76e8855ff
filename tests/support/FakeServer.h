#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QString>

// Starts one of tests/fakes/fake_*.py on a free loopback port and talks to its /__fake/ endpoints.
class FakeServer {
public:
    explicit FakeServer(const QString& script, const QStringList& args = {});
    ~FakeServer();
    bool started() const { return m_port > 0; }
    int port() const { return m_port; }
    QString base() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }

    void reset();
    // Every running sandbox's own timeout (Vercel) or auto-stop (Daytona) passes now: the service
    // stops it, as it would by the clock.
    void expire();
    // {"faults":[...], "options":{...}} as the fake's docstring describes.
    void inject(const QJsonObject& faultsAndOptions);
    // One fault: the next `count` requests whose path matches `pathPattern` (and whose method is
    // `method`, when given) get `status`, with Retry-After: `retryAfterSeconds` when it is > 0.
    void injectFault(const QString& pathPattern, int status, int count, const QString& method = {},
                     int retryAfterSeconds = 0);
    // One option, e.g. "stop_never_confirms": true.
    void injectOption(const QString& name, const QJsonValue& value);
    QJsonArray requests();
    QJsonObject sandboxes();
    // Requests whose "METHOD path" matches the regular expression.
    int count(const QString& pattern);
    // Sum of the fake's own handling time (ms) over all logged requests.
    double serverMs();
    // True when every sandbox the fake created is destroyed (no process, no temp folder).
    bool allCleaned(QString* why = nullptr);

private:
    QByteArray call(const QByteArray& method, const QString& path, const QByteArray& body = {});
    QProcess m_proc;
    int m_port = 0;
};
