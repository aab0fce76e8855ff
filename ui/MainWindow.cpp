#include "MainWindow.h"

#include "MainWindowActions.h"
#include "accounting/CreditsAccount.h"
#include "charts/ChartPane.h"
#include "charts/PngView.h"
#include "console/RunController.h"
#include "console/RunEntry.h"
#include "console/RunNotebook.h"
#include "engine/RunRecordConversion.h"
#include "editor/CodeEditor.h"
#include "editor/EditorPage.h"
#include "editor/EditorTabs.h"
#include "editor/FindReplaceBar.h"
#include "examples/ExamplesMenu.h"
#include "statusbar/RunStatusBar.h"
#include "usage/UsageView.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
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
    resize(1400, 860);
    m_actions = new MainWindowActions(this);
    buildLayout();
    m_runs = new RunController(services.executor, m_notebook, this);
    m_runs->setHistory(services.history, services.saveRunsToHistory);
    m_runs->setDeadlineSeconds(services.deadlineSeconds);
    connectActions();

    m_status->setProvider(services.providerName);
    refreshCredits();
    m_runs->loadHistory();
    m_tabs->newTab();
    updateTitle();
    startValidation();
}

MainWindow::~MainWindow()
{
    // Entries report their destruction to m_origins: destroy them while it still exists.
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
    right->setSizes({500, 340});

    auto* split = new QSplitter(Qt::Horizontal);
    split->setObjectName(QStringLiteral("mainSplitter"));
    split->addWidget(editorPane);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({640, 760});
    setCentralWidget(split);

    m_status = new RunStatusBar;
    setStatusBar(m_status);
}

void MainWindow::connectActions()
{
    MainWindowActions* a = m_actions;
    connect(a->newTab, &QAction::triggered, this, [this] { m_tabs->newTab(); });
    connect(a->open, &QAction::triggered, this, &MainWindow::openFileWithDialog);
    connect(a->save, &QAction::triggered, this, [this] { saveCurrent(false); });
    connect(a->saveAs, &QAction::triggered, this, [this] { saveCurrent(true); });
    connect(a->closeTab, &QAction::triggered, this, &MainWindow::closeCurrentTab);
    connect(a->quit, &QAction::triggered, this, &QWidget::close);
    connect(a->find, &QAction::triggered, this, [this] {
        if (m_notebook->isAncestorOf(QApplication::focusWidget()))
            m_notebook->focusFind();
        else
            m_findBar->showFind();
    });
    connect(a->replace, &QAction::triggered, m_findBar, &FindReplaceBar::showReplace);
    connect(a->runAll, &QAction::triggered, this, &MainWindow::runAll);
    connect(a->runCell, &QAction::triggered, this, &MainWindow::runCurrentCell);
    connect(a->runSelection, &QAction::triggered, this, &MainWindow::runSelection);
    connect(a->stop, &QAction::triggered, m_runs, &RunController::stop);
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
    connect(a->examples, &ExamplesMenu::exampleChosen, this, qOverload<const Example&>(&MainWindow::openExample));
    connect(a->settings, &QAction::triggered, this, &MainWindow::openSettings);
    connect(a->usage, &QAction::triggered, this, &MainWindow::openUsage);
    connect(a->about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Sandpad"),
                           tr("<b>Sandpad %1</b><p>Run Python and JavaScript snippets in a secure sandbox.</p>")
                               .arg(QStringLiteral(SANDPAD_VERSION)));
    });

    connect(m_tabs, &EditorTabs::currentEditorChanged, m_findBar, &FindReplaceBar::setEditor);
    connect(m_tabs, &EditorTabs::currentChanged, this, &MainWindow::updateTitle);
    connect(m_tabs, &EditorTabs::tabCloseRequested, this, [this](int index) {
        if (confirmDiscard(m_tabs->page(index)))
            m_tabs->closePage(index);
    });
    connect(m_runs, &RunController::runningChanged, this, &MainWindow::onRunningChanged);
    connect(m_runs, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(m_notebook, &RunNotebook::tracebackLineActivated, this, &MainWindow::onTracebackLine);
    connect(m_notebook, &RunNotebook::entrySelected, this, [this] {
        if (RunEntry* e = m_notebook->selectedEntry(); e && !e->isRunning())
            showRunCharts(e);
    });
    connect(m_notebook, &RunNotebook::chartActivated, this, [this](const QString& runId, int index) {
        if (RunEntry* e = m_notebook->entry(runId)) {
            showRunCharts(e);
            m_charts->selectChart(index);
        }
    });
}

