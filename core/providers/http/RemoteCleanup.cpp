#include "core/providers/http/RemoteCleanup.h"

#include "core/providers/http/HttpClient.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <algorithm>

namespace sandpad {

CleanupReport RemoteCleanup::confirm(HttpClient& http, const QString& earlierProblem) const
{
    CleanupReport report;
    QDeadlineTimer budget(timeoutMs);
    qint64 pause = 100;
    QString state;
    for (;;) {
        HttpRequest get = makeGet();
        get.deadline = QDeadlineTimer(std::clamp<qint64>(budget.remainingTime(), 1000, requestTimeoutMs));
        const HttpResponse resp = http.send(get);
        if (resp.end == HttpResponse::End::Finished && resp.status == 404) {
            report.confirmed = true;
            report.detail = QStringLiteral("sandbox %1 no longer exists").arg(sandboxId);
            return report;
        }
        if (resp.ok()) {
            state = stateOf(QJsonDocument::fromJson(resp.body).object());
            if (goneStates.contains(state)) {
                report.confirmed = true;
                report.detail = QStringLiteral("sandbox %1 reported %2").arg(sandboxId, state);
                return report;
            }
        }
        if (budget.hasExpired()) {
            report.detail = QStringLiteral("%1 of sandbox %2 not confirmed within %3 s (last state: %4)%5")
                                .arg(action, sandboxId)
                                .arg(timeoutMs / 1000)
                                .arg(state.isEmpty() ? QStringLiteral("unknown") : state,
                                     earlierProblem.isEmpty() ? QString() : QStringLiteral("; ") + earlierProblem);
            return report;
        }
        http.sleep(std::min<qint64>(pause, std::max<qint64>(budget.remainingTime(), 0)), false);
        pause = std::min<qint64>(pause * 2, 1000);
    }
}

} // namespace sandpad
