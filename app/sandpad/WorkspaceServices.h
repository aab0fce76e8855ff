#pragma once

#include "MainWindow.h"

#include <memory>

namespace sandpad {

class Workspace;

// What the main window gets from a workspace: the executor, history, ledger, credits, the
// provider's validation, and a Settings dialog that applies its changes to the workspace
// (secrets go to the OS keychain).
// documents and recoveryDir (the data dir) are set; openWorkspace is the session's to fill in.
MainWindowServices workspaceServices(Workspace& workspace);

// Opens the workspace in dir. When it cannot be opened (corrupt or newer-schema database,
// unwritable folder) says why (a dialog and stderr), leaves the file alone, and offers to open
// another folder. Returns null when the user gives up.
std::unique_ptr<Workspace> openWorkspaceInteractive(QString dir, QWidget* parent);

// The local provider's pre-started sandboxes: sizes the pool from the settings and starts filling
// it in the background. Call after the window is shown (never delays start-up); no-op for other
// providers.
void startSandboxPool(Workspace& workspace);
// Drops idle pre-started sandboxes (before the settings or the provider change).
void drainSandboxPool(Workspace& workspace);

} // namespace sandpad
