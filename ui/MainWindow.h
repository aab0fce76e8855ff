#pragma once

#include "engine/ExecutionResult.h"
#include "examples/ExampleLibrary.h"
#include "providers/ValidationReport.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <functional>

namespace sandpad {

class CodeEditor;
class CreditsAccount;
class EditorPage;
class EditorTabs;
class Executor;
class FindReplaceBar;
class MainWindowActions;
class ChartPane;
class UsageView;
class RunController;
class RunEntry;
class RunHistory;
class RunNotebook;
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
    int deadlineSeconds = 300;
    std::function<void(QWidget* parent)> openSettings; // the settings dialog (ui/settings)
    std::function<void(QWidget* parent)> openUsage;    // the usage view (ui/usage)
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
    MainWindowActions* actions() const { return m_actions; }
    RunController* runs() const { return m_runs; }
    ChartPane* chartPane() const { return m_charts; }
    QString chartRunId() const { return m_chartRunId; } // the run whose charts the pane shows
    FindReplaceBar* findBar() const { return m_findBar; }

    bool runAll();
    bool runCurrentCell();
    bool runSelection();
    void openExample(const Example& example);
    bool openExample(const QString& name);
    qint64 sessionTotalMicros() const { return m_sessionTotal; }
    // The session switched providers (after Settings): show it and validate it again.
    void setProvider(const QString& name, std::function<ValidationReport()> validate);

signals:
    void runFinished(const sandpad::ExecutionResult& result);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    struct Origin {
        QPointer<EditorPage> page;
        int firstLine = 1; // editor line of the run's line 1
    };
    void buildLayout();
    void connectActions();
    bool startRun(EditorPage* page, const QString& code, const QString& title, int firstLine);
    void onRunFinished(const ExecutionResult& result);
    void onTracebackLine(RunEntry* entry, int line);
    void onRunningChanged(bool running);
    void startValidation();
    void openFileWithDialog();
    bool saveCurrent(bool askPath);
    void closeCurrentTab();
    bool confirmDiscard(EditorPage* page);
    void updateTitle();
    void refreshCredits();
    void showRunCharts(RunEntry* entry);
    void openUsage();
    void openSettings();

    MainWindowServices m_services;
    MainWindowActions* m_actions = nullptr;
    EditorTabs* m_tabs = nullptr;
    FindReplaceBar* m_findBar = nullptr;
    RunNotebook* m_notebook = nullptr;
    ChartPane* m_charts = nullptr;
    QString m_chartRunId;
    QPointer<QWidget> m_usageWindow;
    RunStatusBar* m_status = nullptr;
    RunController* m_runs = nullptr;
    QHash<RunEntry*, Origin> m_origins;
    qint64 m_sessionTotal = 0;
};

} // namespace sandpad
