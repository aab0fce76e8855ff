#pragma once

#include <QObject>
#include <QSet>
#include <QString>

namespace sandpad {

class ChartPane;
class DocumentStore;
class EditorPage;
class EditorTabs;
class MainWindowActions;
class Run;
class RunController;
class RunEntry;
class RunNotebook;
class RunStatusBar;
class TabSessions;

// The run side of the main window: starts the editor's runs (the tab, a cell, the selection, a
// stored revision) through the RunController and follows each Run to its end: the entry
// selected, its charts in the chart pane, the error line marked in the tab it came from (the
// Run's origin), a traceback line leading back there, the last and the session's cost. The
// window only lays these parts out and hands them over.
class RunCoordinator : public QObject {
    Q_OBJECT
public:
    // All must outlive this; documents may be null (stored revisions then run untitled).
    RunCoordinator(RunController* runs, EditorTabs* tabs, RunNotebook* notebook, ChartPane* charts,
                   RunStatusBar* status, MainWindowActions* actions, DocumentStore* documents,
                   QObject* parent = nullptr);

    bool runAll();
    bool runCurrentCell();
    bool runSelection();
    // Runs `code` of the page as the cell or selection starting at firstLine (the tab's session
    // or a fresh sandbox, as for Shift+Enter); null when a run is going on.
    Run* runCode(EditorPage* page, const QString& code, const QString& title, int firstLine);
    // Runs the stored revision (empty: the head) through the Executor; the entry names both.
    bool runRevision(const QString& documentId, const QString& revisionId);

    // A tab's runs go to its notebook session when it has one (stored revisions always run
    // fresh); Stop then interrupts it (a second Stop restarts it).
    void setSessions(TabSessions* sessions) { m_sessions = sessions; }
    void stop();

    qint64 sessionTotalMicros() const { return m_sessionTotal; }
    QString chartRunId() const { return m_chartRunId; } // the run whose charts the pane shows

private:
    Run* startRun(EditorPage* page, const QString& code, const QString& title, int firstLine);
    EditorPage* pageTitled(const QString& runTitle) const;
    void onRunFinished(Run* run);
    // The entry selected and in view, its charts in the pane, its error line marked.
    void showOutcome(Run* run);
    void onTracebackLine(RunEntry* entry, int line);
    void onRunningChanged(bool running);
    void showRunCharts(RunEntry* entry);

    RunController* m_runs;
    EditorTabs* m_tabs;
    RunNotebook* m_notebook;
    ChartPane* m_charts;
    RunStatusBar* m_status;
    MainWindowActions* m_actions;
    DocumentStore* m_documents;
    QString m_chartRunId;
    qint64 m_sessionTotal = 0;
    QSet<QString> m_shownAtValidation; // runs whose outcome was shown before their cost was known
    TabSessions* m_sessions = nullptr;
};

} // namespace sandpad
