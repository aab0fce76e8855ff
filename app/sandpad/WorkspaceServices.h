#pragma once

#include "ui/MainWindow.h"

#include <memory>

namespace sandpad {

class Workspace;

// What the main window gets from a workspace: the executor, history, ledger, credits, the
// provider's validation, and a Settings dialog that stores its changes through the workspace
// (secrets go to the OS keychain).
// documents and recoveryDir (the data dir) are set; openWorkspace is the session's to fill in.
MainWindowServices workspaceServices(Workspace& workspace);

// Keeps the window's provider and its validation in step with the workspace's settings.
void followSettings(Workspace& workspace, MainWindow& window);

// Opens the workspace in dir. When it cannot be opened (corrupt or newer-schema database,
// unwritable folder) says why (a dialog and stderr), leaves the file alone, and offers to open
// another folder. Returns null when the user gives up.
std::unique_ptr<Workspace> openWorkspaceInteractive(QString dir, QWidget* parent);

} // namespace sandpad
