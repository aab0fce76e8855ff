#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace sandpad {

// Everything the Vercel provider needs. Filled from the environment or, by the settings layer,
// from the keychain. Secrets live only here and in request headers, never in messages.
struct VercelConfig {
    QString token;       // VERCEL_TOKEN (with teamId and projectId)
    QString teamId;      // VERCEL_TEAM_ID
    QString projectId;   // VERCEL_PROJECT_ID
    QString oidcToken;   // VERCEL_OIDC_TOKEN (a JWT whose claims give owner_id and project_id)
    QString apiUrl = QStringLiteral("https://vercel.com/api"); // VERCEL_API_URL (the SDK's base)
    QString pythonRuntime = QStringLiteral("python3.13");
    QString nodeRuntime = QStringLiteral("node22");
    // The memory setting (AppSettings::memoryLimitMb), for validation to say what a run gets; a
    // run itself takes SandboxOptions::memoryLimitMb. Vercel sizes a VM by vCPUs, 2 GB each.
    qint64 memoryMb = 1024;
    // Checked in each Python sandbox; the missing ones are installed with pip before the run.
    QStringList basePackages = {QStringLiteral("matplotlib"), QStringLiteral("pandas"),
                                QStringLiteral("numpy"), QStringLiteral("sympy"),
                                QStringLiteral("yfinance")};
    int requestTimeoutMs = 60000;  // one ordinary request
    int readyTimeoutMs = 60000;    // create until `running`
    int confirmTimeoutMs = 30000;  // stop until `stopped`

    static VercelConfig fromEnvironment();

    // The vCPUs that give at least `memoryMb` at 2 GB each: 1 or an even number, at most 8.
    static int vcpusFor(qint64 memoryMb);

    // The bearer credential: the token, else the OIDC token.
    QString bearer() const { return token.isEmpty() ? oidcToken : token; }
    // Team and project: explicit ids first, else the OIDC claims.
    QString effectiveTeamId() const;
    QString effectiveProjectId() const;
    // The payload of a JWT (base64url JSON); empty when malformed.
    static QJsonObject jwtClaims(const QString& jwt);
};

} // namespace sandpad
