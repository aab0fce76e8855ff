#include "core/providers/vercel/VercelConfig.h"

#include <QJsonDocument>
#include <QProcessEnvironment>
#include <algorithm>

namespace sandpad {

VercelConfig VercelConfig::fromEnvironment()
{
    const auto env = QProcessEnvironment::systemEnvironment();
    VercelConfig c;
    c.token = env.value(QStringLiteral("VERCEL_TOKEN")).trimmed();
    c.teamId = env.value(QStringLiteral("VERCEL_TEAM_ID")).trimmed();
    c.projectId = env.value(QStringLiteral("VERCEL_PROJECT_ID")).trimmed();
    c.oidcToken = env.value(QStringLiteral("VERCEL_OIDC_TOKEN")).trimmed();
    const QString url = env.value(QStringLiteral("VERCEL_API_URL")).trimmed();
    if (!url.isEmpty())
        c.apiUrl = url;
    while (c.apiUrl.endsWith(QLatin1Char('/')))
        c.apiUrl.chop(1);
    return c;
}

int VercelConfig::vcpusFor(qint64 memoryMb)
{
    int vcpus = int(std::clamp<qint64>((memoryMb + 2047) / 2048, 1, 8));
    if (vcpus > 1 && vcpus % 2 != 0)
        ++vcpus; // the service takes 1 or an even count
    return vcpus;
}

QJsonObject VercelConfig::jwtClaims(const QString& jwt)
{
    const QStringList parts = jwt.split(QLatin1Char('.'));
    if (parts.size() != 3)
        return {};
    const QByteArray payload = QByteArray::fromBase64(
        parts[1].toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    const QJsonDocument doc = QJsonDocument::fromJson(payload);
    return doc.isObject() ? doc.object() : QJsonObject{};
}

QString VercelConfig::effectiveTeamId() const
{
    if (!teamId.isEmpty() || oidcToken.isEmpty())
        return teamId;
    return jwtClaims(oidcToken).value(QLatin1String("owner_id")).toString();
}

QString VercelConfig::effectiveProjectId() const
{
    if (!projectId.isEmpty() || oidcToken.isEmpty())
        return projectId;
    return jwtClaims(oidcToken).value(QLatin1String("project_id")).toString();
}

} // namespace sandpad
