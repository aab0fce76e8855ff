// The open tabs across a normal restart (issue 16): files, documents, revisions and untitled text
// come back with their cursor and run mode; a file or document that vanished keeps its tab with
// a note; the list is taken once, so a later crash never finds it; a damaged list loses nothing
// else. The main window writes it at a normal quit (closeEvent) and restores it at start.
#include "TempDatabase.h"

#include "core/documents/DocumentStore.h"
#include "core/recovery/OpenTabs.h"
#include "core/recovery/RecoveryJournal.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorDocuments.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/MainWindow.h"
#include "ui/recovery/OpenTabsRestore.h"
#include "ui/session/TabSessions.h"
#include "ui/statusbar/RunStatusBar.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sandpad;

namespace {
bool writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}
int cursorLine(EditorPage* page)
{
    int line = -1, index = -1;
    page->editor()->getCursorPosition(&line, &index);
    return line;
}
} // namespace

class TestOpenTabs : public QObject {
    Q_OBJECT

private slots:
    void fileRoundTripsAndIsTakenOnce()
    {
        QTemporaryDir dir;
        OpenTabs open;
        OpenTab file;
        file.kind = OpenTab::Kind::File;
        file.path = dir.filePath(QStringLiteral("a.py"));
        file.title = QStringLiteral("a.py");
        file.line = 4;
        file.column = 2;
        OpenTab scratch;
        scratch.title = QStringLiteral("Untitled 3");
        scratch.language = QStringLiteral("javascript");
        scratch.text = QStringLiteral("console.log(1)\n");
        scratch.freshRuns = true;
        open.tabs = {file, scratch};
        open.current = 1;
        const QString path = OpenTabs::filePath(dir.path());
        QVERIFY(open.write(path));
        const auto read = OpenTabs::take(path);
        QVERIFY(read);
        QCOMPARE(read->tabs.size(), 2);
        QCOMPARE(read->current, 1);
        QCOMPARE(read->tabs[0].path, file.path);
        QCOMPARE(read->tabs[0].line, 4);
        QCOMPARE(read->tabs[1].text, scratch.text);
        QVERIFY(read->tabs[1].freshRuns);
        QVERIFY(!QFile::exists(path)); // taken: restored once
        QVERIFY(!OpenTabs::take(path));

        // Damaged: a clear error, nothing restored, the file does not come back every start.
        QVERIFY(writeFile(path, "{\"version\": 1, \"tabs\": ["));
        QString error;
        QVERIFY(!OpenTabs::take(path, &error));
        QVERIFY2(error.contains(QStringLiteral("open-tabs.json")), qPrintable(error));
        QVERIFY(!QFile::exists(path));
        // A tab of an unknown kind is skipped, the others kept.
        QVERIFY(writeFile(path, R"({"version":1,"current":5,"tabs":[{"kind":"hologram"},{"kind":"untitled","title":"x","text":"1"}]})"));
        const auto partial = OpenTabs::read(path);
        QVERIFY(partial);
        QCOMPARE(partial->tabs.size(), 1);
        QCOMPARE(partial->current, 0);
    }

