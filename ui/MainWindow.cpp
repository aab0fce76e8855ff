#include "MainWindow.h"

#include "MainWindowActions.h"
#include "accounting/CreditsAccount.h"
#include "charts/ChartPane.h"
#include "console/RunController.h"
#include "console/RunCoordinator.h"
#include "console/RunEntry.h"
#include "console/RunNotebook.h"
#include "documents/DocumentBrowser.h"
#include "documents/DocumentStore.h"
#include "recovery/RecoveryDialog.h"
#include "run/Run.h"
#include "editor/CodeEditor.h"
#include "editor/EditorPage.h"
#include "editor/EditorTabs.h"
#include "editor/FindReplaceBar.h"
#include "examples/ExamplesMenu.h"
#include "settings/AppSettings.h"
#include "statusbar/RunStatusBar.h"
#include "theme/Theme.h"
#include "usage/UsageView.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
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
    if (!services.recoveryDir.isEmpty())
        m_journal = new RecoveryJournal(services.recoveryDir, this);
    buildDocumentsDock();
    if (m_journal)
        connect(m_journal, &RecoveryJournal::writeFailed, this, [this](const QString&, const QString& error) {
            // The text is still in the editor; the journal retries.
            m_status->showMessage(tr("Unsaved text cannot be written to the recovery journal: %1").arg(error), 10000);
        });
    m_runs = new RunController(services.executor, m_notebook, this);
    m_runs->setHistory(services.history, services.saveRunsToHistory);
    m_runner = new RunCoordinator(m_runs, m_tabs, m_notebook, m_charts, m_status, m_actions, services.documents, this);
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
    // Not closed through closeEvent (e.g. the session ended): keep pending text journaled, and
    // write it while the tabs still exist.
    if (m_journal)
        m_journal->flush();
    // The entries (and the runs they own) go before the window's other parts.
    delete takeCentralWidget();
    for (const auto& validation : m_validationThreads)
        validation->wait();
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
    connect(a->saveAsDocument, &QAction::triggered, this, &MainWindow::saveAsDocumentInteractive);
    a->saveAsDocument->setEnabled(m_services.documents != nullptr);
    connect(a->openWorkspace, &QAction::triggered, this, [this] {
        if (m_services.openWorkspace)
            m_services.openWorkspace(this);
    });
    a->openWorkspace->setEnabled(bool(m_services.openWorkspace));
    connect(m_tabs, &EditorTabs::pageAdded, this, &MainWindow::watchPage);
    connect(a->find, &QAction::triggered, this, [this] {
        if (m_notebook->isAncestorOf(QApplication::focusWidget()))
            m_notebook->focusFind();
        else
            m_findBar->showFind();
    });
    connect(a->replace, &QAction::triggered, m_findBar, &FindReplaceBar::showReplace);
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
    connect(a->themes, &QActionGroup::triggered, this, [](QAction* chosen) {
        const QString name = chosen->data().toString();
        Theme::apply(name);
        AppSettings settings = AppSettings::load();
        settings.theme = name;
        settings.save();
    });
    connect(a->about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Sandpad"),
                           tr("<b>Sandpad %1</b><p>Run Python and JavaScript snippets in a secure sandbox.</p>")
                               .arg(QStringLiteral(SANDPAD_VERSION)));
    });

    connect(m_tabs, &EditorTabs::currentEditorChanged, m_findBar, &FindReplaceBar::setEditor);
    connect(m_tabs, &EditorTabs::currentChanged, this, &MainWindow::updateTitle);
    connect(m_tabs, &EditorTabs::tabCloseRequested, this, [this](int index) {
        if (confirmDiscard(m_tabs->page(index)))
            closePageAt(index);
    });
    // The balance changes with every run (the RunCoordinator follows the rest of a run).
    connect(m_runs, &RunController::runStarted, this, [this](Run* run) {
        connect(run, &Run::finished, this, &MainWindow::refreshCredits);
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
    QThread* thread = QThread::create([self, validate = m_services.validate] {
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
    });
    thread->setObjectName(QStringLiteral("sandpad-validate"));
    m_validationThreads.emplace_back(thread);
    thread->start();
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

void MainWindow::openExample(const Example& example)
{
    // An untouched empty tab is replaced rather than left behind.
    EditorPage* blank = m_tabs->currentPage();
    if (blank && (!blank->filePath().isEmpty() || blank->isModified() || !blank->editor()->text().isEmpty()))
        blank = nullptr;
    EditorPage* page = m_tabs->newTab(example.language, example.code(), example.fileName);
    page->setModified(false);
    if (blank)
        closePageAt(m_tabs->indexOf(blank));
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
    if (page->isReadOnlyRevision()) {
        if (!askPath) {
            m_status->showMessage(tr("A stored revision is read-only: open the head to edit it."), 5000);
            return false;
        }
    } else if (page->isDocument() && !askPath) {
        return saveToDocument(page);
    }
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
        closePageAt(index);
}

void MainWindow::closePageAt(int index)
{
    if (EditorPage* page = m_tabs->page(index); page && m_journal)
        m_journal->discard(page->tabId()); // closed on purpose: its text is saved or discarded
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
    // Every tab was saved or its changes discarded on purpose: nothing is left to recover.
    if (m_journal)
        for (int i = 0; i < m_tabs->count(); ++i)
            if (EditorPage* page = m_tabs->page(i))
                m_journal->discard(page->tabId());
    event->accept();
}

// --- Saved documents --------------------------------------------------------------------------

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

    connect(m_browser, &DocumentBrowser::openForEditing, this, &MainWindow::openDocumentForEditing);
    connect(m_browser, &DocumentBrowser::openReadOnly, this,
            [this](const QString& title, const QString& content, const QString& revisionId) {
                openRevisionReadOnly(m_browser->currentDocumentId(), title, content, revisionId);
            });
    connect(m_browser, &DocumentBrowser::runRevisionRequested, this,
            [this](const QString& documentId, const QString& revisionId) { runRevision(documentId, revisionId); });
    connect(m_browser, &DocumentBrowser::errorOccurred, this,
            [this](const QString& message) { m_status->showMessage(message, 8000); });
    connect(m_browser, &DocumentBrowser::documentsChanged, this, [this] {
        // A rename shows in the document's open tabs.
        if (!m_services.documents)
            return;
        for (int i = 0; i < m_tabs->count(); ++i) {
            EditorPage* page = m_tabs->page(i);
            if (!page || !page->isDocument())
                continue;
            if (const auto doc = m_services.documents->document(page->documentId()); doc && doc->title != page->title()) {
                if (page->isReadOnlyRevision())
                    page->setReadOnlyRevision(page->documentId(), doc->title, page->baseRevisionId());
                else
                    page->setDocument(page->documentId(), doc->title, page->baseRevisionId());
            }
        }
    });
}

EditorPage* MainWindow::openDocumentForEditing(const QString& documentId, const QString& title, const QString& content,
                                               const QString& headRevisionId)
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        EditorPage* page = m_tabs->page(i);
        if (page && page->documentId() == documentId && !page->isReadOnlyRevision()) {
            m_tabs->setCurrentIndex(i); // already open: never two editable copies of one document
            return page;
        }
    }
    EditorPage* blank = m_tabs->currentPage();
    if (blank && (blank->isDocument() || !blank->filePath().isEmpty() || blank->isModified()
                  || !blank->editor()->text().isEmpty()))
        blank = nullptr;
    const Language language = languageFromTitle(title).value_or(Language::Python);
    EditorPage* page = m_tabs->newTab(language, content, title);
    page->setDocument(documentId, title, headRevisionId);
    page->setModified(false);
    if (blank)
        closePageAt(m_tabs->indexOf(blank));
    updateTitle();
    return page;
}

