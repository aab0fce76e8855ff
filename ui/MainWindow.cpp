#include "ui/MainWindow.h"

#include "core/accounting/CreditsAccount.h"
#include "core/documents/DocumentStore.h"
#include "core/recovery/OpenTabs.h"
#include "core/run/Run.h"
#include "ui/charts/ChartExportDialog.h"
#include "ui/charts/ChartPane.h"
#include "ui/console/RunController.h"
#include "ui/console/RunCoordinator.h"
#include "ui/session/SessionControls.h"
#include "ui/session/TabSessions.h"
#include "ui/console/RunEntry.h"
#include "ui/editor/AttachmentStrip.h"
#include "ui/console/RunNotebook.h"
#include "ui/documents/DocumentBrowser.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorDocuments.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/editor/FindReplaceBar.h"
#include "ui/examples/ExamplesMenu.h"
#include "ui/editor/PythonAssist.h"
#include "ui/help/DocumentationBrowser.h"
#include "ui/help/HelpPane.h"
#include "ui/help/ShortcutSheet.h"
#include "ui/MainWindowActions.h"
#include "ui/notebookio/NotebookFiles.h"
#include "ui/recovery/OpenTabsRestore.h"
#include "ui/statusbar/ProviderCheck.h"
#include "ui/statusbar/RunProgress.h"
#include "ui/statusbar/RunStatusBar.h"
#include "ui/theme/Theme.h"
#include "ui/usage/UsageView.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QScreen>
#include <QMessageBox>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <thread>

namespace sandpad {

MainWindow::MainWindow(const MainWindowServices& services, QWidget* parent)
    : QMainWindow(parent), m_services(services)
{
    setObjectName(QStringLiteral("MainWindow"));
    setAccessibleName(tr("Sandpad"));
    // The default size, but never larger than the screen (a 1024×768 desktop).
    QSize size(1400, 860);
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size());
    resize(size);
    m_actions = new MainWindowActions(this);
    buildLayout();
    m_editorDocuments = new EditorDocuments(m_tabs, services.documents, services.recoveryDir, this);
    connect(m_editorDocuments, &EditorDocuments::statusMessage, m_status, &QStatusBar::showMessage);
    buildDocumentsDock();
    buildHelpDock();
    m_runs = new RunController(services.executor, m_notebook, this);
    m_runs->setHistory(services.history, services.saveRunsToHistory);
    m_runner = new RunCoordinator(m_runs, m_tabs, m_notebook, m_charts, m_status, m_actions, services.documents, this);
    m_editorDocuments->notebooks()->followRuns(m_runs); // each cell's last run, for File > Export
    buildSessions();
    m_progress = new RunProgress(m_runs, m_status, [this] { return m_runner->sessionTotalMicros(); }, this);
    m_progress->setModeSource([this](const Run& run) {
        auto* page = qobject_cast<EditorPage*>(run.origin().source.data());
        return page && m_sessions->usesSession(page) ? RunStatusBar::RunMode::Session : RunProgress::sandboxMode(run);
    });
    connectActions();

    m_status->setProvider(services.providerName);
    refreshCredits();
    m_runs->loadHistory();
    m_tabs->newTab();
    updateTitle();
    startValidation();
}

void MainWindow::buildSessions()
{
    // A notebook session per tab (ui/session); its actions go into the menu that has Stop.
    m_sessions = new TabSessions(m_services.executor, this);
    m_sessions->setAssistWarmUp(m_assist != nullptr); // Python tabs complete from their session
    m_runner->setSessions(m_sessions);
    QMenu* runMenu = nullptr;
    for (QObject* object : m_actions->stop->associatedObjects())
        if (auto* menu = qobject_cast<QMenu*>(object))
            runMenu = menu;
    m_sessionControls = new SessionControls(m_sessions, m_tabs, m_runner, this, runMenu);
    m_sessionControls->setNotebook(m_notebook);
    if (runMenu) { // the tab's input files (ui/editor/AttachmentStrip)
        QAction* attach = runMenu->addAction(tr("Attach Files…"));
        attach->setObjectName(QStringLiteral("attachFiles"));
        attach->setToolTip(tr("Files placed read-only in the working directory of this tab's runs"));
        connect(attach, &QAction::triggered, this, [this] {
            if (EditorPage* page = m_tabs->currentPage())
                page->attachments()->chooseFiles();
        });
    }
}

