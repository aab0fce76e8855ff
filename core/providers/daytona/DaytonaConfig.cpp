#include "core/providers/daytona/DaytonaConfig.h"

#include <QProcessEnvironment>
#include <algorithm>

namespace sandpad {

DaytonaConfig DaytonaConfig::fromEnvironment()
{
    const auto env = QProcessEnvironment::systemEnvironment();
    DaytonaConfig c;
    c.apiKey = env.value(QStringLiteral("DAYTONA_API_KEY")).trimmed();
    c.organizationId = env.value(QStringLiteral("DAYTONA_ORGANIZATION_ID")).trimmed();
    const QString url = env.value(QStringLiteral("DAYTONA_API_URL")).trimmed();
    if (!url.isEmpty())
        c.apiUrl = url;
    while (c.apiUrl.endsWith(QLatin1Char('/')))
        c.apiUrl.chop(1);
    return c;
}

int DaytonaConfig::memoryGiB(qint64 memoryLimitMb)
{
    return int(std::max<qint64>(1, (memoryLimitMb + 1023) / 1024));
}

} // namespace sandpad
