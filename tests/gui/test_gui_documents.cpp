// Saved documents and recovery in the real main window (offscreen, real Workspace, local provider):
// save twice, browse, diff, restore, run a revision; a failing save keeps the text; the journal;
// and the REAL app (SANDPAD_BINARY_DIR/app/sandpad/sandpad) killed with SIGKILL keeps typed text,
// and refuses a corrupt database without touching it.
#include "GuiTestSession.h"

#include "core/documents/DocumentStore.h"
#include "core/recovery/RecoveryJournal.h"
#include "ui/console/OutputView.h"
#include "ui/console/RunController.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"
#include "ui/documents/DiffView.h"
#include "ui/documents/DocumentBrowser.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/MainWindow.h"
#include "ui/MainWindowActions.h"
#include "ui/statusbar/RunStatusBar.h"

#include <QAction>
#include <QApplication>
#include <QCryptographicHash>
#include <QDialog>
#include <QDir>
#include <QSignalSpy>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QProcess>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace sandpad;

namespace {

QString appPath() { return QStringLiteral(SANDPAD_BINARY_DIR "/app/sandpad/sandpad"); }

QStringList recoveryFiles(const QString& dataDir)
{
    return QDir(dataDir + QStringLiteral("/recovery")).entryList({QStringLiteral("*.json")}, QDir::Files);
}

QByteArray sha(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

// Closes the next modal dialog (message boxes) and remembers its text.
void closeNextModal(QString* text)
{
    QTimer::singleShot(200, qApp, [text] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            *text = box->text();
            box->reject();
        } else if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget())) {
            dialog->reject();
        } else {
            closeNextModal(text); // not shown yet
        }
    });
}

} // namespace

