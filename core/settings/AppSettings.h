#pragma once

#include "core/sandbox/Deadline.h"

#include <QMap>
#include <QString>
#include <QStringList>

class QSettings;

namespace sandpad {

// The user's settings (QSettings in the platform's config location), shared by the GUI and the CLI.
// Secrets never live here: see SecretStore. Environment variables and CLI flags override on top;
// the Workspace keeps what was stored apart from what is in effect (see there).
struct AppSettings {
    QString provider = QStringLiteral("local");   // one of ProviderRegistry::names()
    int deadlineSeconds = Deadline::kDefaultSeconds; // [1, Deadline::kMaxSeconds]
    qint64 memoryLimitMb = 1024;
    bool allowNetwork = false;
    QString pipWheelDir;
    QString pipIndexUrl;
    // Each provider's own fields (its ProviderDescriptor's, never the secret ones), by the key
    // they are stored under, "<provider>/<key>": "vercel/teamId". A value not set is empty.
    QMap<QString, QString> providerValues;
    int poolSize = 1;                              // pre-started sandboxes per language (0: off)
    int poolBurstMax = 4;                          // what runs in a burst may grow it to
    int sessionIdleMinutes = 30;                   // a notebook session idle this long ends [1, 1440]
    QString theme = QStringLiteral("system");      // system | light | dark (the GUI's colours)

    QString providerValue(const QString& provider, const QString& key) const;
    void setProviderValue(const QString& provider, const QString& key, const QString& value);

    // From the default QSettings, without provider fields (what starts before a workspace: the theme).
    static AppSettings load();
    // Provider fields are read for providerKeys ("<provider>/<key>", ProviderRegistry::settingsKeys()).
    static AppSettings load(QSettings& settings, const QStringList& providerKeys = {});
    void save() const;
    void save(QSettings& settings) const;
    // Applies SANDPAD_PROVIDER and similar environment overrides.
    void applyEnvironment();
    // Clamps values into their valid ranges; returns a note per value that was corrected. The
    // provider is only normalized here: the Workspace checks it against the ProviderRegistry.
    QStringList sanitize();
};

} // namespace sandpad
