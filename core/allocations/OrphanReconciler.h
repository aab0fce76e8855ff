#pragma once

#include <QString>
#include <QStringList>

namespace sandpad {

class RemoteAllocations;
class RemoteProvider;

// What one reconciliation found and did.
struct ReconcileReport {
    QString service;      // "Daytona"
    int removed = 0;      // sandboxes of dead runs deleted (confirmed)
    int notRemoved = 0;   // sandboxes of dead runs whose deletion was not confirmed (rows stay open)
    int rowsClosed = 0;   // open rows of dead runs closed (their sandbox gone or removed now)
    QStringList problems; // why something could not be done (listing failed, deletion unconfirmed)
    // For the user: "removed 1 Daytona sandbox left by a run that did not finish"; empty when
    // there was nothing to do.
    QString message() const;
};

// Removes the remote sandboxes that runs which are over left behind (a crash or kill -9 of their
// process, a create or removal that failed): open RemoteAllocations rows that are not live
// (RemoteAllocations::live), matched with the provider's labelled
// sandboxes (RemoteProvider::listAppSandboxes) by run label. Whatever a live process owns (this
// one or another sharing the database) is left alone, and so is a labelled sandbox this
// workspace has no record of (another workspace's or machine's). Blocks (HTTP); never throws.
class OrphanReconciler {
public:
    OrphanReconciler(RemoteAllocations& allocations, RemoteProvider& provider);
    ReconcileReport run();

private:
    RemoteAllocations& m_allocations;
    RemoteProvider& m_provider;
};

} // namespace sandpad
