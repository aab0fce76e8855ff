#include "core/allocations/OrphanReconciler.h"

#include "core/allocations/RemoteAllocations.h"
#include "core/providers/http/RemoteProvider.h"
#include "core/sandbox/ProviderError.h"

#include <QHash>

namespace sandpad {

QString ReconcileReport::message() const
{
    QStringList parts;
    if (removed > 0)
        parts << (removed == 1 ? QStringLiteral("removed 1 %1 sandbox left by a run that did not finish").arg(service)
                               : QStringLiteral("removed %1 %2 sandboxes left by runs that did not finish")
                                     .arg(removed)
                                     .arg(service));
    if (notRemoved > 0)
        parts << QStringLiteral("could not confirm the removal of %1 %2 sandbox%3 left by %4 that did not finish "
                                "(tried again at the next start)")
                     .arg(notRemoved)
                     .arg(service, notRemoved == 1 ? QString() : QStringLiteral("es"),
                          notRemoved == 1 ? QStringLiteral("a run") : QStringLiteral("runs"));
    if (!problems.isEmpty() && notRemoved == 0 && removed == 0)
        parts << QStringLiteral("could not check for %1 sandboxes left by runs that did not finish").arg(service);
    QString text = parts.join(QLatin1String("; "));
    if (!problems.isEmpty())
        text += QStringLiteral(": ") + problems.join(QLatin1String("; "));
    return text;
}

OrphanReconciler::OrphanReconciler(RemoteAllocations& allocations, RemoteProvider& provider)
    : m_allocations(allocations), m_provider(provider)
{
}

ReconcileReport OrphanReconciler::run()
{
    ReconcileReport report;
    report.service = m_provider.displayName();
    // Runs that are over (their process is gone, or they ended in this one): only those are ours.
    QHash<QString, RemoteAllocation> dead;
    for (const RemoteAllocation& row : m_allocations.open(m_provider.name()))
        if (!RemoteAllocations::live(row))
            dead.insert(row.runId, row);
    if (dead.isEmpty())
        return report; // nothing to ask the service (no request at all)

    QList<RemoteProvider::Listing> listed;
    try {
        listed = m_provider.listAppSandboxes();
    } catch (const ProviderError& e) {
        report.problems << e.message();
        return report; // rows stay open: tried again next time
    }
    QHash<QString, int> unconfirmed; // run id -> its sandboxes not confirmed gone
    for (const auto& sandbox : listed) {
        if (!dead.contains(sandbox.runId))
            continue; // a live run's, or not this workspace's
        if (sandbox.state == QLatin1String("destroyed"))
            continue;
        const CleanupReport removed = m_provider.removeAppSandbox(sandbox.id);
        if (removed.confirmed) {
            ++report.removed;
        } else {
            ++report.notRemoved;
            ++unconfirmed[sandbox.runId];
            report.problems << removed.detail;
        }
    }
    for (auto it = dead.cbegin(); it != dead.cend(); ++it) {
        if (unconfirmed.contains(it.key()))
            continue;
        if (m_allocations.close(it.key(), QStringLiteral("reconciled")))
            ++report.rowsClosed;
    }
    return report;
}

} // namespace sandpad
