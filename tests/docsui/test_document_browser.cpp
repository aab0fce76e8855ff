#include "core/accounting/UsageLedger.h"
#include "core/documents/DocumentStore.h"
#include "core/engine/Executor.h"
#include "core/run/Run.h"
#include "core/settings/AppSettings.h"
#include "core/workspace/Workspace.h"
#include "ui/documents/DiffModel.h"
#include "ui/documents/DiffView.h"
#include "ui/documents/DocumentBrowser.h"
#include "ui/documents/DocumentListModel.h"

#include <QApplication>
#include <QDialog>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QAbstractButton>
#include <QHeaderView>
#include <QLineEdit>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace sandpad;

namespace {

QString titleAt(DocumentBrowser& b, int row)
{
    return b.documentView()->index(row, DocumentListModel::TitleColumn).data().toString();
}

bool listed(DocumentBrowser& b, const QString& id)
{
    return b.documentModel()->rowOf(id) >= 0;
}

} // namespace

class TestDocumentBrowser : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_ws = std::make_unique<Workspace>(m_dir.path());
        QVERIFY2(m_ws->open(), qPrintable(m_ws->error()));
        QVERIFY2(m_ws->applySettings(AppSettings{}), qPrintable(m_ws->error()));
    }
    void cleanup()
    {
        if (m_ws)
            m_ws->executor().waitForAll();
        m_ws.reset();
    }

    void browseDiffRestoreTrashRun()
    {
        DocumentStore& store = m_ws->documents();
        const QString v1 = QStringLiteral("print('one')\nx = 1\n");
        const QString v2 = QStringLiteral("print('two')\nx = 1\n");
        const QString v3 = QStringLiteral("print('three')\nx = 1\n");
        const auto doc = store.create(QStringLiteral("hello.py"), v1);
        QVERIFY(doc);
        const QString rev1 = doc->headRevisionId;
        const QString rev2 = store.save(doc->id, v2)->id;
        const QString rev3 = store.save(doc->id, v3)->id;

        DocumentBrowser browser(&store, &m_ws->ledger());
        browser.setExecutor(&m_ws->executor());
        browser.resize(700, 800);
        browser.show();
        QSignalSpy errors(&browser, &DocumentBrowser::errorOccurred);

        // Listed with 3 revisions.
        QCOMPARE(browser.documentView()->rowCount(), 1);
        QCOMPARE(titleAt(browser, 0), QStringLiteral("hello.py"));
        QCOMPARE(browser.documentView()->index(0, DocumentListModel::RevisionsColumn).data().toInt(), 3);
        QCOMPARE(browser.documentView()->index(0, DocumentListModel::LanguageColumn).data().toString(), QStringLiteral("Python"));
        browser.selectDocument(doc->id);
        QCOMPARE(browser.currentDocumentId(), doc->id);
        QTableWidget* revs = browser.revisionTable();
        QCOMPARE(revs->rowCount(), 3);
        QCOMPARE(revs->item(0, 0)->data(Qt::UserRole).toString(), rev3);   // newest first
        QCOMPARE(revs->item(2, 0)->data(Qt::UserRole).toString(), rev1);
        QCOMPARE(revs->item(0, 4)->text(), QStringLiteral("head"));
        QVERIFY(revs->item(1, 4)->text().isEmpty());

        // Search by content and by title; sorting.
        const auto other = store.create(QStringLiteral("a_tool.js"), QStringLiteral("console.log('zebra')\n"));
        QVERIFY(other);
        browser.refresh();
        QCOMPARE(browser.documentView()->rowCount(), 2);
        browser.setSearchText(QStringLiteral("three"));
        QCOMPARE(browser.documentView()->rowCount(), 1);
        QCOMPARE(titleAt(browser, 0), QStringLiteral("hello.py"));
        browser.setSearchText(QStringLiteral("zebra"));
        QCOMPARE(titleAt(browser, 0), QStringLiteral("a_tool.js"));
        browser.setSearchText(QStringLiteral("a_tool"));
        QCOMPARE(browser.documentView()->rowCount(), 1);
        browser.setSearchText(QString());
        QCOMPARE(browser.documentView()->rowCount(), 2);
        browser.documentView()->sort(DocumentListModel::TitleColumn, Qt::AscendingOrder);
        QCOMPARE(titleAt(browser, 0), QStringLiteral("a_tool.js"));
        browser.documentView()->sort(DocumentListModel::RevisionsColumn, Qt::DescendingOrder);
        QCOMPARE(titleAt(browser, 0), QStringLiteral("hello.py"));
        browser.selectDocument(doc->id);

        // Open the head for editing, and an old revision read-only.
        QSignalSpy editing(&browser, &DocumentBrowser::openForEditing);
        QVERIFY(browser.openHeadForEditing());
        QCOMPARE(editing.count(), 1);
        QCOMPARE(editing[0][0].toString(), doc->id);
        QCOMPARE(editing[0][1].toString(), QStringLiteral("hello.py"));
        QCOMPARE(editing[0][2].toString(), v3);
        QCOMPARE(editing[0][3].toString(), rev3);
        QSignalSpy readOnly(&browser, &DocumentBrowser::openReadOnly);
        browser.selectRevisions({rev1});
        QCOMPARE(browser.selectedRevisionIds(), QStringList{rev1});
        QVERIFY(browser.openSelectedRevision());
        QCOMPARE(readOnly.count(), 1);
        QCOMPARE(readOnly[0][1].toString(), v1);
        QCOMPARE(readOnly[0][2].toString(), rev1);
        QVERIFY(readOnly[0][0].toString().contains(QStringLiteral("hello.py")));

        // Diff two revisions: the changed line shows up as removed + added.
        browser.selectRevisions({rev1, rev3});
        DiffView* view = browser.diffSelectedRevisions();
        QVERIFY(view);
        QCOMPARE(view->result().removed, 1);
        QCOMPARE(view->result().added, 1);
        const QString patch = view->unifiedText();
        QVERIFY2(patch.contains(QStringLiteral("-print('one')")), qPrintable(patch));
        QVERIFY2(patch.contains(QStringLiteral("+print('three')")), qPrintable(patch));
        bool sawAdded = false, sawRemoved = false;
        for (int row = 0; row < view->model()->rowCount(); ++row) {
            const QModelIndex text = view->model()->index(row, 2);
            const int op = text.data(DiffModel::NewOpRole).toInt();
            if (op == int(DiffOp::Added)) {
                sawAdded = text.data().toString().contains(QStringLiteral("three"));
                QCOMPARE(text.data(Qt::BackgroundRole).value<QColor>(), view->model()->addedColor());
            }
            if (text.data(DiffModel::OldOpRole).toInt() == int(DiffOp::Removed))
                sawRemoved = text.data().toString().contains(QStringLiteral("one"));
        }
        QVERIFY(sawAdded && sawRemoved);
        // Dark mode: the tints follow the palette, still green and red, readable on a dark base.
        const QColor lightAdded = view->model()->addedColor();
        QPalette dark = view->palette();
        dark.setColor(QPalette::Base, QColor(30, 30, 30));
        dark.setColor(QPalette::Text, QColor(220, 220, 220));
        view->setPalette(dark);
        const QColor darkAdded = view->model()->addedColor();
        QVERIFY(darkAdded.lightnessF() < 0.4 && lightAdded.lightnessF() > 0.6);
        QVERIFY(darkAdded.green() > darkAdded.red());
        QVERIFY(view->model()->removedColor().red() > view->model()->removedColor().green());
        view->setMode(DiffView::Mode::SideBySide);
        QCOMPARE(view->model()->columnCount(), 4);
        QCOMPARE(view->model()->index(0, 1).data().toString(), QStringLiteral("print('one')"));
        QCOMPARE(view->model()->index(0, 3).data().toString(), QStringLiteral("print('three')"));
        view->window()->close();

        // One revision selected: diffed against the head.
        browser.selectRevisions({rev2});
        view = browser.diffSelectedRevisions();
        QVERIFY(view);
        QVERIFY(view->unifiedText().contains(QStringLiteral("-print('two')")));
        view->window()->close();

        // Restore rev1: a new head with the old content; nothing overwritten.
        browser.selectRevisions({rev1});
        QVERIFY(browser.restoreSelectedRevision());
        const auto afterRestore = store.document(doc->id);
        QCOMPARE(afterRestore->revisionCount, 4);
        QCOMPARE(store.revision(afterRestore->headRevisionId)->content, v1);
        QCOMPARE(revs->rowCount(), 4);
        QCOMPARE(revs->item(0, 0)->data(Qt::UserRole).toString(), afterRestore->headRevisionId);
        QCOMPARE(store.revision(rev3)->content, v3);

        // Rename.
        QVERIFY(browser.renameDocument(doc->id, QStringLiteral("hello2.py")));
        QCOMPARE(store.document(doc->id)->title, QStringLiteral("hello2.py"));
        QVERIFY(browser.documentModel()->documents().at(browser.documentModel()->rowOf(doc->id)).title
                == QStringLiteral("hello2.py"));

        // Delete to the trash, then restore from it.
        QVERIFY(browser.deleteDocument(doc->id));
        QVERIFY(!listed(browser, doc->id));
        QVERIFY(store.document(doc->id)->deleted);
        browser.setShowTrash(true);
        QVERIFY(listed(browser, doc->id));
        QVERIFY(!listed(browser, other->id));
        browser.selectDocument(doc->id);
        QVERIFY(!browser.openHeadForEditing());             // trashed: not editable
        QVERIFY(browser.restoreFromTrash(doc->id));
        QVERIFY(!browser.showingTrash());
        QVERIFY(listed(browser, doc->id));
        QVERIFY(!store.document(doc->id)->deleted);
        QCOMPARE(browser.currentDocumentId(), doc->id);

        // "Run this revision": the signal names the document and revision; the executor runs
        // exactly that stored text.
        QSignalSpy runRequested(&browser, &DocumentBrowser::runRevisionRequested);
        browser.selectRevisions({rev2});
        QVERIFY(browser.runSelectedRevision());
        QCOMPARE(runRequested.count(), 1);
        QCOMPARE(runRequested[0][0].toString(), doc->id);
        QCOMPARE(runRequested[0][1].toString(), rev2);
        Run* handle = m_ws->executor().start(
            ExecutionRequest::savedRevision(runRequested[0][0].toString(), runRequested[0][1].toString()));
        QSignalSpy finished(handle, &Run::finished);
        QVERIFY(finished.wait(120000));
        const auto result = finished[0][0].value<ExecutionResult>();
        QVERIFY2(result.status == RunStatus::Success, qPrintable(result.message));
        QCOMPARE(result.stdoutText.trimmed(), QStringLiteral("two"));
        QCOMPARE(result.revisionId, rev2);
        QCOMPARE(result.documentId, doc->id);
        // The run history shows it (refreshed through setExecutor).
        QTRY_COMPARE(browser.runTable()->rowCount(), 1);
        QVERIFY(browser.runTable()->item(0, 1)->text().startsWith(QStringLiteral("#2")));
        QCOMPARE(browser.runTable()->item(0, 2)->text(), QStringLiteral("success"));
        QCOMPARE(browser.runTable()->item(0, 3)->text(), QStringLiteral("$0.05"));

        // Import and export.
        const QString importPath = m_dir.filePath(QStringLiteral("imported.js"));
        {
            QFile f(importPath);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("console.log(6 * 7)\n");
        }
        const auto importedId = browser.importFile(importPath);
        QVERIFY(importedId);
        QCOMPARE(browser.currentDocumentId(), *importedId);
        QCOMPARE(store.document(*importedId)->language, QStringLiteral("javascript"));
        const QString badPath = m_dir.filePath(QStringLiteral("notes.txt"));
        {
            QFile f(badPath);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("hello");
        }
        const int errorsBefore = static_cast<int>(errors.count());
        QVERIFY(!browser.importFile(badPath));
        QCOMPARE(errors.count(), errorsBefore + 1);
        QVERIFY(!browser.statusText().isEmpty());
        const QString exportPath = m_dir.filePath(QStringLiteral("exported.py"));
        QVERIFY(browser.exportRevision(rev2, exportPath));
        QFile exported(exportPath);
        QVERIFY(exported.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(exported.readAll()), v2);
    }

    void keyboardAndAccessibleNames()
    {
        DocumentStore& store = m_ws->documents();
        const auto doc = store.create(QStringLiteral("keys.py"), QStringLiteral("a = 1\n"));
        QVERIFY(doc);
        QVERIFY(store.save(doc->id, QStringLiteral("a = 2\n")));
        DocumentBrowser browser(&store, &m_ws->ledger());
        browser.show();
        QApplication::setActiveWindow(&browser);
        QVERIFY(QTest::qWaitForWindowActive(&browser));
        browser.selectDocument(doc->id);

        for (QWidget* w : browser.findChildren<QWidget*>()) {
            // Our widgets, not the internals of views and line edits (headers, corner buttons).
            if (qobject_cast<QHeaderView*>(w) || qobject_cast<QAbstractItemView*>(w->parentWidget())
                || qobject_cast<QLineEdit*>(w->parentWidget()))
                continue;
            if (qobject_cast<QAbstractButton*>(w) || qobject_cast<QAbstractItemView*>(w)
                || qobject_cast<QLineEdit*>(w))
                QVERIFY2(!w->accessibleName().isEmpty(), w->metaObject()->className());
        }

        QTableView* list = nullptr;
        for (QTableView* v : browser.findChildren<QTableView*>())
            if (v->accessibleName() == QStringLiteral("Document list"))
                list = v;
        QVERIFY(list);
        list->setFocus();
        QSignalSpy diffs(&browser, &DocumentBrowser::diffOpened);
        QTest::keyClick(list, Qt::Key_D, Qt::ControlModifier);     // diff: first revision vs head
        QCOMPARE(diffs.count(), 1);
        auto* view = diffs[0][0].value<DiffView*>();
        QVERIFY(view->unifiedText().contains(QStringLiteral("+a = 2")));
        view->window()->close();
        QApplication::setActiveWindow(&browser);
        QVERIFY(QTest::qWaitForWindowActive(&browser));

        QSignalSpy editing(&browser, &DocumentBrowser::openForEditing);
        list->setFocus();
        QTest::keyClick(list, Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(editing.count(), 1);

        QSignalSpy runs(&browser, &DocumentBrowser::runRevisionRequested);
        QTest::keyClick(list, Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(runs.count(), 1);

        // Delete in the search field edits the text; in the list it moves the document to the trash.
        QLineEdit* search = browser.findChild<QLineEdit*>();
        search->setText(QStringLiteral("xy"));
        search->setFocus();
        search->setCursorPosition(0);
        QTest::keyClick(search, Qt::Key_Delete);
        QCOMPARE(search->text(), QStringLiteral("y"));
        QVERIFY(!store.document(doc->id)->deleted);
        browser.setSearchText(QString());
        browser.selectDocument(doc->id);
        list->setFocus();
        QTest::keyClick(list, Qt::Key_Delete);
        QVERIFY(store.document(doc->id)->deleted);
    }

    void fiveMegabyteDiffOpensQuickly()
    {
        QString big;
        big.reserve(5'300'000);
        for (int i = 0; i < 100000; ++i)
            big += QStringLiteral("row_%1 = [%2, %3]  # some filler text to widen it\n").arg(i).arg(i * 3).arg(i % 97);
        QVERIFY(big.size() > 5'000'000);
        QString edited = big;
        edited.replace(QStringLiteral("row_500 = "), QStringLiteral("ROW_500 = "));
        edited.replace(QStringLiteral("row_77777 = "), QStringLiteral("ROW_77777 = "));
        DocumentStore& store = m_ws->documents();
        const auto doc = store.create(QStringLiteral("big.py"), big);
        QVERIFY(doc);
        QVERIFY(store.save(doc->id, edited));

        DocumentBrowser browser(&store, &m_ws->ledger());
        browser.show();
        browser.selectDocument(doc->id);
        QElapsedTimer t;
        t.start();
        browser.selectRevisions({doc->headRevisionId});     // one (the first) + head
        DiffView* view = browser.diffSelectedRevisions();
        QVERIFY(view);
        QApplication::processEvents();
        qInfo("5 MB diff (fine: %d) opened and shown in %lld ms", !view->result().coarse,
              static_cast<long long>(t.elapsed()));
        QCOMPARE(view->result().added, 2);
        QCOMPARE(view->result().removed, 2);
        QVERIFY(view->model()->rowCount() < 40);             // unchanged stretches folded
        t.restart();
        view->setContextLines(-1);                          // the whole file: 100k rows
        view->setMode(DiffView::Mode::SideBySide);
        QApplication::processEvents();
        qInfo("whole-file side by side: %d rows in %lld ms", view->model()->rowCount(),
              static_cast<long long>(t.elapsed()));
        QCOMPARE(view->model()->rowCount(), 100000);
        QVERIFY(view->nextChange());
        view->window()->close();
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Workspace> m_ws;
};

QTEST_MAIN(TestDocumentBrowser)
#include "test_document_browser.moc"
