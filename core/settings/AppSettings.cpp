#include "core/settings/AppSettings.h"

#include <QSettings>
#include <QStringList>
#include <algorithm>

namespace sandpad {

namespace {
const QStringList kThemes = {QStringLiteral("system"), QStringLiteral("light"), QStringLiteral("dark")};
}

AppSettings AppSettings::load()
{
    QSettings settings(QStringLiteral("sandpad"), QStringLiteral("sandpad"));
    return load(settings);
}

QString AppSettings::providerValue(const QString& provider, const QString& key) const
{
    return providerValues.value(provider + QLatin1Char('/') + key);
}

void AppSettings::setProviderValue(const QString& provider, const QString& key, const QString& value)
{
    providerValues.insert(provider + QLatin1Char('/') + key, value);
}

AppSettings AppSettings::load(QSettings& s, const QStringList& providerKeys)
{
    AppSettings a;
    a.provider = s.value(QStringLiteral("provider/name"), a.provider).toString();
    a.deadlineSeconds = s.value(QStringLiteral("run/deadlineSeconds"), a.deadlineSeconds).toInt();
    a.memoryLimitMb = s.value(QStringLiteral("run/memoryLimitMb"), a.memoryLimitMb).toLongLong();
    a.allowNetwork = s.value(QStringLiteral("run/allowNetwork"), a.allowNetwork).toBool();
    a.pipWheelDir = s.value(QStringLiteral("pip/wheelDir")).toString();
    a.pipIndexUrl = s.value(QStringLiteral("pip/indexUrl")).toString();
    // Each under its own key, as they always were ("vercel/teamId"): nothing to migrate.
    for (const QString& key : providerKeys)
        a.providerValues.insert(key, s.value(key).toString());
    a.poolSize = s.value(QStringLiteral("local/poolSize"), a.poolSize).toInt();
    a.poolBurstMax = s.value(QStringLiteral("local/poolBurstMax"), a.poolBurstMax).toInt();
    a.theme = s.value(QStringLiteral("appearance/theme"), a.theme).toString();
    a.sessionIdleMinutes = s.value(QStringLiteral("session/idleMinutes"), a.sessionIdleMinutes).toInt();
    a.sanitize();
    return a;
}

void AppSettings::save() const
{
    QSettings settings(QStringLiteral("sandpad"), QStringLiteral("sandpad"));
    save(settings);
}

void AppSettings::save(QSettings& s) const
{
    s.setValue(QStringLiteral("provider/name"), provider);
    s.setValue(QStringLiteral("run/deadlineSeconds"), deadlineSeconds);
    s.setValue(QStringLiteral("run/memoryLimitMb"), memoryLimitMb);
    s.setValue(QStringLiteral("run/allowNetwork"), allowNetwork);
    s.setValue(QStringLiteral("pip/wheelDir"), pipWheelDir);
    s.setValue(QStringLiteral("pip/indexUrl"), pipIndexUrl);
    for (auto it = providerValues.cbegin(); it != providerValues.cend(); ++it)
        s.setValue(it.key(), it.value());
    s.setValue(QStringLiteral("local/poolSize"), poolSize);
    s.setValue(QStringLiteral("local/poolBurstMax"), poolBurstMax);
    s.setValue(QStringLiteral("appearance/theme"), theme);
    s.setValue(QStringLiteral("session/idleMinutes"), sessionIdleMinutes);
    s.sync();
}

void AppSettings::applyEnvironment()
{
    const QString p = qEnvironmentVariable("SANDPAD_PROVIDER").trimmed().toLower();
    if (!p.isEmpty())
        provider = p;
}

QStringList AppSettings::sanitize()
{
    QStringList notes;
    provider = provider.trimmed().toLower();
    const int deadline = Deadline::clampSeconds(deadlineSeconds);
    if (deadline != deadlineSeconds) {
        notes << QStringLiteral("deadline %1 s is out of range (1-%2); using %3 s")
                     .arg(deadlineSeconds).arg(Deadline::kMaxSeconds).arg(deadline);
        deadlineSeconds = deadline;
    }
    const qint64 memory = std::clamp<qint64>(memoryLimitMb, 128, 65536);
    if (memory != memoryLimitMb) {
        notes << QStringLiteral("memory limit %1 MB is out of range (128-65536); using %2 MB").arg(memoryLimitMb).arg(memory);
        memoryLimitMb = memory;
    }
    poolSize = std::clamp(poolSize, 0, 8);
    poolBurstMax = std::clamp(poolBurstMax, poolSize, 16);
    const int idle = std::clamp(sessionIdleMinutes, 1, 24 * 60);
    if (idle != sessionIdleMinutes) {
        notes << QStringLiteral("session idle limit %1 min is out of range (1-1440); using %2 min").arg(sessionIdleMinutes).arg(idle);
        sessionIdleMinutes = idle;
    }
    const QString themeName = theme.trimmed().toLower();
    if (!kThemes.contains(themeName)) {
        notes << QStringLiteral("unknown theme \"%1\" in settings; using the system's colours").arg(theme.trimmed());
        theme = QStringLiteral("system");
    } else {
        theme = themeName;
    }
    return notes;
}

} // namespace sandpad
