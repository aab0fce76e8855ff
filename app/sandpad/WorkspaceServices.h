#pragma once

#include "MainWindow.h"

namespace sandpad {

class Workspace;

// What the main window gets from a workspace: the executor, history, ledger, credits, the
// provider's validation, and a Settings dialog that applies its changes to the workspace
// (secrets go to the OS keychain).
MainWindowServices workspaceServices(Workspace& workspace);

} // namespace sandpad
