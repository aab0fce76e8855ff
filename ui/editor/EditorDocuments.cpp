#include "ui/editor/EditorDocuments.h"

#include "core/documents/DocumentStore.h"
#include "ui/editor/AttachmentStrip.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/notebookio/NotebookFiles.h"
#include "ui/recovery/RecoveryDialog.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QPointer>
#include <QPushButton>

namespace sandpad {

EditorDocuments::EditorDocuments(EditorTabs* tabs, DocumentStore* documents, const QString& recoveryDir,
                                 QWidget* window)
    : QObject(window), m_tabs(tabs), m_documents(documents), m_window(window)
{
    if (!recoveryDir.isEmpty()) {
        m_journal = new RecoveryJournal(recoveryDir, this);
        connect(m_journal, &RecoveryJournal::writeFailed, this, [this](const QString&, const QString& error) {
            // The text is still in the editor; the journal retries.
            emit statusMessage(tr("Unsaved text cannot be written to the recovery journal: %1").arg(error), 10000);
        });
    }
    m_notebooks = new NotebookFiles(tabs, window);
    connect(m_notebooks, &NotebookFiles::statusMessage, this, &EditorDocuments::statusMessage);
    connect(m_tabs, &EditorTabs::pageAdded, this, &EditorDocuments::watchPage);
    connect(m_tabs, &EditorTabs::tabCloseRequested, this, &EditorDocuments::closeTab);
    m_prompt = [this](EditorPage* page) {
        QMessageBox box(QMessageBox::Question, tr("Unsaved changes"),
                        tr("%1 has unsaved changes. Save them?").arg(page->title()),
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, m_window);
        if (m_closingAll > 1) // quitting with several modified tabs: one answer for the rest
            box.addButton(QMessageBox::NoToAll)->setText(tr("Discard All"));
        return QMessageBox::StandardButton(box.exec());
    };
}

// --- Files -------------------------------------------------------------------------------------

void EditorDocuments::openFileWithDialog()
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        m_window, tr("Open"), QString(),
        tr("Code and notebooks (*.py *.js *.mjs *.cjs *.ipynb);;Jupyter notebooks (*.ipynb);;All files (*)"));
    for (const QString& path : paths)
        openFile(path);
}

EditorPage* EditorDocuments::openFile(const QString& path)
{
    QString error;
    EditorPage* page = openFileQuietly(path, &error);
    if (!page && error.isEmpty()) // cancelled: said, not warned about
        emit statusMessage(tr("Opening %1 was cancelled").arg(QFileInfo(path).fileName()), 5000);
    else if (!page)
        QMessageBox::warning(m_window, tr("Open"), error);
    return page;
}

EditorPage* EditorDocuments::openFileQuietly(const QString& path, QString* error)
{
    // A notebook opens as its cells, never as its JSON.
    return NotebookFiles::isNotebookPath(path) ? m_notebooks->open(path, error) : m_tabs->openFile(path, error);
}

bool EditorDocuments::saveCurrent(bool askPath)
{
    EditorPage* page = m_tabs->currentPage();
    if (!page)
        return false;
    if (page->isReadOnlyRevision()) {
        if (!askPath) {
            emit statusMessage(tr("A stored revision is read-only: open the head to edit it."), 5000);
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
        path = QFileDialog::getSaveFileName(m_window, tr("Save As"), suggested,
                                            tr("Python (*.py);;JavaScript (*.js *.mjs);;Jupyter notebook (*.ipynb);;All files (*)"));
        if (path.isEmpty())
            return false;
    }
    QString error;
    // An .ipynb is written as a notebook (a tab opened from one stays one): never the tab's text.
    const bool saved = NotebookFiles::isNotebookPath(path) ? m_notebooks->save(page, path, &error)
                                                           : m_tabs->savePage(page, path, &error);
    if (!saved) {
        QMessageBox::warning(m_window, tr("Save"), error);
        return false;
    }
    if (page->isReadOnlyRevision()) // the tab stays the revision: say where the copy went
        emit statusMessage(tr("Saved a copy of revision %1 as %2")
                               .arg(page->baseRevisionId().left(8), QDir::toNativeSeparators(path)), 5000);
    return true;
}

// --- Saved documents ---------------------------------------------------------------------------

EditorPage* EditorDocuments::openDocumentForEditing(const QString& documentId, const QString& title,
                                                    const QString& content, const QString& headRevisionId)
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        EditorPage* page = m_tabs->page(i);
        if (page && page->isDocument() && page->documentId() == documentId) {
            m_tabs->setCurrentIndex(i); // already open: never two editable copies of one document
            return page;
        }
    }
    EditorPage* blank = blankCurrentPage();
    const Language language = languageFromTitle(title).value_or(Language::Python);
    EditorPage* page = m_tabs->newTab(language, content, title);
    page->setSource(DocumentSource{documentId, title, headRevisionId});
    page->setModified(false);
    closeBlank(blank);
    return page;
}

