#pragma once

#include <QString>
#include <QStringList>

namespace sandpad {

// Everything the Daytona provider needs. Filled from the environment or, by the settings layer,
// from the keychain. The API key lives only here and in request headers, never in messages.
struct DaytonaConfig {
    QString apiKey;          // DAYTONA_API_KEY
    QString organizationId;  // DAYTONA_ORGANIZATION_ID (optional)
    QString apiUrl = QStringLiteral("https://app.daytona.io/api"); // DAYTONA_API_URL
    // Sent as X-Daytona-SDK-Version on every call, as the SDK does: the SDK whose requests ours
    // follow (tests/conformance/sdk); the log endpoint answers JSON from 0.167.0 on.
    QString sdkVersion = QStringLiteral("0.218.0");
    // The memory setting (AppSettings::memoryLimitMb), for validation's "what a run gets"; each
    // run's own comes from SandboxOptions::memoryLimitMb.
    qint64 memoryLimitMb = 1024;
    // Checked in each Python sandbox with one request; missing ones are installed with pip.
    QStringList basePackages = {QStringLiteral("matplotlib"), QStringLiteral("pandas"),
                                QStringLiteral("numpy"), QStringLiteral("sympy"),
                                QStringLiteral("yfinance")};
    int pollIntervalMs = 150;      // log polling while a command runs
    int requestTimeoutMs = 60000;  // one ordinary request
    int readyTimeoutMs = 60000;    // create until `started`
    int confirmTimeoutMs = 30000;  // delete until 404 / `destroyed`

    static DaytonaConfig fromEnvironment();
    // Daytona's `memory` (GiB, a whole number) for a memory limit in MB: rounded up, at least 1.
    static int memoryGiB(qint64 memoryLimitMb);
};

} // namespace sandpad
