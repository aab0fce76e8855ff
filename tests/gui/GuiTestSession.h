#pragma once

// A workspace on a data dir with the local provider, and the main window's services over it,
// built the way the app builds them (app/sandpad/WorkspaceServices).
#include "core/settings/AppSettings.h"
#include "core/workspace/Workspace.h"
#include "ui/MainWindow.h"
#include "WorkspaceServices.h"

#include <memory>

namespace sandpad {

struct GuiTestSession {
    explicit GuiTestSession(const QString& dataDir) : workspace(dataDir)
    {
        opened = workspace.open();
        AppSettings settings;
        settings.provider = QStringLiteral("local");
        settings.poolSize = 0;
        providerReady = opened && workspace.applySettings(settings);
    }
    MainWindowServices services() { return workspaceServices(workspace); }

    Workspace workspace;
    bool opened = false;
    bool providerReady = false;
};

} // namespace sandpad