EditorPage* EditorDocuments::openRevisionReadOnly(const QString& documentId, const QString& title,
                                                  const QString& content, const QString& revisionId)
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
    if (m_documents)
        if (const auto doc = m_documents->document(documentId))
            docTitle = doc->title;
    const Language language = languageFromTitle(docTitle).value_or(Language::Python);
    EditorPage* page = m_tabs->newTab(language, content, docTitle);
    page->setSource(RevisionSource{documentId, docTitle, revisionId}); // the tab reads "title @ revision"
    page->setModified(false);
    return page;
}

bool EditorDocuments::saveToDocument(EditorPage* page)
{
    const auto doc = m_documents ? m_documents->document(page->documentId()) : std::nullopt;
    if (doc && doc->headRevisionId != page->baseRevisionId()) {
        // The head moved since this text was opened (a restore, another save): ask.
        const QMessageBox::StandardButton answer =
            m_stalePrompt ? m_stalePrompt(page)
                          : QMessageBox::question(
                                m_window, tr("Save"),
                                tr("%1 has a newer revision than the one this tab was opened at (a revision "
                                   "was restored?).\n\nSave your text as a new revision over it anyway?")
                                    .arg(page->title()),
                                QMessageBox::Save | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Save) {
            emit statusMessage(tr("Not saved: %1 has a newer revision.").arg(page->title()), 8000);
            return false;
        }
    }
    const auto revision = m_documents ? m_documents->save(page->documentId(), page->editor()->text()) : std::nullopt;
    if (!revision) {
        // The text stays in the editor (and in the recovery journal) until a save succeeds.
        const QString why = m_documents ? m_documents->lastError() : tr("no workspace is open");
        emit statusMessage(tr("Save failed: %1").arg(why), 10000);
        QMessageBox::warning(m_window, tr("Save"),
                             tr("%1 could not be saved: %2\n\nYour text is still in the editor.").arg(page->title(), why));
        return false;
    }
    page->setSource(DocumentSource{page->documentId(), page->title(), revision->id});
    page->setModified(false);
    emit statusMessage(tr("Saved %1 as revision %2").arg(page->title(), revision->id.left(8)), 5000);
    emit documentSaved(page->documentId());
    return true;
}

bool EditorDocuments::saveCurrentAsDocument(const QString& rawTitle)
{
    EditorPage* page = m_tabs->currentPage();
    QString title = rawTitle.trimmed();
    if (!page || !m_documents || title.isEmpty())
        return false;
    // No (known) extension: the tab's language gives one (not the no-extension default, Python,
    // which stored an untitled JavaScript tab as Python).
    if (!languageOfExtension(title))
        title = titleWithLanguage(title, page->language());
    const auto doc = m_documents->create(title, page->editor()->text());
    if (!doc) {
        emit statusMessage(tr("Save failed: %1").arg(m_documents->lastError()), 10000);
        QMessageBox::warning(m_window, tr("Save as Document"),
                             tr("The document could not be created: %1\n\nYour text is still in the editor.")
                                 .arg(m_documents->lastError()));
        return false;
    }
    if (page->isReadOnlyRevision()) {
        // A copy of a stored revision becomes a new document in its own editable tab.
        openDocumentForEditing(doc->id, doc->title, page->editor()->text(), doc->headRevisionId);
    } else {
        page->setSource(DocumentSource{doc->id, doc->title, doc->headRevisionId});
        page->setModified(false);
    }
    emit statusMessage(tr("Saved %1 as a document").arg(doc->title), 5000);
    emit documentCreated(doc->id);
    return true;
}