bool MainWindow::runAll()
{
    EditorPage* page = m_tabs->currentPage();
    if (!page)
        return false;
    return startRun(page, page->editor()->text(), page->title(), 1);
}

bool MainWindow::runCurrentCell()
{
    EditorPage* page = m_tabs->currentPage();
    if (!page)
        return false;
    CodeEditor* editor = page->editor();
    editor->updateCellSeparators();
    const CodeEditor::Cell cell = editor->currentCell();
    const QString title = editor->cellSeparatorLines().isEmpty()
                              ? page->title()
                              : tr("%1 · lines %2–%3").arg(page->title()).arg(cell.startLine).arg(cell.endLine);
    const bool started = startRun(page, cell.text, title, cell.startLine);
    if (started) {
        const int next = editor->nextCellLine();
        if (next > 0)
            editor->goToLine(next);
    }
    return started;
}

bool MainWindow::runSelection()
{
    EditorPage* page = m_tabs->currentPage();
    if (!page)
        return false;
    CodeEditor* editor = page->editor();
    if (!editor->hasSelectedText())
        return runAll();
    int line1 = 0, index1 = 0, line2 = 0, index2 = 0;
    editor->getSelection(&line1, &index1, &line2, &index2);
    return startRun(page, editor->selectedText(), tr("%1 · selection").arg(page->title()), line1 + 1);
}

bool MainWindow::startRun(EditorPage* page, const QString& code, const QString& title, int firstLine)
{
    if (m_runs->isRunning())
        return false;
    page->editor()->clearErrorMarks();
    if (!m_runs->start(page->language(), code, title))
        return false;
    if (RunEntry* entry = m_runs->currentEntry()) {
        m_origins.insert(entry, Origin{page, firstLine});
        connect(entry, &QObject::destroyed, this, [this, entry] { m_origins.remove(entry); });
    }
    return true;
}

void MainWindow::onRunFinished(const ExecutionResult& result)
{
    m_sessionTotal += result.costMicros;
    m_status->setLastRunCost(result.costMicros);
    m_status->setSessionTotal(m_sessionTotal);
    refreshCredits();
    RunEntry* entry = m_notebook->entry(result.runId);
    if (entry) {
        m_notebook->select(entry);
        showRunCharts(entry);
        if (entry == m_notebook->entries().constLast())
            m_notebook->showLatest();
    }
    if (result.error && entry) {
        if (const auto line = result.error->line()) {
            const Origin origin = m_origins.value(entry);
            if (origin.page)
                origin.page->editor()->markErrorLine(*line + origin.firstLine - 1,
                                                     result.error->name + QStringLiteral(": ") + result.error->value);
        }
    }
    emit runFinished(result);
}

void MainWindow::onTracebackLine(RunEntry* entry, int line)
{
    const Origin origin = entry ? m_origins.value(entry) : Origin{};
    EditorPage* page = origin.page ? origin.page.data() : m_tabs->currentPage();
    if (!page)
        return;
    m_tabs->setCurrentWidget(page);
    page->editor()->goToLine(line + origin.firstLine - 1);
}

void MainWindow::onRunningChanged(bool running)
{
    m_actions->runAll->setEnabled(!running);
    m_actions->runCell->setEnabled(!running);
    m_actions->runSelection->setEnabled(!running);
    m_actions->stop->setEnabled(running);
    m_status->setRunning(running);
}