EditorPage* MainWindow::openRevisionReadOnly(const QString& documentId, const QString& title, const QString& content,
                                             const QString& revisionId)
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        EditorPage* page = m_tabs->page(i);
        if (page && page->isReadOnlyRevision() && page->baseRevisionId() == revisionId) {
            m_tabs->setCurrentIndex(i);
            return page;
        }
    }
    // The browser's title may be a label ("x.py @ #1 (…)"): the document's own title gives the language.
    QString docTitle = title;
    if (m_services.documents)
        if (const auto doc = m_services.documents->document(documentId))
            docTitle = doc->title;
    const Language language = languageFromTitle(docTitle).value_or(Language::Python);
    EditorPage* page = m_tabs->newTab(language, content, docTitle);
    page->setReadOnlyRevision(documentId, docTitle, revisionId);
    page->setModified(false);
    m_tabs->setTabText(m_tabs->indexOf(page), tr("%1 @ %2").arg(docTitle, revisionId.left(8)));
    updateTitle();
    return page;
}

bool MainWindow::saveToDocument(EditorPage* page)
{
    DocumentStore* store = m_services.documents;
    const auto revision = store ? store->save(page->documentId(), page->editor()->text()) : std::nullopt;
    if (!revision) {
        // The text stays in the editor (and in the recovery journal) until a save succeeds.
        const QString why = store ? store->lastError() : tr("no workspace is open");
        m_status->showMessage(tr("Save failed: %1").arg(why), 10000);
        QMessageBox::warning(this, tr("Save"),
                             tr("%1 could not be saved: %2\n\nYour text is still in the editor.").arg(page->title(), why));
        return false;
    }
    page->setDocument(page->documentId(), page->title(), revision->id);
    page->setModified(false);
    m_status->showMessage(tr("Saved %1 as revision %2").arg(page->title(), revision->id.left(8)), 5000);
    if (m_browser) {
        m_browser->refresh();
        m_browser->selectDocument(page->documentId());
    }
    updateTitle();
    return true;
}