void EditorDocuments::saveAsDocumentInteractive()
{
    EditorPage* page = m_tabs->currentPage();
    if (!page || !m_documents)
        return;
    QString suggested = page->title();
    if (!languageFromTitle(suggested))
        suggested = suggested.toLower().replace(QLatin1Char(' '), QLatin1Char('_'))
                    + (page->language() == Language::JavaScript ? QStringLiteral(".js") : QStringLiteral(".py"));
    bool ok = false;
    const QString title = QInputDialog::getText(m_window, tr("Save as Document"),
                                                tr("Title (.py, .js or .mjs decides the language):"),
                                                QLineEdit::Normal, suggested, &ok);
    if (ok && !title.trimmed().isEmpty())
        saveCurrentAsDocument(title);
}

void EditorDocuments::applyDocumentTitles()
{
    if (!m_documents)
        return;
    for (int i = 0; i < m_tabs->count(); ++i) {
        EditorPage* page = m_tabs->page(i);
        if (!page || page->documentId().isEmpty())
            continue;
        const auto doc = m_documents->document(page->documentId());
        if (!doc)
            continue;
        EditorSource source = page->source();
        bool changed = false;
        if (doc->title != page->title()) {
            if (auto* d = std::get_if<DocumentSource>(&source))
                d->title = doc->title;
            else if (auto* r = std::get_if<RevisionSource>(&source))
                r->title = doc->title;
            changed = true;
        }
        // A new head made elsewhere (a revision restored in the dock): an unmodified tab shows
        // it at once; a modified one keeps its text and Save asks (saveToDocument), so that the
        // next Ctrl+S never silently writes the stale text over the restore.
        auto* d = std::get_if<DocumentSource>(&source);
        bool reloaded = false;
        if (d && d->headRevisionId != doc->headRevisionId && !page->isModified()) {
            if (const auto head = m_documents->revision(doc->headRevisionId)) {
                d->headRevisionId = head->id;
                page->editor()->setText(head->content);
                reloaded = changed = true;
                emit statusMessage(tr("%1 now shows revision %2").arg(doc->title, head->id.left(8)), 5000);
            }
        }
        if (changed)
            page->setSource(std::move(source));
        if (reloaded)
            page->setModified(false);
    }
}

// --- Examples ----------------------------------------------------------------------------------

void EditorDocuments::openExample(const Example& example)
{
    // An example already open in an untitled tab is gone back to (its edits kept), not opened
    // again: trying the examples one after another does not pile up tabs.
    for (int i = 0; i < m_tabs->count(); ++i) {
        EditorPage* page = m_tabs->page(i);
        const auto* untitled = page ? std::get_if<UntitledSource>(&page->source()) : nullptr;
        if (untitled && untitled->name == example.fileName) {
            m_tabs->setCurrentIndex(i);
            return;
        }
    }
    EditorPage* blank = blankCurrentPage();
    // The current tab is another example, untouched: the new one takes its place.
    if (EditorPage* current = m_tabs->currentPage(); !blank && current && !current->isModified())
        if (const auto* untitled = std::get_if<UntitledSource>(&current->source());
            untitled && ExampleLibrary::find(untitled->name))
            blank = current;
    EditorPage* page = m_tabs->newTab(example.language, example.code(), example.fileName);
    page->setModified(false);
    closeBlank(blank);
}

bool EditorDocuments::openExample(const QString& name)
{
    const auto example = ExampleLibrary::find(name);
    if (!example)
        return false;
    openExample(*example);
    return true;
}

// --- Closing -----------------------------------------------------------------------------------

bool EditorDocuments::confirmDiscard(EditorPage* page)
{
    if (!page || !page->isModified())
        return true;
    m_tabs->setCurrentWidget(page);
    const QMessageBox::StandardButton answer = m_prompt(page);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::NoToAll)
        m_discardAll = true;
    if (answer == QMessageBox::Save)
        return saveCurrent(false);
    return true;
}

void EditorDocuments::closeCurrentTab()
{
    const int index = m_tabs->currentIndex();
    if (index >= 0)
        closeTab(index);
}

void EditorDocuments::closeTab(int index)
{
    if (confirmDiscard(m_tabs->page(index)))
        closePageAt(index);
}

void EditorDocuments::closePageAt(int index)
{
    if (EditorPage* page = m_tabs->page(index); page && m_journal)
        m_journal->discard(page->tabId()); // closed on purpose: its text is saved or discarded
    m_tabs->closePage(index);
}

