#pragma once

#include "core/sandbox/Deadline.h"

#include <QString>

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
    QString pythonPath;                            // local provider; empty = /usr/bin/python3
    QString nodePath;                              // local provider; empty = node on PATH
    QString vercelApiUrl, vercelTeamId, vercelProjectId;   // not secret; tokens are
    QString daytonaApiUrl, daytonaOrganizationId;
    QString commandProviderPath;                   // the executable of a command provider
    int poolSize = 1;                              // pre-started sandboxes per language (0: off)
    int poolBurstMax = 4;                          // what runs in a burst may grow it to
    int sessionIdleMinutes = 30;                   // a notebook session idle this long ends [1, 1440]
    QString theme = QStringLiteral("system");      // system | light | dark (the GUI's colours)

    static AppSettings load();                     // from the default QSettings
    static AppSettings load(QSettings& settings);
    void save() const;
    void save(QSettings& settings) const;
    // Applies SANDPAD_PROVIDER and similar environment overrides.
    void applyEnvironment();
    // Clamps values into their valid ranges; returns a note per value that was corrected. The
    // provider is only normalized here: the Workspace checks it against the ProviderRegistry.
    QStringList sanitize();
};

} // namespace sandpad