void MainWindow::startValidation()
{
    if (!m_services.validate) {
        m_status->setValidation(m_services.providerName.isEmpty() || m_services.providerName == QLatin1String("none")
                                    ? RunStatusBar::Validation::Invalid
                                    : RunStatusBar::Validation::Unknown,
                                tr("No provider selected"));
        return;
    }
    m_status->setValidation(RunStatusBar::Validation::Checking);
    // Validation blocks (it may start interpreters or call a remote API): run it off the GUI thread.
    QPointer<MainWindow> self(this);
    std::thread([self, validate = m_services.validate] {
        const ValidationReport report = validate();
        QMetaObject::invokeMethod(qApp, [self, report] {
            if (!self)
                return;
            bool warnings = false;
            for (const ValidationItem& item : report.items)
                warnings = warnings || item.level == ValidationItem::Level::Warning;
            self->m_status->setValidation(!report.usable() ? RunStatusBar::Validation::Invalid
                                          : warnings       ? RunStatusBar::Validation::Warning
                                                           : RunStatusBar::Validation::Valid,
                                          report.toText());
        }, Qt::QueuedConnection);
    }).detach();
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

void MainWindow::showRunCharts(RunEntry* entry)
{
    // Keep the pane (and the user's zoom) when the run is already shown.
    if (!entry || entry->runId() == m_chartRunId)
        return;
    m_chartRunId = entry->runId();
    m_charts->setCharts(fromRunRecord(entry->record()).charts);
    // The image view measures its pane only once it is laid out: fit again after that.
    QTimer::singleShot(0, m_charts->pngView(), [pane = QPointer<ChartPane>(m_charts)] {
        if (pane && pane->currentView() == pane->pngView() && pane->pngView()->fitMode())
            pane->pngView()->fitToPane();
    });
}

void MainWindow::openUsage()
{
    if (m_services.openUsage) {
        m_services.openUsage(this);
        return;
    }
    if (!m_usageWindow) {
        auto* dialog = new QDialog(this);
        dialog->setWindowTitle(tr("Usage — Sandpad"));
        dialog->setAccessibleName(tr("Usage"));
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        auto* view = new UsageView(dialog);
        view->setLedger(m_services.ledger);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
        connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
        auto* layout = new QVBoxLayout(dialog);
        layout->addWidget(view, 1);
        layout->addWidget(buttons);
        dialog->resize(900, 560);
        m_usageWindow = dialog;
        connect(this, &MainWindow::runFinished, view, &UsageView::refresh);
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

void MainWindow::openExample(const Example& example)
{
    // An untouched empty tab is replaced rather than left behind.
    EditorPage* blank = m_tabs->currentPage();
    if (blank && (!blank->filePath().isEmpty() || blank->isModified() || !blank->editor()->text().isEmpty()))
        blank = nullptr;
    EditorPage* page = m_tabs->newTab(example.language, example.code(), example.fileName);
    page->setModified(false);
    if (blank)
        m_tabs->closePage(m_tabs->indexOf(blank));
}

bool MainWindow::openExample(const QString& name)
{
    const auto example = ExampleLibrary::find(name);
    if (!example)
        return false;
    openExample(*example);
    return true;
}

void MainWindow::openFileWithDialog()
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open"), QString(), tr("Code (*.py *.js *.mjs *.cjs);;All files (*)"));
    for (const QString& path : paths) {
        QString error;
        if (!m_tabs->openFile(path, &error))
            QMessageBox::warning(this, tr("Open"), error);
    }
}

bool MainWindow::saveCurrent(bool askPath)
{
    EditorPage* page = m_tabs->currentPage();
    if (!page)
        return false;
    QString path = page->filePath();
    if (askPath || path.isEmpty()) {
        const QString suggested = page->title().contains(QLatin1Char('.'))
                                      ? page->title()
                                      : page->title() + (page->language() == Language::Python ? QStringLiteral(".py")
                                                                                             : QStringLiteral(".js"));
        path = QFileDialog::getSaveFileName(this, tr("Save As"), suggested,
                                            tr("Python (*.py);;JavaScript (*.js *.mjs);;All files (*)"));
        if (path.isEmpty())
            return false;
    }
    QString error;
    if (!m_tabs->savePage(page, path, &error)) {
        QMessageBox::warning(this, tr("Save"), error);
        return false;
    }
    updateTitle();
    return true;
}

bool MainWindow::confirmDiscard(EditorPage* page)
{
    if (!page || !page->isModified())
        return true;
    m_tabs->setCurrentWidget(page);
    const auto answer = QMessageBox::question(this, tr("Unsaved changes"),
                                              tr("%1 has unsaved changes. Save them?").arg(page->title()),
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return saveCurrent(false);
    return true;
}

void MainWindow::closeCurrentTab()
{
    const int index = m_tabs->currentIndex();
    if (index >= 0 && confirmDiscard(m_tabs->page(index)))
        m_tabs->closePage(index);
}

void MainWindow::updateTitle()
{
    EditorPage* page = m_tabs->currentPage();
    setWindowTitle(page ? tr("%1 — Sandpad").arg(page->title()) : tr("Sandpad"));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    for (int i = 0; i < m_tabs->count(); ++i)
        if (!confirmDiscard(m_tabs->page(i))) {
            event->ignore();
            return;
        }
    m_runs->stop();
    event->accept();
}

} // namespace sandpad