EditorPage* EditorDocuments::blankCurrentPage() const
{
    EditorPage* page = m_tabs->currentPage();
    return page && page->isBlank() ? page : nullptr;
}

void EditorDocuments::closeBlank(EditorPage* blank)
{
    // An untouched empty tab is replaced rather than left behind.
    if (blank)
        closePageAt(m_tabs->indexOf(blank));
}

bool EditorDocuments::confirmCloseAll()
{
    m_closingAll = 0;
    for (int i = 0; i < m_tabs->count(); ++i)
        if (m_tabs->page(i) && m_tabs->page(i)->isModified())
            ++m_closingAll;
    m_discardAll = false;
    bool ok = true;
    for (int i = 0; i < m_tabs->count() && ok && !m_discardAll; ++i) {
        EditorPage* page = m_tabs->page(i);
        if (!page || !page->isModified())
            continue;
        ok = confirmDiscard(page);
        --m_closingAll;
    }
    m_closingAll = 0;
    return ok;
}

void EditorDocuments::forgetJournal()
{
    if (!m_journal)
        return;
    for (int i = 0; i < m_tabs->count(); ++i)
        if (EditorPage* page = m_tabs->page(i))
            m_journal->discard(page->tabId());
}

void EditorDocuments::flushJournal()
{
    if (m_journal)
        m_journal->flush();
}

// --- Recovery ----------------------------------------------------------------------------------

void EditorDocuments::watchPage(EditorPage* page)
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
        s.input = guard->attachments()->tabInput();
        return s;
    };
    connect(page->editor(), &QsciScintilla::textChanged, m_journal, [this, guard, tabId, snapshot] {
        if (guard && guard->isModified() && !guard->isReadOnlyRevision())
            m_journal->noteChanged(tabId, snapshot);
    });
    // The attached files and the Input box go with the unsaved text (a crash brings them back with it).
    connect(page->attachments(), &AttachmentStrip::changed, m_journal, [this, guard, tabId, snapshot] {
        if (guard && guard->isModified() && !guard->isReadOnlyRevision())
            m_journal->noteChanged(tabId, snapshot);
    });
    connect(page->editor(), &QsciScintilla::modificationChanged, m_journal, [this, tabId](bool modified) {
        if (!modified)
            m_journal->discard(tabId); // saved (or undone back to the saved text)
    });
}

void EditorDocuments::offerRecovery(bool restoreAll)
{
    if (!m_journal)
        return;
    const QList<RecoveryEntry> entries = restoreAll ? m_journal->pending() : RecoveryDialog::offer(*m_journal, m_window);
    restoreRecovered(entries);
}

QList<EditorPage*> EditorDocuments::restoreRecovered(const QList<RecoveryEntry>& entries)
{
    QList<EditorPage*> pages;
    for (const RecoveryEntry& entry : entries) {
        if (!entry.isValid())
            continue;
        const RecoverySnapshot& s = *entry.snapshot;
        EditorPage* blank = blankCurrentPage();
        const Language language = languageFromName(s.language).value_or(languageFromTitle(s.title).value_or(Language::Python));
        EditorPage* page = m_tabs->newTab(language, {}, s.title);
        // Bound again to its document when that still exists here (Save then appends a revision).
        if (!s.documentId.isEmpty() && m_documents && m_documents->document(s.documentId))
            page->setSource(DocumentSource{s.documentId, s.title, s.baseRevisionId});
        page->editor()->setText(s.text); // modified: journaled under the new tab at once
        page->setModified(true);
        page->editor()->updateCellSeparators();
        if (!s.input.isEmpty())
            if (const QStringList missing = page->attachments()->restore(s.input); !missing.isEmpty())
                page->setNote(tr("The attached file(s) %1 are missing (moved or deleted since the crash).")
                                  .arg(missing.join(QStringLiteral(", "))));
        if (m_journal) {
            RecoverySnapshot again = s;
            again.tabId = page->tabId();
            m_journal->noteChanged(page->tabId(), again);
            if (m_journal->flush(page->tabId()))
                m_journal->discardEntry(entry); // the old file goes only once the new one is written
        }
        closeBlank(blank);
        pages.append(page);
    }
    if (!pages.isEmpty())
        emit statusMessage(tr("Restored %n unsaved tab(s)", nullptr, int(pages.size())), 8000);
    return pages;
}

} // namespace sandpad