MainWindow::~MainWindow()
{
    // Not closed through closeEvent (e.g. the session ended): keep pending text journaled, and
    // write it while the tabs still exist.
    m_editorDocuments->flushJournal();
    // The entries (and the runs they own) go before the window's other parts.
    delete takeCentralWidget();
}

void MainWindow::buildLayout()
{
    m_tabs = new EditorTabs;
    m_findBar = new FindReplaceBar;
    auto* editorPane = new QWidget;
    editorPane->setAccessibleName(tr("Editor"));
    auto* editorLayout = new QVBoxLayout(editorPane);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    editorLayout->addWidget(m_tabs, 1);
    editorLayout->addWidget(m_findBar);

    m_notebook = new RunNotebook;
    m_charts = new ChartPane;
    m_charts->setAccessibleName(tr("Charts"));
    auto* right = new QSplitter(Qt::Vertical);
    right->setObjectName(QStringLiteral("rightSplitter"));
    right->addWidget(m_notebook);
    right->addWidget(m_charts);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    // Before any chart the pane is a thin strip (the notebook gets the column); the first run
    // with charts opens it (see connectActions). The handle can always drag it open.
    right->setSizes({840, 0});
    m_rightSplitter = right;

    auto* split = new QSplitter(Qt::Horizontal);
    split->setObjectName(QStringLiteral("mainSplitter"));
    split->addWidget(editorPane);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({640, 760});
    setCentralWidget(split);

    m_status = new RunStatusBar;
    m_providerCheck = new ProviderCheck(m_status, this);
    setStatusBar(m_status);
    connect(m_charts, &ChartPane::chartExported, m_status, [this](const QString& path, QSize size) {
        m_status->showSaved(path, ChartExportDialog::savedMessage(path, size));
    });
}

