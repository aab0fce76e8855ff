// EditorDocuments: what replaces the blank tab, saving to files and documents, one editable tab
// per document, read-only revision tabs, the discard prompt on close, renames, recovery.
#include "core/documents/DocumentStore.h"
#include "core/recovery/RecoveryJournal.h"
#include "core/storage/Database.h"
#include "ui/documents/DocumentBrowser.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorDocuments.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"

#include <Qsci/qscilexerpython.h>
#include <QFile>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace sandpad;

class TestEditorDocuments : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<DocumentStore> m_store;
    std::unique_ptr<QWidget> m_window;
    EditorTabs* m_tabs = nullptr;
    EditorDocuments* m_docs = nullptr;
    QList<EditorPage*> m_asked;                     // what the discard prompt was asked about
    QMessageBox::StandardButton m_answer = QMessageBox::Cancel;

    EditorPage* page() const { return m_tabs->currentPage(); }
    static void type(EditorPage* page, const QString& text)
    {
        page->editor()->selectAll();
        page->editor()->replaceSelectedText(text); // an edit, like typing (the tab is modified)
    }
    QString writeFile(const QString& name, const QByteArray& content) const
    {
        const QString path = m_dir->filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
            return {};
        return path;
    }
    QString readFile(const QString& path) const
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }

private slots:
    // A fresh window per test: one blank untitled tab, as the main window starts.
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_db = std::make_unique<Database>(m_dir->path());
        QVERIFY2(m_db->open(), qPrintable(m_db->error()));
        m_store = std::make_unique<DocumentStore>(*m_db);
        m_window = std::make_unique<QWidget>();
        m_tabs = new EditorTabs(m_window.get());
        m_docs = new EditorDocuments(m_tabs, m_store.get(), m_dir->path(), m_window.get());
        m_asked.clear();
        m_answer = QMessageBox::Cancel;
        m_docs->setDiscardPrompt([this](EditorPage* asked) {
            m_asked.append(asked);
            return m_answer;
        });
        m_tabs->newTab();
        QVERIFY(page()->isBlank());
    }
    void cleanup()
    {
        m_window.reset();
        m_store.reset();
        m_db.reset();
        m_dir.reset();
    }

    void openingADocumentOrExampleReplacesTheBlankTab()
    {
        const auto doc = m_store->create(QStringLiteral("a.py"), QStringLiteral("x = 1\n"));
        QVERIFY(doc);
        EditorPage* opened = m_docs->openDocumentForEditing(doc->id, doc->title, QStringLiteral("x = 1\n"),
                                                            doc->headRevisionId);
        QCOMPARE(m_tabs->count(), 1);
        QCOMPARE(page(), opened);
        QVERIFY(!opened->isBlank()); // a document, even an empty one, is never replaced

        m_tabs->newTab();
        QVERIFY(m_docs->openExample(QStringLiteral("sine_wave")));
        QCOMPARE(m_tabs->count(), 2); // the document and the example: the new blank tab went
        QVERIFY(std::holds_alternative<UntitledSource>(page()->source()));
        QVERIFY(!page()->isModified());
    }

    // Today's behaviour, kept: a file opens beside the blank tab (and focuses its tab when open).
    // An opened file goes into the editor through Scintilla's loader (a document swapped in):
    // the editor is then as after setText. The text crosses the loader's 1 Mi-unit slices with a
    // surrogate pair on the boundary.
    void anOpenedFileIsEditableColouredAndNotUndoable()
    {
        QString text = QStringLiteral("# %%\ndef f():\n    return 1\n# %% second\n");
        while (text.size() < (1 << 20) - 40)
            text += QStringLiteral("y = '\u00e9'\n");
        text += QString((1 << 20) - 1 - text.size(), u'z');
        text += QStringLiteral("\U0001F600\n# %% last\nprint(1)\n");
        QVERIFY(text.at((1 << 20) - 1).isHighSurrogate());
        const QString path = writeFile(QStringLiteral("big.py"), text.toUtf8());
        QString error;
        EditorPage* opened = m_docs->openFileQuietly(path, &error);
        QVERIFY2(opened, qPrintable(error));
        CodeEditor* editor = opened->editor();
        QCOMPARE(editor->text(), text);
        QVERIFY(!opened->isModified());
        QVERIFY(!editor->isUndoAvailable());
        const int lastSeparator = int(text.count(u'\n')) - 2;
        QCOMPARE(editor->cellSeparatorLines(), (QList<int>{0, 3, lastSeparator}));
        // The document's own settings came along: lexer, UTF-8, EOL, indentation.
        QCOMPARE(editor->SendScintilla(QsciScintilla::SCI_GETLEXER), 2l /* SCLEX_PYTHON */);
        QVERIFY(editor->isUtf8());
        QCOMPARE(editor->eolMode(), QsciScintilla::EolUnix);
        QCOMPARE(editor->tabWidth(), 4);
        QVERIFY(!editor->indentationsUseTabs());
        QCOMPARE(editor->SendScintilla(QsciScintilla::SCI_GETPROPERTY, "fold", nullptr), 1l);
        editor->SendScintilla(QsciScintilla::SCI_COLOURISE, 0ul, 40l);
        QCOMPARE(editor->SendScintilla(QsciScintilla::SCI_GETSTYLEAT, 5ul), long(QsciLexerPython::Keyword)); // def
        // Edits are undoable, back to the opened (unmodified) text and no further.
        editor->insertAt(QStringLiteral("x"), 1, 0);
        QVERIFY(opened->isModified());
        editor->undo();
        QVERIFY(!opened->isModified());
        QVERIFY(!editor->isUndoAvailable());
        QCOMPARE(editor->text(), text);
        // Markers mark lines of the new document.
        editor->markErrorLine(2, QStringLiteral("boom"));
        QCOMPARE(editor->markersAtLine(1) & (1 << 1), 1u << 1);
    }
    // A load dropped half way (the tab closed, or another load) leaves no thread or document behind.
    void aLoadCanBeDroppedOrReplaced()
    {
        const QString text(3 << 20, u'a');
        {
            CodeEditor editor;
            editor.startLoad(text);
        } // destroyed while filling
        CodeEditor editor;
        editor.startLoad(text);
        editor.startLoad(QStringLiteral("# %%\nprint(2)\n"));
        QTRY_VERIFY(editor.loadReady());
        editor.finishLoad();
        QCOMPARE(editor.text(), QStringLiteral("# %%\nprint(2)\n"));
        QCOMPARE(editor.cellSeparatorLines(), QList<int>{0});
        QVERIFY(!editor.isModified());
    }
    void openingAFileKeepsTheBlankTabAndSavesToIt()
    {
        EditorPage* blank = page();
        const QString path = writeFile(QStringLiteral("b.js"), "console.log(1)\n");
        QVERIFY(!path.isEmpty());
        EditorPage* opened = m_docs->openFile(path);
        QVERIFY(opened);
        QCOMPARE(m_tabs->count(), 2);
        QCOMPARE(m_tabs->indexOf(blank), 0);
        const auto* file = std::get_if<FileSource>(&opened->source());
        QVERIFY(file);
        QCOMPARE(file->path, QFileInfo(path).absoluteFilePath());
        QCOMPARE(opened->title(), QStringLiteral("b.js"));
        QCOMPARE(opened->language(), Language::JavaScript);
        QCOMPARE(m_docs->openFile(path), opened);
        QCOMPARE(m_tabs->count(), 2);

        // Save writes the file (no dialog: it has one).
        type(opened, QStringLiteral("console.log(2)\n"));
        QVERIFY(m_docs->saveCurrent(false));
        QVERIFY(!opened->isModified());
        QCOMPARE(readFile(path), QStringLiteral("console.log(2)\n"));
    }

    void savingADocumentAppendsARevision()
    {
        type(page(), QStringLiteral("print('one')\n"));
        QSignalSpy created(m_docs, &EditorDocuments::documentCreated);
        QSignalSpy saved(m_docs, &EditorDocuments::documentSaved);
        QVERIFY(m_docs->saveCurrentAsDocument(QStringLiteral("snippet.py")));
        QCOMPARE(created.size(), 1);
        const auto* first = std::get_if<DocumentSource>(&page()->source());
        QVERIFY(first);
        const QString docId = first->documentId;
        const QString rev1 = first->headRevisionId;
        QCOMPARE(first->title, QStringLiteral("snippet.py"));
        QCOMPARE(created.first().first().toString(), docId);
        QVERIFY(!page()->isModified());

        type(page(), QStringLiteral("print('two')\n"));
        QVERIFY(m_docs->saveCurrent(false));
        QCOMPARE(saved.size(), 1);
        QCOMPARE(saved.first().first().toString(), docId);
        const auto* second = std::get_if<DocumentSource>(&page()->source());
        QVERIFY(second);
        QVERIFY(second->headRevisionId != rev1);
        QCOMPARE(m_store->document(docId)->revisionCount, 2);
        QCOMPARE(m_store->document(docId)->headRevisionId, second->headRevisionId);
        QCOMPARE(m_store->revision(second->headRevisionId)->content, QStringLiteral("print('two')\n"));
        QVERIFY(!page()->isModified());
    }

    void aRestoreReachesTheOpenTabAndSaveDoesNotOverwriteIt()
    {
        type(page(), QStringLiteral("v1\n"));
        QVERIFY(m_docs->saveCurrentAsDocument(QStringLiteral("r.py")));
        const QString docId = page()->documentId();
        const QString rev1 = page()->baseRevisionId();
        type(page(), QStringLiteral("v2\n"));
        QVERIFY(m_docs->saveCurrent(false));
        // The dock restores revision 1 (a new head with its text): the unmodified tab shows it.
        const auto restored = m_store->restore(docId, rev1);
        QVERIFY(restored);
        m_docs->applyDocumentTitles();
        QCOMPARE(page()->editor()->text(), QStringLiteral("v1\n"));
        QCOMPARE(page()->baseRevisionId(), restored->id);
        QVERIFY(!page()->isModified());

        // A tab with unsaved text keeps it; Ctrl+S then asks instead of writing over the restore.
        type(page(), QStringLiteral("edited on v1\n"));
        const auto again = m_store->restore(docId, rev1);
        QVERIFY(again);
        m_docs->applyDocumentTitles();
        QCOMPARE(page()->editor()->text(), QStringLiteral("edited on v1\n"));
        int asked = 0;
        m_docs->setStalePrompt([&asked](EditorPage*) {
            ++asked;
            return QMessageBox::Cancel;
        });
        QVERIFY(!m_docs->saveCurrent(false));
        QCOMPARE(asked, 1);
        QCOMPARE(m_store->document(docId)->headRevisionId, again->id); // nothing written
        m_docs->setStalePrompt([&asked](EditorPage*) {
            ++asked;
            return QMessageBox::Save;
        });
        QVERIFY(m_docs->saveCurrent(false)); // on purpose: a new revision over it
        QCOMPARE(m_store->revision(m_store->document(docId)->headRevisionId)->content, QStringLiteral("edited on v1\n"));
        QVERIFY(m_docs->saveCurrent(false) || !page()->isModified()); // up to date: no question
        QCOMPARE(asked, 2);
    }

    void saveAsDocumentKeepsAJavaScriptTabJavaScript()
    {
        page()->setLanguage(Language::JavaScript);
        type(page(), QStringLiteral("console.log(1)\n"));
        QVERIFY(m_docs->saveCurrentAsDocument(QStringLiteral("notes")));
        QCOMPARE(m_store->document(page()->documentId())->title, QStringLiteral("notes.js"));
        QCOMPARE(page()->language(), Language::JavaScript);
        QCOMPARE(titleWithLanguage(QStringLiteral("a.js"), Language::Python), QStringLiteral("a.py"));
        QCOMPARE(titleWithLanguage(QStringLiteral("v1.2"), Language::Python), QStringLiteral("v1.2.py"));
        QCOMPARE(titleWithLanguage(QStringLiteral("a.mjs"), Language::JavaScript), QStringLiteral("a.mjs"));
        QVERIFY(!languageOfExtension(QStringLiteral("notes")));
        QCOMPARE(languageOfExtension(QStringLiteral("x.cjs")), std::optional(Language::JavaScript));
    }

    void renamingToAnotherLanguageAsksAndOneIdIsShown()
    {
        DocumentBrowser browser(m_store.get(), nullptr);
        QList<std::pair<Language, Language>> asked;
        DocumentBrowser::LanguageChoice answer = DocumentBrowser::LanguageChoice::Keep;
        browser.setLanguagePrompt([&](Language from, Language to) {
            asked.append({from, to});
            return answer;
        });
        QCOMPARE(browser.titleForRename(QStringLiteral("a.py"), QStringLiteral("b.py")), QStringLiteral("b.py"));
        QVERIFY(asked.isEmpty()); // same language: nothing to ask
        QCOMPARE(browser.titleForRename(QStringLiteral("a.py"), QStringLiteral("a.js")), QStringLiteral("a.py"));
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.first(), std::pair(Language::Python, Language::JavaScript));
        answer = DocumentBrowser::LanguageChoice::Change;
        QCOMPARE(browser.titleForRename(QStringLiteral("a.py"), QStringLiteral("a.js")), QStringLiteral("a.js"));
        answer = DocumentBrowser::LanguageChoice::Cancel;
        QCOMPARE(browser.titleForRename(QStringLiteral("a.py"), QStringLiteral("z.mjs")), QStringLiteral("a.py"));

        // The revision table names a revision by the id the status bar and notebook show.
        type(page(), QStringLiteral("x = 1\n"));
        QSignalSpy status(m_docs, &EditorDocuments::statusMessage);
        QVERIFY(m_docs->saveCurrentAsDocument(QStringLiteral("ids.py")));
        type(page(), QStringLiteral("x = 2\n"));
        QVERIFY(m_docs->saveCurrent(false));
        const QString head = page()->baseRevisionId();
        QVERIFY(status.last().first().toString().contains(head.left(8)));
        browser.refresh();
        browser.selectDocument(page()->documentId());
        QTableWidget* revisions = browser.revisionTable();
        bool shown = false;
        for (int row = 0; row < revisions->rowCount(); ++row)
            for (int col = 0; col < revisions->columnCount(); ++col)
                if (revisions->item(row, col) && revisions->item(row, col)->text() == head.left(8))
                    shown = true;
        QVERIFY2(shown, "the head's id as the status bar said it");
    }

    void aDocumentOpensInOneEditableTab()
    {
        const auto doc = m_store->create(QStringLiteral("c.py"), QStringLiteral("c = 3\n"));
        QVERIFY(doc);
        EditorPage* first = m_docs->openDocumentForEditing(doc->id, doc->title, QStringLiteral("c = 3\n"),
                                                           doc->headRevisionId);
        m_tabs->newTab();
        QCOMPARE(m_tabs->count(), 2);
        EditorPage* again = m_docs->openDocumentForEditing(doc->id, doc->title, QStringLiteral("c = 3\n"),
                                                           doc->headRevisionId);
        QCOMPARE(again, first);
        QCOMPARE(page(), first);
        QCOMPARE(m_tabs->count(), 2);
    }

    void aRevisionTabIsReadOnly()
    {
        const auto doc = m_store->create(QStringLiteral("d.js"), QStringLiteral("let d = 1\n"));
        QVERIFY(doc);
        const QString rev = doc->headRevisionId;
        // The dock's label as the title: the document's own title is used.
        EditorPage* shown = m_docs->openRevisionReadOnly(doc->id, QStringLiteral("d.js @ #1"),
                                                         QStringLiteral("let d = 1\n"), rev);
        const auto* source = std::get_if<RevisionSource>(&shown->source());
        QVERIFY(source);
        QCOMPARE(source->documentId, doc->id);
        QCOMPARE(source->revisionId, rev);
        QCOMPARE(shown->title(), QStringLiteral("d.js"));
        QCOMPARE(shown->language(), Language::JavaScript);
        QVERIFY(shown->editor()->isReadOnly());
        QCOMPARE(m_tabs->tabText(m_tabs->indexOf(shown)), QStringLiteral("d.js @ %1").arg(rev.left(8)));
        QCOMPARE(m_tabs->count(), 2); // a revision is shown beside the blank tab, as before

        QSignalSpy messages(m_docs, &EditorDocuments::statusMessage);
        QVERIFY(!m_docs->saveCurrent(false)); // nothing is saved back to a revision
        QCOMPARE(messages.size(), 1);
        QCOMPARE(m_store->document(doc->id)->revisionCount, 1);
        QCOMPARE(m_docs->openRevisionReadOnly(doc->id, doc->title, QStringLiteral("let d = 1\n"), rev), shown);
        QCOMPARE(m_tabs->count(), 2);

        // Written to a file, the tab still shows the revision (the file is a copy).
        QString error;
        QVERIFY2(m_tabs->savePage(shown, m_dir->filePath(QStringLiteral("copy.js")), &error), qPrintable(error));
        QVERIFY(shown->isReadOnlyRevision());
        QCOMPARE(readFile(m_dir->filePath(QStringLiteral("copy.js"))), QStringLiteral("let d = 1\n"));
    }

    void renamesReachOpenTabs()
    {
        const auto doc = m_store->create(QStringLiteral("e.py"), QStringLiteral("e = 5\n"));
        QVERIFY(doc);
        EditorPage* editable = m_docs->openDocumentForEditing(doc->id, doc->title, QStringLiteral("e = 5\n"),
                                                              doc->headRevisionId);
        EditorPage* revision = m_docs->openRevisionReadOnly(doc->id, doc->title, QStringLiteral("e = 5\n"),
                                                            doc->headRevisionId);
        QVERIFY(m_store->rename(doc->id, QStringLiteral("renamed.py")));
        m_docs->applyDocumentTitles();
        QCOMPARE(editable->title(), QStringLiteral("renamed.py"));
        QVERIFY(editable->isDocument());
        QCOMPARE(revision->title(), QStringLiteral("renamed.py"));
        QVERIFY(revision->isReadOnlyRevision());
        QCOMPARE(m_tabs->tabText(m_tabs->indexOf(revision)),
                 QStringLiteral("renamed.py @ %1").arg(doc->headRevisionId.left(8)));
    }

    void closingUnsavedTextAsks()
    {
        EditorPage* clean = page();
        m_tabs->newTab();
        EditorPage* edited = page();
        type(edited, QStringLiteral("unsaved = True\n"));
        RecoveryJournal* journal = m_docs->journal();
        QVERIFY(journal);
        m_docs->flushJournal();
        const QString journalFile = journal->filePathFor(edited->tabId());
        QVERIFY(QFile::exists(journalFile));

        // Cancel keeps the tab, and the window open.
        m_answer = QMessageBox::Cancel;
        m_docs->closeCurrentTab();
        QCOMPARE(m_asked, QList<EditorPage*>{edited});
        QCOMPARE(m_tabs->count(), 2);
        QVERIFY(!m_docs->confirmCloseAll());
        QCOMPARE(m_asked.size(), 2); // the clean tab is not asked about
        QVERIFY(QFile::exists(journalFile));

        // Discard closes it and forgets its journaled text.
        m_answer = QMessageBox::Discard;
        m_docs->closeTab(m_tabs->indexOf(edited));
        QCOMPARE(m_asked.size(), 3);
        QCOMPARE(m_tabs->count(), 1);
        QCOMPARE(page(), clean);
        QVERIFY(!QFile::exists(journalFile));
        QVERIFY(m_docs->confirmCloseAll()); // nothing modified is left
        QCOMPARE(m_asked.size(), 3);
    }

    void recoveredTextReplacesTheBlankTab()
    {
        const auto doc = m_store->create(QStringLiteral("f.py"), QStringLiteral("f = 1\n"));
        QVERIFY(doc);
        RecoveryJournal* journal = m_docs->journal();
        RecoverySnapshot left;
        left.tabId = QStringLiteral("crashed-tab");
        left.title = doc->title;
        left.language = QStringLiteral("python");
        left.documentId = doc->id;
        left.baseRevisionId = doc->headRevisionId;
        left.text = QStringLiteral("f = 2  # typed before the crash\n");
        journal->noteChanged(left.tabId, left);
        QVERIFY(journal->flush());

        m_docs->offerRecovery(true);
        QCOMPARE(m_tabs->count(), 1);
        const auto* source = std::get_if<DocumentSource>(&page()->source());
        QVERIFY(source); // bound to its document again: Save appends a revision
        QCOMPARE(source->documentId, doc->id);
        QCOMPARE(source->headRevisionId, doc->headRevisionId);
        QCOMPARE(page()->editor()->text(), left.text);
        QVERIFY(page()->isModified());
        const QList<RecoveryEntry> pending = journal->pending();
        QCOMPARE(pending.size(), 1);
        QCOMPARE(pending.first().tabId, page()->tabId()); // the old file went, the new tab's is there
    }
};

QTEST_MAIN(TestEditorDocuments)
#include "test_editor_documents.moc"
