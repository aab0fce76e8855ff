#pragma once

#include "core/language/Language.h"
#include "core/recovery/RecoveryJournal.h"
#include "core/run/ExecutionResult.h"
#include "core/sandbox/ValidationReport.h"
#include "ui/examples/ExampleLibrary.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QPointer>
#include <functional>

class QSplitter;

namespace sandpad {

class CodeEditor;
class CompletionService;
class HelpPane;
class PythonAssist;
class CreditsAccount;
class DocumentBrowser;
class DocumentStore;
class EditorDocuments;
class EditorPage;
class EditorTabs;
class Executor;
class SessionControls;
class TabSessions;
class FindReplaceBar;
class MainWindowActions;
class ChartPane;
class UsageView;
class RunController;
class RunCoordinator;
class RunEntry;
class RunHistory;
class RunNotebook;
class ProviderCheck;
class RunProgress;
class RunStatusBar;
class UsageLedger;

// What the main window talks to; all owned by the caller (the session), any may be null.
struct MainWindowServices {
    Executor* executor = nullptr;
    RunHistory* history = nullptr;
    bool saveRunsToHistory = false;                    // false: the Workspace stores runs itself
    UsageLedger* ledger = nullptr;
    CreditsAccount* credits = nullptr;
    QString providerName;                              // shown in the status bar
    std::function<ValidationReport()> validate;        // blocking; called on a worker thread
    std::function<void(QWidget* parent)> openSettings; // the settings dialog (ui/settings)
    std::function<void(const QString& theme)> saveTheme; // View > Theme's choice, kept by the settings' owner
    std::function<void(QWidget* parent)> openUsage;    // the usage view (ui/usage)
    DocumentStore* documents = nullptr;                // saved documents (the Documents dock)
    QString recoveryDir;                               // the data dir: unsaved text is journaled there
    std::function<void(QWidget* parent)> openWorkspace; // File > Open Workspace… (the session's business)
    std::function<void(Language)> warmLanguage;        // a tab of this language is open: pre-start its sandboxes
    CompletionService* completion = nullptr;           // Jedi for Python tabs; null: word completion only
};

// The main window: editor tabs on the left, the run notebook and the chart pane on the right,
// actions in menus and a toolbar, the run status bar. It only wires the parts together.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const MainWindowServices& services, QWidget* parent = nullptr);
    ~MainWindow() override;

    EditorTabs* tabs() const { return m_tabs; }
    RunNotebook* notebook() const { return m_notebook; }
    RunStatusBar* runStatusBar() const { return m_status; }
    RunProgress* runProgress() const { return m_progress; } // setModeSource: session/pooled runs
    MainWindowActions* actions() const { return m_actions; }
    RunController* runs() const { return m_runs; }
    RunCoordinator* runCoordinator() const { return m_runner; }
    TabSessions* tabSessions() const { return m_sessions; }
    SessionControls* sessionControls() const { return m_sessionControls; }
    ChartPane* chartPane() const { return m_charts; }
    QString chartRunId() const; // the run whose charts the pane shows
    FindReplaceBar* findBar() const { return m_findBar; }
    DocumentBrowser* documentBrowser() const { return m_browser; }
    QDockWidget* documentsDock() const { return m_documentsDock; }
    RecoveryJournal* journal() const; // null without services.recoveryDir
    EditorDocuments* editorDocuments() const { return m_editorDocuments; }
    HelpPane* helpPane() const { return m_helpPane; }
    QDockWidget* helpDock() const { return m_helpDock; }
    PythonAssist* pythonAssist() const { return m_assist; } // null without services.completion
    void showHelpAtCursor(); // F1 / Ctrl+I

    // Saved documents. Save (Ctrl+S) on a document tab appends a revision; these are what the
    // dock's signals lead to.
    EditorPage* openDocumentForEditing(const QString& documentId, const QString& title, const QString& content,
                                       const QString& headRevisionId);
    EditorPage* openRevisionReadOnly(const QString& documentId, const QString& title, const QString& content,
                                     const QString& revisionId);
    // Stores the current tab as a new document titled `title` (the extension gives the language).
    bool saveCurrentAsDocument(const QString& title);
    // Runs the stored revision (empty: the head) through the Executor; the entry names both.
    bool runRevision(const QString& documentId, const QString& revisionId);
    bool saveCurrent(bool askPath); // a document tab: a new revision; otherwise a file

    // Recovery: shows the dialog when the journal holds text a crash left (call once at start),
    // or restores every entry without asking (restoreAll, for tests and --restore-all).
    void offerRecovery(bool restoreAll = false);
    QList<EditorPage*> restoreRecovered(const QList<RecoveryEntry>& entries);
    // The tabs the last normal quit left open (<recoveryDir>/open-tabs.json, taken: restored
    // once); call once at start, before offerRecovery. A quit through closeEvent writes them.
    QList<EditorPage*> restoreOpenTabs();

    // The run side lives in RunCoordinator; these forward to it.
    bool runAll();
    bool runCurrentCell();
    bool runSelection();
    void openExample(const Example& example);
    bool openExample(const QString& name);
    qint64 sessionTotalMicros() const;
    // The session switched providers (after Settings): show it and validate it again.
    void setProvider(const QString& name, std::function<ValidationReport()> validate);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildLayout();
    void buildSessions();
    void connectActions();
    void startValidation();
    void buildDocumentsDock();
    void buildHelpDock();
    void updateTitle();
    void refreshCredits();
    void openUsage();
    void openSettings();
    void saveOpenTabs();

    MainWindowServices m_services;
    MainWindowActions* m_actions = nullptr;
    EditorTabs* m_tabs = nullptr;
    FindReplaceBar* m_findBar = nullptr;
    RunNotebook* m_notebook = nullptr;
    ChartPane* m_charts = nullptr;
    QSplitter* m_rightSplitter = nullptr; // the notebook over the chart pane
    QPointer<QWidget> m_usageWindow;
    RunStatusBar* m_status = nullptr;
    TabSessions* m_sessions = nullptr;
    SessionControls* m_sessionControls = nullptr;
    ProviderCheck* m_providerCheck = nullptr; // the provider's validation, shown in m_status
    RunController* m_runs = nullptr;
    RunCoordinator* m_runner = nullptr;
    RunProgress* m_progress = nullptr; // the running run in the status bar
    DocumentBrowser* m_browser = nullptr;
    QDockWidget* m_documentsDock = nullptr;
    EditorDocuments* m_editorDocuments = nullptr; // opening, saving, closing tabs; the journal
    HelpPane* m_helpPane = nullptr;
    QDockWidget* m_helpDock = nullptr;
    PythonAssist* m_assist = nullptr;             // completions, calltips and help from Jedi
};

} // namespace sandpad