void MainWindow::connectActions()
{
    MainWindowActions* a = m_actions;
    connect(a->newTab, &QAction::triggered, this, [this] { m_tabs->newTab(); });
    EditorDocuments* docs = m_editorDocuments;
    connect(a->open, &QAction::triggered, docs, &EditorDocuments::openFileWithDialog);
    connect(a->save, &QAction::triggered, docs, [docs] { docs->saveCurrent(false); });
    connect(a->saveAs, &QAction::triggered, docs, [docs] { docs->saveCurrent(true); });
    connect(a->closeTab, &QAction::triggered, docs, &EditorDocuments::closeCurrentTab);
    connect(a->exportNotebook, &QAction::triggered, docs->notebooks(), &NotebookFiles::exportNotebookWithDialog);
    connect(a->exportHtml, &QAction::triggered, docs->notebooks(), &NotebookFiles::exportHtmlWithDialog);
    connect(a->quit, &QAction::triggered, this, &QWidget::close);
    connect(a->saveAsDocument, &QAction::triggered, docs, &EditorDocuments::saveAsDocumentInteractive);
    a->saveAsDocument->setEnabled(m_services.documents != nullptr);
    connect(a->openWorkspace, &QAction::triggered, this, [this] {
        if (m_services.openWorkspace)
            m_services.openWorkspace(this);
    });
    a->openWorkspace->setEnabled(bool(m_services.openWorkspace));
    connect(m_tabs, &EditorTabs::pageAdded, this, [this](EditorPage* page) {
        connect(page, &EditorPage::titleChanged, this, &MainWindow::updateTitle); // e.g. saved as a document
        // A JavaScript tab's first run is pre-started too (issue 17): warm its language when the
        // tab opens or switches, not only after a first cold run.
        if (m_services.warmLanguage) {
            m_services.warmLanguage(page->language());
            connect(page, &EditorPage::languageChanged, this, [this](Language language) { m_services.warmLanguage(language); });
        }
    });
    connect(a->find, &QAction::triggered, this, [this] {
        if (m_notebook->isAncestorOf(QApplication::focusWidget()))
            m_notebook->focusFind();
        else
            m_findBar->showFind();
    });
    connect(a->replace, &QAction::triggered, m_findBar, &FindReplaceBar::showReplace);
    connect(a->toggleComment, &QAction::triggered, this, [this] {
        if (CodeEditor* e = m_tabs->currentEditor())
            e->toggleComment();
    });
    connect(a->complete, &QAction::triggered, this, [this] {
        if (CodeEditor* e = m_tabs->currentEditor(); e && e->hasFocus())
            e->showCompletions(true);
    });
    connect(a->nextTab, &QAction::triggered, this, [this] {
        if (m_tabs->count() > 1)
            m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % m_tabs->count());
    });
    connect(a->previousTab, &QAction::triggered, this, [this] {
        if (m_tabs->count() > 1)
            m_tabs->setCurrentIndex((m_tabs->currentIndex() + m_tabs->count() - 1) % m_tabs->count());
    });
    connect(a->keyboardShortcuts, &QAction::triggered, this, [this] {
        auto* sheet = new ShortcutSheet(this);
        sheet->setAttribute(Qt::WA_DeleteOnClose);
        sheet->show();
    });
    connect(a->helpAtCursor, &QAction::triggered, this, &MainWindow::showHelpAtCursor);
    connect(a->documentation, &QAction::triggered, this, [this] {
        auto* docs = new DocumentationBrowser(this);
        docs->setAttribute(Qt::WA_DeleteOnClose);
        docs->show();
    });
    connect(a->focusEditor, &QAction::triggered, this, [this] {
        if (CodeEditor* e = m_tabs->currentEditor())
            e->setFocus();
    });
    connect(a->focusNotebook, &QAction::triggered, this, [this] {
        const QList<RunEntry*> entries = m_notebook->entries();
        if (!entries.isEmpty())
            entries.last()->setFocus();
        else
            m_notebook->focusFind();
    });
    connect(a->saveOutput, &QAction::triggered, this, [this] { m_notebook->saveOutputWithDialog(nullptr); });
    connect(a->clearNotebook, &QAction::triggered, m_notebook, &RunNotebook::clear);
    connect(m_notebook, &RunNotebook::clearRequested, m_notebook, &RunNotebook::clear);
    connect(a->examples, &ExamplesMenu::exampleChosen, docs, qOverload<const Example&>(&EditorDocuments::openExample));
    connect(a->settings, &QAction::triggered, this, &MainWindow::openSettings);
    connect(a->usage, &QAction::triggered, this, &MainWindow::openUsage);
    connect(a->themes, &QActionGroup::triggered, this, [this](QAction* chosen) {
        const QString name = chosen->data().toString();
        Theme::apply(name);
        if (m_services.saveTheme) // the Workspace owns the settings: never written behind its back
            m_services.saveTheme(name);
    });
    connect(a->about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Sandpad"),
                           tr("<b>Sandpad %1</b><p>Run Python and JavaScript snippets in a secure sandbox.</p>")
                               .arg(QStringLiteral(SANDPAD_VERSION)));
    });

    connect(m_tabs, &EditorTabs::currentEditorChanged, m_findBar, &FindReplaceBar::setEditor);
    connect(m_tabs, &EditorTabs::currentChanged, this, &MainWindow::updateTitle);
    // The balance changes with every run (the RunCoordinator follows the rest of a run).
    connect(m_runs, &RunController::runStarted, this, [this](Run* run) {
        connect(run, &Run::finished, this, &MainWindow::refreshCredits);
        connect(run, &Run::finished, this, [this](const ExecutionResult& result) {
            const QList<int> sizes = m_rightSplitter->sizes();
            if (!result.charts.isEmpty() && sizes.value(1) < 80)
                m_rightSplitter->setSizes({500, 340});
        });
    });
}

bool MainWindow::runAll() { return m_runner->runAll(); }
bool MainWindow::runCurrentCell() { return m_runner->runCurrentCell(); }
bool MainWindow::runSelection() { return m_runner->runSelection(); }
bool MainWindow::runRevision(const QString& documentId, const QString& revisionId)
{
    return m_runner->runRevision(documentId, revisionId);
}
qint64 MainWindow::sessionTotalMicros() const { return m_runner->sessionTotalMicros(); }
QString MainWindow::chartRunId() const { return m_runner->chartRunId(); }

void MainWindow::startValidation()
{
    m_providerCheck->start(m_services.providerName, m_services.validate);
}

void MainWindow::setProvider(const QString& name, std::function<ValidationReport()> validate)
{
    m_services.providerName = name;
    m_services.validate = std::move(validate);
    m_status->setProvider(name);
    startValidation();
}

void MainWindow::refreshCredits()
{
    if (m_services.credits && m_services.credits->enabled())
        m_status->setCreditsBalance(m_services.credits->balanceMicros());
    else
        m_status->setCreditsBalance(std::nullopt);
}

void MainWindow::openUsage()
{
    if (m_services.openUsage) {
        m_services.openUsage(this);
        return;
    }
    if (!m_usageWindow) {
        UsageView* view = UsageView::inWindow(m_services.ledger, this);
        m_usageWindow = view->window();
        connect(m_runs, &RunController::runStarted, view, [view](Run* run) {
            connect(run, &Run::finished, view, &UsageView::refresh);
        });
    }
    m_usageWindow->show();
    m_usageWindow->raise();
    m_usageWindow->activateWindow();
}