bool MainWindow::saveCurrentAsDocument(const QString& rawTitle)
{
    EditorPage* page = m_tabs->currentPage();
    DocumentStore* store = m_services.documents;
    QString title = rawTitle.trimmed();
    if (!page || !store || title.isEmpty())
        return false;
    if (!languageFromTitle(title)) // no (known) extension: the tab's language gives one
        title += page->language() == Language::JavaScript ? QStringLiteral(".js") : QStringLiteral(".py");
    const auto doc = store->create(title, page->editor()->text());
    if (!doc) {
        m_status->showMessage(tr("Save failed: %1").arg(store->lastError()), 10000);
        QMessageBox::warning(this, tr("Save as Document"),
                             tr("The document could not be created: %1\n\nYour text is still in the editor.")
                                 .arg(store->lastError()));
        return false;
    }
    if (page->isReadOnlyRevision()) {
        // A copy of a stored revision becomes a new document in its own editable tab.
        openDocumentForEditing(doc->id, doc->title, page->editor()->text(), doc->headRevisionId);
    } else {
        page->setDocument(doc->id, doc->title, doc->headRevisionId);
        page->setModified(false);
    }
    m_status->showMessage(tr("Saved %1 as a document").arg(doc->title), 5000);
    if (m_browser) {
        m_browser->refresh();
        m_browser->selectDocument(doc->id);
    }
    m_documentsDock->show();
    updateTitle();
    return true;
}

void MainWindow::saveAsDocumentInteractive()
{
    EditorPage* page = m_tabs->currentPage();
    if (!page || !m_services.documents)
        return;
    QString suggested = page->title();
    if (!languageFromTitle(suggested))
        suggested = suggested.toLower().replace(QLatin1Char(' '), QLatin1Char('_'))
                    + (page->language() == Language::JavaScript ? QStringLiteral(".js") : QStringLiteral(".py"));
    bool ok = false;
    const QString title = QInputDialog::getText(this, tr("Save as Document"),
                                                tr("Title (.py, .js or .mjs decides the language):"),
                                                QLineEdit::Normal, suggested, &ok);
    if (ok && !title.trimmed().isEmpty())
        saveCurrentAsDocument(title);
}

// --- Recovery ----------------------------------------------------------------------------------

void MainWindow::watchPage(EditorPage* page)
{
    if (!m_journal)
        return;
    QPointer<EditorPage> guard(page);
    const QString tabId = page->tabId();
    // The text is read when the journal writes (not on every keystroke); the journal is flushed
    // or told to discard before a tab goes away, so the page is alive then.
    const RecoveryJournal::SnapshotFn snapshot = [guard] {
        RecoverySnapshot s;
        if (!guard)
            return s;
        s.title = guard->title();
        s.language = languageName(guard->language());
        s.documentId = guard->documentId();
        s.baseRevisionId = guard->baseRevisionId();
        s.text = guard->editor()->text();
        return s;
    };
    connect(page->editor(), &QsciScintilla::textChanged, m_journal, [this, guard, tabId, snapshot] {
        if (guard && guard->isModified() && !guard->isReadOnlyRevision())
            m_journal->noteChanged(tabId, snapshot);
    });
    connect(page->editor(), &QsciScintilla::modificationChanged, m_journal, [this, tabId](bool modified) {
        if (!modified)
            m_journal->discard(tabId); // saved (or undone back to the saved text)
    });
}

void MainWindow::offerRecovery(bool restoreAll)
{
    if (!m_journal)
        return;
    const QList<RecoveryEntry> entries = restoreAll ? m_journal->pending() : RecoveryDialog::offer(*m_journal, this);
    restoreRecovered(entries);
}

QList<EditorPage*> MainWindow::restoreRecovered(const QList<RecoveryEntry>& entries)
{
    QList<EditorPage*> pages;
    for (const RecoveryEntry& entry : entries) {
        if (!entry.isValid())
            continue;
        const RecoverySnapshot& s = *entry.snapshot;
        EditorPage* blank = m_tabs->currentPage();
        if (blank && (blank->isDocument() || !blank->filePath().isEmpty() || blank->isModified()
                      || !blank->editor()->text().isEmpty()))
            blank = nullptr;
        const Language language = languageFromName(s.language).value_or(languageFromTitle(s.title).value_or(Language::Python));
        EditorPage* page = m_tabs->newTab(language, {}, s.title);
        // Bound again to its document when that still exists here (Save then appends a revision).
        if (!s.documentId.isEmpty() && m_services.documents && m_services.documents->document(s.documentId))
            page->setDocument(s.documentId, s.title, s.baseRevisionId);
        page->editor()->setText(s.text); // modified: journaled under the new tab at once
        page->setModified(true);
        page->editor()->updateCellSeparators();
        if (m_journal) {
            RecoverySnapshot again = s;
            again.tabId = page->tabId();
            m_journal->noteChanged(page->tabId(), again);
            if (m_journal->flush(page->tabId()))
                m_journal->discardEntry(entry); // the old file goes only once the new one is written
        }
        if (blank)
            closePageAt(m_tabs->indexOf(blank));
        pages.append(page);
    }
    if (!pages.isEmpty())
        m_status->showMessage(tr("Restored %n unsaved tab(s)", nullptr, int(pages.size())), 8000);
    updateTitle();
    return pages;
}

} // namespace sandpad