class TestGuiDocuments : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<GuiTestSession> m_session;
    std::unique_ptr<MainWindow> m_window;

    DocumentStore& store() { return m_session->workspace.documents(); }
    // The real app's environment: offscreen; no provider, so nothing runs and no pre-started
    // sandboxes are left behind by a SIGKILL; and none of the user's settings.
    QProcessEnvironment appEnvironment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("SANDPAD_PROVIDER"), QStringLiteral("none"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.path() + QStringLiteral("/config"));
        return env;
    }
    EditorPage* page() { return m_window->tabs()->currentPage(); }
    void setText(const QString& text)
    {
        page()->editor()->selectAll();
        page()->editor()->replaceSelectedText(text); // an edit, like typing (the tab is modified)
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_session = std::make_unique<GuiTestSession>(m_dir.path() + QStringLiteral("/ws"));
        QVERIFY2(m_session->opened, qPrintable(m_session->workspace.error()));
        QVERIFY2(m_session->providerReady, qPrintable(m_session->workspace.error()));
        m_window = std::make_unique<MainWindow>(m_session->services());
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanupTestCase()
    {
        m_window.reset();
        m_session.reset();
    }

    void documentsDockIsAViewToggle()
    {
        QDockWidget* dock = m_window->documentsDock();
        QVERIFY(dock);
        QVERIFY(!dock->isVisible()); // an empty workspace: out of the way
        QAction* toggle = dock->toggleViewAction();
        QCOMPARE(toggle->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
        QVERIFY(m_window->actions()->viewMenu->actions().contains(toggle));
        toggle->trigger();
        QTRY_VERIFY(dock->isVisible());
    }

    void saveTwiceBrowseDiffRestoreRun()
    {
        m_window->tabs()->newTab();
        setText(QStringLiteral("print('first version')\n"));
        QVERIFY(page()->isModified());
        QVERIFY(m_window->saveCurrentAsDocument(QStringLiteral("snippet.py")));
        QVERIFY(page()->isDocument());
        QVERIFY(!page()->isModified());
        const QString docId = page()->documentId();
        const QString rev1 = page()->baseRevisionId();
        QCOMPARE(store().document(docId)->title, QStringLiteral("snippet.py"));

        // Ctrl+S on a document tab appends a revision (not a file).
        setText(QStringLiteral("print('second version')\n"));
        m_window->actions()->save->trigger();
        QVERIFY(!page()->isModified());
        QVERIFY(page()->filePath().isEmpty());
        const QString rev2 = page()->baseRevisionId();
        QVERIFY(rev2 != rev1);
        QCOMPARE(store().document(docId)->headRevisionId, rev2);
        QCOMPARE(store().revision(rev2)->content, QStringLiteral("print('second version')\n"));

        // Browse: the dock lists it with both revisions.
        DocumentBrowser* browser = m_window->documentBrowser();
        browser->selectDocument(docId);
        QCOMPARE(browser->currentDocumentId(), docId);
        QCOMPARE(browser->revisionTable()->rowCount(), 2);

        // Diff the two.
        browser->selectRevisions({rev2, rev1});
        DiffView* diff = browser->diffSelectedRevisions();
        QVERIFY(diff);
        if (auto* dialog = qobject_cast<QDialog*>(diff->window()))
            dialog->close();

        // The old revision read-only, labelled.
        browser->selectRevisions({rev1});
        QVERIFY(browser->openSelectedRevision());
        QVERIFY(page()->isReadOnlyRevision());
        QVERIFY(page()->editor()->isReadOnly());
        QCOMPARE(page()->title(), QStringLiteral("snippet.py"));
        QCOMPARE(m_window->tabs()->tabText(m_window->tabs()->currentIndex()),
                 QStringLiteral("snippet.py @ %1").arg(rev1.left(8)));
        QCOMPARE(page()->editor()->text(), QStringLiteral("print('first version')\n"));
        QVERIFY2(page()->locationText().contains(QStringLiteral("revision %1 (read-only)").arg(rev1.left(8))),
                 qPrintable(page()->locationText()));

        // Run this revision: the stored text runs; the entry names document and revision.
        browser->selectRevisions({rev1});
        QSignalSpy reloads(browser, &DocumentBrowser::runsReloaded);
        QVERIFY(browser->runSelectedRevision());
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runs()->isRunning(), 60000);
        // The document's run history is read again once per run of it (it was twice).
        QCOMPARE(reloads.count(), 1);
        RunEntry* entry = m_window->notebook()->entries().last();
        QVERIFY2(entry->title().contains(QStringLiteral("snippet.py")), qPrintable(entry->title()));
        QVERIFY2(entry->title().contains(rev1.left(8)), qPrintable(entry->title()));
        QCOMPARE(entry->run()->result().revisionId, rev1);
        QCOMPARE(entry->run()->result().documentId, docId);
        QTRY_VERIFY_WITH_TIMEOUT(entry->outputView()->toPlainText().contains(QStringLiteral("first version")), 5000);
        QVERIFY(!entry->outputView()->toPlainText().contains(QStringLiteral("second version")));
        // Run All on the read-only revision tab runs that stored revision too (not editor text).
        QVERIFY(page()->isReadOnlyRevision());
        QVERIFY(m_window->runAll());
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runs()->isRunning(), 60000);
        QCOMPARE(m_window->notebook()->entries().last()->run()->result().revisionId, rev1);
        // ... and the document's run history shows it.
        QTRY_VERIFY_WITH_TIMEOUT(browser->runTable()->rowCount() >= 1, 5000);

        // Restore the first revision: a third revision, a copy of the first.
        browser->selectRevisions({rev1});
        QVERIFY(browser->restoreSelectedRevision());
        const auto doc = store().document(docId);
        QCOMPARE(doc->revisionCount, 3);
        QCOMPARE(store().revision(doc->headRevisionId)->content, QStringLiteral("print('first version')\n"));
        QCOMPARE(browser->revisionTable()->rowCount(), 3);
    }

    void failingSaveKeepsText()
    {
        m_window->tabs()->newTab();
        setText(QStringLiteral("print('keep me')\n"));
        QVERIFY(m_window->saveCurrentAsDocument(QStringLiteral("doomed.py")));
        const QString docId = page()->documentId();
        QVERIFY(store().setDeleted(docId, true)); // saving to a trashed document is refused
        setText(QStringLiteral("print('keep me too')\n"));
        QString shown;
        closeNextModal(&shown);
        QVERIFY(!m_window->saveCurrent(false));
        QVERIFY2(shown.contains(QStringLiteral("could not be saved")), qPrintable(shown));
        QVERIFY(m_window->runStatusBar()->currentMessage().contains(QStringLiteral("Save failed")));
        QVERIFY(page()->isModified());
        QCOMPARE(page()->editor()->text(), QStringLiteral("print('keep me too')\n"));
        QCOMPARE(store().document(docId)->revisionCount, 1);
    }

    void journalFollowsTheTab()
    {
        RecoveryJournal* journal = m_window->journal();
        QVERIFY(journal);
        const QString dataDir = m_session->workspace.dataDir();
        m_window->tabs()->newTab();
        setText(QStringLiteral("x = 'journaled'\n"));
        const QString file = journal->filePathFor(page()->tabId());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(file), 5000); // "within a few seconds"
        QString error;
        QCOMPARE(RecoveryJournal::readFile(file, &error)->text, QStringLiteral("x = 'journaled'\n"));
        // A clean save as a document discards it.
        QVERIFY(m_window->saveCurrentAsDocument(QStringLiteral("journaled.py")));
        QTRY_VERIFY(!QFile::exists(file));
        // Closing an edited tab on purpose (discarding) removes its file too.
        setText(QStringLiteral("x = 'edited'\n"));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(file), 5000);
        m_window->tabs()->setCurrentWidget(page());
        QTimer::singleShot(200, qApp, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                box->button(QMessageBox::Discard)->click();
        });
        m_window->actions()->closeTab->trigger();
        QVERIFY(!QFile::exists(file));
    }

    // The real app: type, SIGKILL, the text is on disk and comes back in a new window.
    void crashKeepsTypedText()
    {
        QVERIFY2(QFile::exists(appPath()), qPrintable(appPath()));
        QTemporaryDir data;
        const QString text = QStringLiteral("print('typed before the crash')");
        QProcess app;
        const QProcessEnvironment env = appEnvironment();
        app.setProcessEnvironment(env);
        app.start(appPath(), {QStringLiteral("--data-dir"), data.path(), QStringLiteral("--type-text"), text});
        QVERIFY(app.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(!recoveryFiles(data.path()).isEmpty(), 20000);
        app.kill(); // SIGKILL: no chance to clean up
        QVERIFY(app.waitForFinished(5000));
        QCOMPARE(app.exitStatus(), QProcess::CrashExit);

        RecoveryJournal journal(data.path());
        const QList<RecoveryEntry> pending = journal.pending();
        QCOMPARE(pending.size(), 1);
        QVERIFY(pending.first().isValid());
        QCOMPARE(pending.first().snapshot->text, text);

        // The real app restarted restores it: the text moves to the new tab's journal file.
        const QStringList before = recoveryFiles(data.path());
        QProcess again1;
        again1.setProcessEnvironment(env);
        again1.start(appPath(), {QStringLiteral("--data-dir"), data.path(), QStringLiteral("--restore-all")});
        QVERIFY(again1.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(recoveryFiles(data.path()).size() == 1 && recoveryFiles(data.path()) != before, 20000);
        again1.kill();
        QVERIFY(again1.waitForFinished(5000));
        const QList<RecoveryEntry> moved = journal.pending();
        QCOMPARE(moved.size(), 1);
        QCOMPARE(moved.first().snapshot->text, text);

        // In-process, the same (as --restore-all does: the dialog's "Restore" for all).
        GuiTestSession again(data.path());
        QVERIFY(again.opened);
        MainWindow window(again.services());
        window.show();
        window.offerRecovery(true);
        EditorPage* restored = window.tabs()->currentPage();
        QCOMPARE(restored->editor()->text(), text);
        QVERIFY(restored->isModified());
        QCOMPARE(window.tabs()->count(), 1); // the blank start tab made room
        // Journaled under the new tab; the old file is gone.
        const QStringList files = recoveryFiles(data.path());
        QCOMPARE(files, QStringList{restored->tabId() + QStringLiteral(".json")});
    }

    void corruptDatabaseIsReportedAndUntouched()
    {
        QTemporaryDir data;
        const QString db = data.path() + QStringLiteral("/sandpad.db");
        {
            QFile f(db);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray junk("this is not an SQLite database, but someone's precious file\n");
            f.write(junk.repeated(200));
        }
        const QByteArray before = sha(db);
        {
            Workspace workspace(data.path());
            QVERIFY(!workspace.open());
            QVERIFY(!workspace.error().isEmpty());
        }
        QCOMPARE(sha(db), before);

        // The start-up / File > Open Workspace path: says why, offers another folder, opens that.
        QTemporaryDir good;
        QString shownError;
        QTimer::singleShot(200, qApp, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box)
                return;
            shownError = box->text() + box->informativeText();
            for (QAbstractButton* b : box->buttons())
                if (b->text().contains(QStringLiteral("Another")))
                    b->click();
            QTimer::singleShot(300, qApp, [&] {
                if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                    dialog->setDirectory(good.path());
                    static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept is protected
                }
            });
        });
        auto other = openWorkspaceInteractive(data.path(), nullptr);
        QVERIFY2(shownError.contains(QStringLiteral("cannot be opened")), qPrintable(shownError));
        QVERIFY2(shownError.contains(QStringLiteral("Nothing in it was changed")), qPrintable(shownError));
        QVERIFY(other);
        QCOMPARE(QDir(other->dataDir()).canonicalPath(), QDir(good.path()).canonicalPath());
        other.reset();
        QCOMPARE(sha(db), before);

        // The real app says so (and waits in its "Open Another Workspace…" dialog).
        QProcess app;
        app.setProcessEnvironment(appEnvironment());
        app.start(appPath(), {QStringLiteral("--data-dir"), data.path()});
        QVERIFY(app.waitForStarted());
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += app.readAllStandardError()).contains("cannot open the workspace"), 20000);
        QCOMPARE(app.state(), QProcess::Running); // no crash: a dialog
        app.kill();
        app.waitForFinished(5000);
        QCOMPARE(sha(db), before);
        QVERIFY(!QFile::exists(data.path() + QStringLiteral("/recovery")) || recoveryFiles(data.path()).isEmpty());
    }
};

QTEST_MAIN(TestGuiDocuments)
#include "test_gui_documents.moc"