void MainWindow::openSettings()
{
    // The session applies settings (provider, secrets in the keychain, executor config).
    if (m_services.openSettings)
        m_services.openSettings(this);
    else
        QMessageBox::information(this, tr("Settings"), tr("Settings are not available in this build."));
    refreshCredits();
}

void MainWindow::openExample(const Example& example) { m_editorDocuments->openExample(example); }

bool MainWindow::openExample(const QString& name) { return m_editorDocuments->openExample(name); }

bool MainWindow::saveCurrent(bool askPath) { return m_editorDocuments->saveCurrent(askPath); }

RecoveryJournal* MainWindow::journal() const { return m_editorDocuments->journal(); }

void MainWindow::updateTitle()
{
    EditorPage* page = m_tabs->currentPage();
    setWindowTitle(page ? tr("%1 — Sandpad").arg(page->title()) : tr("Sandpad"));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_editorDocuments->confirmCloseAll()) {
        event->ignore();
        return;
    }
    m_runs->stop();
    saveOpenTabs(); // every modified tab was saved or discarded just now
    m_editorDocuments->forgetJournal();
    event->accept();
}

void MainWindow::saveOpenTabs()
{
    if (m_services.recoveryDir.isEmpty())
        return;
    const QString path = OpenTabs::filePath(m_services.recoveryDir);
    const OpenTabs open = OpenTabsRestore::capture(*m_tabs, m_sessions);
    QString error;
    if (open.tabs.isEmpty())
        QFile::remove(path);
    else if (!open.write(path, &error))
        qWarning("sandpad: the open tabs could not be kept for the next start: %s", qPrintable(error));
}

QList<EditorPage*> MainWindow::restoreOpenTabs()
{
    if (m_services.recoveryDir.isEmpty())
        return {};
    QString error;
    const auto open = OpenTabs::take(OpenTabs::filePath(m_services.recoveryDir), &error);
    if (!open) {
        if (!error.isEmpty())
            m_status->showMessage(tr("The last session's tabs could not be read: %1").arg(error), 10000);
        return {};
    }
    QStringList notes;
    const QList<EditorPage*> pages =
        OpenTabsRestore::restore(*open, *m_editorDocuments, *m_tabs, m_sessions, m_services.documents, &notes);
    if (!notes.isEmpty())
        m_status->showMessage(notes.join(QLatin1Char(' ')), 15000);
    return pages;
}

// --- Saved documents --------------------------------------------------------------------------

void MainWindow::buildHelpDock()
{
    // Hidden until the first F1 / Ctrl+I. Python tabs get Jedi's completions and calltips when
    // the session gave a language service (ui/editor/PythonAssist); the others word completion.
    m_helpPane = new HelpPane;
    m_helpDock = new QDockWidget(tr("Help"), this);
    m_helpDock->setObjectName(QStringLiteral("helpDock"));
    m_helpDock->setAccessibleName(tr("Help"));
    m_helpDock->setWidget(m_helpPane);
    addDockWidget(Qt::RightDockWidgetArea, m_helpDock);
    m_helpDock->hide();
    if (!m_services.completion)
        return;
    m_assist = new PythonAssist(m_services.completion, this);
    connect(m_assist, &PythonAssist::helpReady, m_helpPane, &HelpPane::showHelp);
    connect(m_tabs, &EditorTabs::pageAdded, m_assist, [this](EditorPage* page) {
        m_assist->attach(page->editor(), [this, page = QPointer<EditorPage>(page)]() -> NotebookSession* {
            return page && m_sessions && m_sessions->usesSession(page) ? m_sessions->session(page) : nullptr;
        }); // names of the tab's live session first (ui/editor/PythonAssist)
    });
}

