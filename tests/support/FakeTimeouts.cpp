#include "FakeTimeouts.h"

#include "FakeServer.h"

#include <QJsonObject>

qint64 vercelTimeoutGrantedMs(FakeServer& vercel)
{
    qint64 total = 0;
    for (const auto& entry : vercel.requests()) {
        const QJsonObject e = entry.toObject();
        const QString path = e.value(QLatin1String("path")).toString();
        const QJsonObject body = e.value(QLatin1String("body")).toObject();
        if (path == QLatin1String("/v2/sandboxes"))
            total += body.value(QLatin1String("timeout")).toInteger();
        else if (path.endsWith(QLatin1String("/extend-timeout")))
            total += body.value(QLatin1String("duration")).toInteger();
    }
    return total;
}
