#pragma once

#include "core/run/ExecutionResult.h"
#include "ui/editor/CodeEditor.h"

#include <QList>
#include <QObject>
#include <QPointer>

class QAction;
class QLabel;
class QMainWindow;
class QMenu;

namespace sandpad {

class EditorPage;
class EditorTabs;
class RunCoordinator;
class RunNotebook;
class Run;
class TabSessions;
class VariableExplorer;

// The session's face in the main window: Restart Session (Ctrl+Shift+0), Run All from a Fresh
// Session (a restart, then each `# %%` cell as its own execution, in order, stopping at the first
// cell that does not succeed, like Jupyter's Restart & Run All), the tab's "Fresh Sandbox per
// Run" switch (Run menu), a dot on each tab (filled: its session; hollow: fresh runs) and the
// current tab's mode in the status bar and the notebook's header.
class SessionControls : public QObject {
    Q_OBJECT
public:
    SessionControls(TabSessions* sessions, EditorTabs* tabs, RunCoordinator* runner, QMainWindow* window, QMenu* runMenu);

    QAction *restartSession, *runAllFresh, *freshPerRun;
    QLabel* modeLabel;
    VariableExplorer* variables; // a dock of the window, following the current tab's session

    void setNotebook(RunNotebook* notebook); // its header shows the mode too
    // The cells Run All from a Fresh Session runs, in order: code cells that are not blank
    // (markdown and raw cells of an opened notebook are left out).
    static QList<CodeEditor::Cell> runnableCells(CodeEditor* editor);
    // Restarts the page's session and runs its cells one by one; false when a run is going on.
    bool runAllFromFreshSession(EditorPage* page);
    bool isRunningAll() const { return !m_cells.isEmpty(); }

private:
    void refresh(EditorPage* page);
    void refreshCurrent();

    TabSessions* m_sessions;
    EditorTabs* m_tabs;
    void runNextCell();
    void onCellFinished(RunStatus status);

    RunCoordinator* m_runner;
    QMainWindow* m_window;
    QPointer<RunNotebook> m_notebook;
    QPointer<EditorPage> m_runAllPage;
    QList<CodeEditor::Cell> m_cells; // still to run
    int m_cellNumber = 0;            // of the cell going on, 1-based
    int m_cellTotal = 0;
};

} // namespace sandpad
