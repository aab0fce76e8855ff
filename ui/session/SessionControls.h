#pragma once

#include <QObject>

class QAction;
class QLabel;
class QMainWindow;
class QMenu;

namespace sandpad {

class EditorPage;
class EditorTabs;
class RunCoordinator;
class TabSessions;
class VariableExplorer;

// The session's face in the main window: Restart Session (Ctrl+Shift+0), Run All from a Fresh
// Session, the tab's "Fresh Sandbox per Run" switch (Run menu), a dot on each tab (filled: its
// session; hollow: fresh runs) and the current tab's mode in the status bar.
class SessionControls : public QObject {
    Q_OBJECT
public:
    SessionControls(TabSessions* sessions, EditorTabs* tabs, RunCoordinator* runner, QMainWindow* window, QMenu* runMenu);

    QAction *restartSession, *runAllFresh, *freshPerRun;
    QLabel* modeLabel;
    VariableExplorer* variables; // a dock of the window, following the current tab's session

private:
    void refresh(EditorPage* page);
    void refreshCurrent();

    TabSessions* m_sessions;
    EditorTabs* m_tabs;
    RunCoordinator* m_runner;
};

} // namespace sandpad