    void mainWindowRestoresTabsAfterANormalQuit()
    {
        TempDatabase db;
        QVERIFY2(db.open(), qPrintable(db.error()));
        DocumentStore store(db.db());
        const auto doc = store.create(QStringLiteral("notes.py"), QStringLiteral("a = 1\nb = 2\nc = 3\n"));
        QVERIFY(doc);
        const auto second = store.save(doc->id, QStringLiteral("a = 1\nb = 2\nc = 3\nd = 4\n"));
        QVERIFY(second);
        const auto gone = store.create(QStringLiteral("gone.py"), QStringLiteral("x = 1\n"));
        QVERIFY(gone);
        QTemporaryDir data, files;
        const QString kept = files.filePath(QStringLiteral("kept.py"));
        const QString vanishing = files.filePath(QStringLiteral("vanishing.js"));
        QVERIFY(writeFile(kept, "one = 1\ntwo = 2\nthree = 3\n"));
        QVERIFY(writeFile(vanishing, "console.log('soon gone')\n"));

        MainWindowServices services;
        services.documents = &store;
        services.recoveryDir = data.path();
        {
            MainWindow window(services);
            window.show();
            EditorDocuments* docs = window.editorDocuments();
            EditorPage* file = docs->openFileQuietly(kept, nullptr);
            QVERIFY(file);
            file->editor()->setCursorPosition(2, 3);
            EditorPage* page = window.openDocumentForEditing(doc->id, doc->title, second->content, second->id);
            page->editor()->setCursorPosition(3, 0);
            QVERIFY(window.openRevisionReadOnly(doc->id, doc->title, QStringLiteral("a = 1\nb = 2\nc = 3\n"), doc->headRevisionId));
            QVERIFY(window.openDocumentForEditing(gone->id, gone->title, QStringLiteral("x = 1\n"), gone->headRevisionId));
            QVERIFY(docs->openFileQuietly(vanishing, nullptr));
            EditorPage* scratch = window.tabs()->newTab(Language::JavaScript, QStringLiteral("let n = 1\nn += 1\n"), QStringLiteral("scratch"));
            window.tabSessions()->setFresh(scratch, true);
            scratch->editor()->setCursorPosition(1, 1);
            EditorPage* discarded = window.tabs()->newTab(); // typed in, then discarded when quitting
            discarded->editor()->setText(QStringLiteral("throwaway"));
            discarded->setModified(true);
            window.tabs()->newTab(); // blank: not kept
            window.tabs()->setCurrentWidget(file);
            window.editorDocuments()->setDiscardPrompt([](EditorPage*) { return QMessageBox::Discard; });
            QVERIFY(window.close());
        }
        QVERIFY(QFile::exists(OpenTabs::filePath(data.path())));
        QVERIFY(RecoveryJournal(data.path()).pending().isEmpty()); // nothing for a crash restore to offer
        QVERIFY(QFile::remove(vanishing));
        QVERIFY(store.setDeleted(gone->id, true));

        MainWindow window(services);
        window.show();
        const QList<EditorPage*> pages = window.restoreOpenTabs();
        EditorTabs* tabs = window.tabs();
        QCOMPARE(pages.size(), 6);
        QCOMPARE(tabs->count(), 6); // the blank start tab made room
        EditorPage* file = tabs->page(0);
        QCOMPARE(file->filePath(), QFileInfo(kept).absoluteFilePath());
        QCOMPARE(file->editor()->text(), QStringLiteral("one = 1\ntwo = 2\nthree = 3\n"));
        QCOMPARE(cursorLine(file), 2);
        QCOMPARE(tabs->currentPage(), file);
        QVERIFY(!file->isModified());

        EditorPage* document = tabs->page(1);
        QVERIFY(document->isDocument());
        QCOMPARE(document->documentId(), doc->id);
        QCOMPARE(document->baseRevisionId(), second->id);
        QCOMPARE(document->editor()->text(), second->content);
        QCOMPARE(cursorLine(document), 3);

        EditorPage* revision = tabs->page(2);
        QVERIFY(revision->isReadOnlyRevision());
        QCOMPARE(revision->baseRevisionId(), doc->headRevisionId);
        QCOMPARE(revision->editor()->text(), QStringLiteral("a = 1\nb = 2\nc = 3\n"));

        EditorPage* goneDoc = tabs->page(3);
        QCOMPARE(goneDoc->title(), QStringLiteral("gone.py"));
        QVERIFY2(goneDoc->note().contains(QStringLiteral("is in the trash")), qPrintable(goneDoc->note()));
        QVERIFY(goneDoc->locationText().contains(goneDoc->note()));

        EditorPage* vanished = tabs->page(4);
        QCOMPARE(vanished->filePath(), QFileInfo(vanishing).absoluteFilePath());
        QCOMPARE(vanished->language(), Language::JavaScript);
        QVERIFY2(vanished->note().contains(QStringLiteral("moved or deleted")), qPrintable(vanished->note()));
        QVERIFY(window.runStatusBar()->currentMessage().contains(QStringLiteral("vanishing.js")));
        // Save writes the vanished file again, and the note goes.
        vanished->editor()->setText(QStringLiteral("console.log('back')\n"));
        tabs->setCurrentWidget(vanished);
        QVERIFY(window.saveCurrent(false));
        QVERIFY(QFile::exists(vanishing));
        QVERIFY(vanished->note().isEmpty());

        EditorPage* scratch = tabs->page(5);
        QCOMPARE(scratch->title(), QStringLiteral("scratch"));
        QCOMPARE(scratch->language(), Language::JavaScript);
        QCOMPARE(scratch->editor()->text(), QStringLiteral("let n = 1\nn += 1\n"));
        QVERIFY(!scratch->isModified());
        QVERIFY(window.tabSessions()->isFresh(scratch));
        QCOMPARE(cursorLine(scratch), 1);

        // Something opened at start (an example to run) stays in front of the restored tabs.
        {
            OpenTabs again = OpenTabsRestore::capture(*tabs, window.tabSessions());
            QVERIFY(again.write(OpenTabs::filePath(data.path())));
            MainWindow third(services);
            QVERIFY(third.openExample(QStringLiteral("scatter")));
            EditorPage* example = third.tabs()->currentPage();
            QCOMPARE(third.restoreOpenTabs().size(), 6);
            QCOMPARE(third.tabs()->currentPage(), example);
            QCOMPARE(third.tabs()->count(), 7);
        }

        // Taken: a crash from here on is the journal's business alone.
        QVERIFY(!QFile::exists(OpenTabs::filePath(data.path())));
        window.offerRecovery(true);
        QCOMPARE(tabs->count(), 6);
    }
};

QTEST_MAIN(TestOpenTabs)
#include "test_open_tabs.moc"
