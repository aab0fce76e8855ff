#pragma once

#include "core/sandbox/Sandbox.h"

#include <QJsonObject>
#include <QStringList>
#include <functional>

namespace sandpad {

class HttpClient;
struct HttpRequest;

// After a remote sandbox was stopped or deleted: polls its GET until the service reports it gone
// (404, or a state in goneStates), backing off 100 ms -> 1 s, within timeoutMs. Shared by the
// Vercel and Daytona sandboxes; never throws.
struct RemoteCleanup {
    QString sandboxId;
    QString action;                                   // "Vercel: stop", "Daytona: deletion"
    int timeoutMs = 30000;
    int requestTimeoutMs = 60000;
    QStringList goneStates;                           // {"stopped", "failed"} / {"destroyed"}
    std::function<HttpRequest()> makeGet;             // GET of the sandbox
    std::function<QString(const QJsonObject&)> stateOf; // its state from the GET's body

    // `earlierProblem` (e.g. the stop request's own error) is kept in the detail when not confirmed.
    CleanupReport confirm(HttpClient& http, const QString& earlierProblem) const;
};

} // namespace sandpad
