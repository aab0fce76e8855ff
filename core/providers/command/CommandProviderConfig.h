#pragma once

#include <QString>
#include <QStringList>

namespace sandpad {

// A user-named executable that speaks the command-provider protocol (docs/providers.md).
struct CommandProviderConfig {
    QString program;               // e.g. /usr/share/sandpad/command-provider-example.py
    QStringList arguments;
    int requestTimeoutMs = 60000;  // create, write, read, validate
    int killGraceMs = 5000;        // after a kill request, how long the run may take to end
    int confirmTimeoutMs = 30000;  // destroy
};

} // namespace sandpad