void MainWindow::showHelpAtCursor()
{
    const bool opening = m_helpDock->isHidden();
    m_helpDock->show();
    m_helpDock->raise();
    if (opening && !m_helpDock->isFloating())
        QTimer::singleShot(0, this, [this] { // laid out first
            // Docstrings are long: above another dock of the column (Variables) the help takes two thirds.
            QList<QDockWidget*> column{m_helpDock};
            const QRect help = m_helpDock->geometry();
            for (QDockWidget* dock : findChildren<QDockWidget*>())
                if (dock != m_helpDock && dock->isVisible() && !dock->isFloating() && dockWidgetArea(dock) == dockWidgetArea(m_helpDock)
                    && dock->geometry().left() < help.right() && help.left() < dock->geometry().right())
                    column << dock;
            if (column.size() == 2) {
                const int height = column[0]->height() + column[1]->height();
                resizeDocks(column, {height * 2 / 3, height / 3}, Qt::Vertical);
            }
        });
    CodeEditor* editor = m_tabs->currentEditor();
    if (m_assist)
        m_assist->requestHelp(editor);
    else
        m_helpPane->showHelp(editor ? editor->wordAtCursor() : QString(), {},
                             tr("No Python language service in this window (python3-jedi and the local sandbox)."));
}

void MainWindow::buildDocumentsDock()
{
    m_browser = new DocumentBrowser(m_services.documents, m_services.ledger);
    m_browser->setExecutor(m_services.executor);
    m_documentsDock = new QDockWidget(tr("Documents"), this);
    m_documentsDock->setObjectName(QStringLiteral("documentsDock"));
    m_documentsDock->setAccessibleName(tr("Documents"));
    m_documentsDock->setWidget(m_browser);
    m_documentsDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable
                                 | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, m_documentsDock);
    resizeDocks({m_documentsDock}, {400}, Qt::Horizontal);
    QAction* toggle = m_documentsDock->toggleViewAction();
    toggle->setText(tr("&Documents"));
    toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    toggle->setShortcutContext(Qt::WindowShortcut);
    toggle->setToolTip(tr("Show or hide the saved documents (%1)")
                           .arg(toggle->shortcut().toString(QKeySequence::NativeText)));
    addAction(toggle);
    m_actions->viewMenu->insertAction(m_actions->viewMenu->actions().value(0), toggle);
    m_actions->viewMenu->insertSeparator(m_actions->viewMenu->actions().value(1));
    // Shown when the workspace has documents; otherwise out of the way until asked for.
    const QList<Document> existing = m_services.documents ? m_services.documents->documents() : QList<Document>{};
    m_documentsDock->setVisible(!existing.isEmpty());
    if (!existing.isEmpty())
        m_browser->selectDocument(existing.first().id); // the latest change, with its timeline

    EditorDocuments* docs = m_editorDocuments;
    connect(m_browser, &DocumentBrowser::openForEditing, docs, &EditorDocuments::openDocumentForEditing);
    connect(m_browser, &DocumentBrowser::openReadOnly, docs,
            [this, docs](const QString& title, const QString& content, const QString& revisionId) {
                docs->openRevisionReadOnly(m_browser->currentDocumentId(), title, content, revisionId);
            });
    connect(m_browser, &DocumentBrowser::runRevisionRequested, this,
            [this](const QString& documentId, const QString& revisionId) { runRevision(documentId, revisionId); });
    connect(m_browser, &DocumentBrowser::errorOccurred, this,
            [this](const QString& message) { m_status->showMessage(message, 8000); });
    // A rename shows in the document's open tabs.
    connect(m_browser, &DocumentBrowser::documentsChanged, docs, &EditorDocuments::applyDocumentTitles);
    // A save shows in the dock; a new document also opens it.
    connect(docs, &EditorDocuments::documentSaved, m_browser, [this](const QString& documentId) {
        m_browser->refresh();
        m_browser->selectDocument(documentId);
    });
    connect(docs, &EditorDocuments::documentCreated, m_browser, [this](const QString& documentId) {
        m_browser->refresh();
        m_browser->selectDocument(documentId);
        m_documentsDock->show();
    });
}

EditorPage* MainWindow::openDocumentForEditing(const QString& documentId, const QString& title, const QString& content,
                                               const QString& headRevisionId)
{
    return m_editorDocuments->openDocumentForEditing(documentId, title, content, headRevisionId);
}

EditorPage* MainWindow::openRevisionReadOnly(const QString& documentId, const QString& title, const QString& content,
                                             const QString& revisionId)
{
    return m_editorDocuments->openRevisionReadOnly(documentId, title, content, revisionId);
}

bool MainWindow::saveCurrentAsDocument(const QString& title) { return m_editorDocuments->saveCurrentAsDocument(title); }

// --- Recovery ----------------------------------------------------------------------------------

void MainWindow::offerRecovery(bool restoreAll) { m_editorDocuments->offerRecovery(restoreAll); }

QList<EditorPage*> MainWindow::restoreRecovered(const QList<RecoveryEntry>& entries)
{
    return m_editorDocuments->restoreRecovered(entries);
}

} // namespace sandpad
