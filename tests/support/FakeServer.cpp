#include "FakeServer.h"

#include "core/providers/http/HttpClient.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

using namespace sandpad;

FakeServer::FakeServer(const QString& script, const QStringList& args)
{
    m_proc.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_proc.start(QStringLiteral("/usr/bin/python3"),
                 QStringList{QStringLiteral(SANDPAD_SOURCE_DIR "/tests/fakes/") + script} + args);
    if (!m_proc.waitForStarted(10000))
        return;
    while (!m_proc.canReadLine() && m_proc.waitForReadyRead(20000)) {
    }
    m_port = m_proc.readLine().trimmed().toInt();
}

FakeServer::~FakeServer()
{
    if (m_proc.state() != QProcess::NotRunning) {
        m_proc.terminate();
        if (!m_proc.waitForFinished(5000))
            m_proc.kill();
        m_proc.waitForFinished(2000);
    }
}

QByteArray FakeServer::call(const QByteArray& method, const QString& path, const QByteArray& body)
{
    HttpClient http(QStringLiteral("fake"));
    HttpRequest rq;
    rq.method = method;
    rq.url = QUrl(base() + path);
    rq.body = body;
    if (!body.isEmpty())
        rq.headers.emplaceBack("Content-Type", "application/json");
    rq.deadline = QDeadlineTimer(10000);
    return http.send(rq).body;
}

void FakeServer::reset() { call("POST", QStringLiteral("/__fake/reset"), "{}"); }

void FakeServer::expire() { call("POST", QStringLiteral("/__fake/expire"), "{}"); }

void FakeServer::inject(const QJsonObject& o)
{
    call("POST", QStringLiteral("/__fake/faults"), QJsonDocument(o).toJson(QJsonDocument::Compact));
}

void FakeServer::injectFault(const QString& pathPattern, int status, int count, const QString& method,
                             int retryAfterSeconds)
{
    QJsonObject fault{{QStringLiteral("path"), pathPattern},
                      {QStringLiteral("status"), status},
                      {QStringLiteral("count"), count}};
    if (!method.isEmpty())
        fault.insert(QStringLiteral("method"), method);
    if (retryAfterSeconds > 0)
        fault.insert(QStringLiteral("retry_after"), retryAfterSeconds);
    inject({{QStringLiteral("faults"), QJsonArray{fault}}});
}

void FakeServer::injectOption(const QString& name, const QJsonValue& value)
{
    inject({{QStringLiteral("options"), QJsonObject{{name, value}}}});
}

QJsonArray FakeServer::requests()
{
    return QJsonDocument::fromJson(call("GET", QStringLiteral("/__fake/requests"))).array();
}

QJsonObject FakeServer::sandboxes()
{
    return QJsonDocument::fromJson(call("GET", QStringLiteral("/__fake/sandboxes"))).object();
}

int FakeServer::count(const QString& pattern)
{
    const QRegularExpression re(pattern);
    int n = 0;
    for (const auto& v : requests()) {
        const QJsonObject r = v.toObject();
        if (re.match(r.value(QLatin1String("method")).toString() + QLatin1Char(' ') +
                     r.value(QLatin1String("path")).toString()).hasMatch())
            ++n;
    }
    return n;
}

double FakeServer::serverMs()
{
    double total = 0;
    for (const auto& v : requests())
        total += v.toObject().value(QLatin1String("ms")).toDouble();
    return total;
}

bool FakeServer::allCleaned(QString* why)
{
    // The fake removes the process and folder right after the stop/delete; allow it a moment
    // (polled, with this thread's events served meanwhile).
    QStringList left;
    const bool cleaned = QTest::qWaitFor([&] {
        left.clear();
        const QJsonObject all = sandboxes();
        for (auto it = all.begin(); it != all.end(); ++it) {
            const QJsonObject s = it.value().toObject();
            if (s.value(QLatin1String("alive")).toBool() || s.value(QLatin1String("root_exists")).toBool() ||
                !s.value(QLatin1String("destroyed")).toBool())
                left << it.key();
        }
        return left.isEmpty();
    }, 5000);
    if (!cleaned && why)
        *why = QStringLiteral("not cleaned: ") + left.join(QLatin1Char(','));
    return cleaned;
}
