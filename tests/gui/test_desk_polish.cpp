// Issue 16's remaining desktop edges, offscreen: a cell run reloaded from the history links and
// names the editor's lines (origin.firstLine is kept), and Ctrl+Shift+S is the chart's export
// while the chart pane has focus and File > Save to File elsewhere, with no ambiguous pair of
// shortcuts anywhere in the window (the Help > Keyboard shortcuts sheet included).
#include "TempDatabase.h"
#include "TestRecords.h"

#include "core/documents/DocumentStore.h"
#include "core/notebook/RunHistory.h"
#include "ui/charts/ChartPane.h"
#include "ui/charts/ChartViewer.h"
#include "ui/charts/PngView.h"
#include "ui/console/RunEntry.h"
#include "ui/documents/DocumentBrowser.h"
#include "ui/console/RunNotebook.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/editor/FindReplaceBar.h"
#include "ui/help/ShortcutSheet.h"
#include "ui/MainWindow.h"
#include "ui/MainWindowActions.h"
#include "ui/shortcuts/PaneShortcuts.h"

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QSplitter>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QScrollArea>
#include <QSet>

using namespace sandpad;

namespace {

// Closes every modal dialog that opens (an export dialog, a file dialog) and notes its class.
class ModalCloser : public QObject {
public:
    ModalCloser()
    {
        m_timer.setInterval(20);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
            if (QWidget* modal = QApplication::activeModalWidget()) {
                seen << QString::fromLatin1(modal->metaObject()->className());
                modal->close();
            }
        });
        m_timer.start();
    }
    QStringList seen;

private:
    QTimer m_timer;
};

QAction* actionNamed(QWidget* root, const QString& text)
{
    for (QAction* a : root->findChildren<QAction*>())
        if (a->text() == text)
            return a;
    return nullptr;
}

RunChart barChart()
{
    RunChart chart;
    chart.kind = RunChart::Kind::Interactive;
    chart.setSpec(QJsonObject{{"type", "bar"},
                              {"title", "Sales"},
                              {"elements", QJsonArray{QJsonObject{{"label", "a"}, {"value", 1}},
                                                      QJsonObject{{"label", "b"}, {"value", 2}}}}});
    return chart;
}

// Where an action's key is live: the window, or the widgets it was added to.
QString scopeOf(const QAction* a, QList<QWidget*>* widgets)
{
    if (a->shortcutContext() == Qt::WindowShortcut || a->shortcutContext() == Qt::ApplicationShortcut)
        return QStringLiteral("window");
    for (QObject* o : a->associatedObjects())
        if (auto* w = qobject_cast<QWidget*>(o))
            widgets->append(w);
    return QStringLiteral("local");
}


} // namespace

class TestDeskPolish : public QObject {
    Q_OBJECT

private slots:
    void aReloadedCellRunLinksTheEditorsLines()
    {
        TempDatabase db;
        QVERIFY2(db.open(), qPrintable(db.error()));
        RunHistory history(db.db());
        ExecutionResult r = runResult(QStringLiteral("cell6"), QStringLiteral("cells.py · lines 6–9"), QStringLiteral("error"));
        r.firstLine = 6; // the cell starts at editor line 6
        r.error = RunError{QStringLiteral("ZeroDivisionError"), QStringLiteral("division by zero"),
                           QStringLiteral("Traceback (most recent call last):\n  File \"cells.py\", line 3, in <module>\n"
                                          "ZeroDivisionError: division by zero")};
        QVERIFY2(history.save(r), qPrintable(history.lastError()));

        MainWindowServices services;
        services.history = &history;
        MainWindow window(services); // reloads the history at start
        window.show();
        QString text;
        for (int i = 1; i <= 12; ++i)
            text += QStringLiteral("line_%1 = %1\n").arg(i);
        EditorPage* cells = window.tabs()->newTab(Language::Python, text, QStringLiteral("cells.py"));
        EditorPage* other = window.tabs()->newTab(Language::Python, text, QStringLiteral("other.py"));
        window.tabs()->setCurrentWidget(other);
        RunEntry* entry = window.notebook()->entries().value(0);
        QVERIFY(entry);
        QCOMPARE(entry->runId(), QStringLiteral("cell6"));
        const QString shown = entry->shownErrorText();
        QVERIFY2(shown.contains(QStringLiteral("line 8, in")), qPrintable(shown)); // 3 + 6 - 1, as when it ran
        QVERIFY(shown.contains(QStringLiteral("href=\"line:3\"")));
        entry->activateLink(QStringLiteral("line:3"));
        QCOMPARE(window.tabs()->currentPage(), cells); // the tab it ran from, by its title
        int line = -1, index = -1;
        cells->editor()->getCursorPosition(&line, &index);
        QCOMPARE(line, 7); // editor line 8, 0-based
    }

    void chartExportKeyWinsInTheChartPaneOnly()
    {
        MainWindow window(MainWindowServices{});
        window.resize(1400, 860);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        if (auto* right = window.findChild<QSplitter*>(QStringLiteral("rightSplitter")))
            right->setSizes({400, 400});
        ChartPane* pane = window.chartPane();
        pane->setCharts({barChart(), barChart()}); // two: the strip shows
        QCOMPARE(pane->currentView(), static_cast<QWidget*>(pane->chartViewer()));
        QAction* exportAction = actionNamed(pane->chartViewer(), QStringLiteral("Export…"));
        QVERIFY(exportAction);
        QAction* saveAs = window.actions()->saveAs;
        QCOMPARE(exportAction->shortcut(), saveAs->shortcut()); // the same key, two meanings
        QSignalSpy exported(exportAction, &QAction::triggered);
        QSignalSpy savedAs(saveAs, &QAction::triggered);
        ModalCloser closer;
        const auto press = [&window](QWidget* w) {
            window.activateWindow(); // back from the dialog the last press opened
            QVERIFY(QTest::qWaitForWindowActive(&window));
            w->setFocus();
            QTRY_VERIFY(w->hasFocus());
            QTest::keyClick(w, Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
            QTest::qWait(100);
        };

        // The plot has focus: the chart's export dialog.
        QWidget* plot = pane->chartViewer()->findChild<QWidget*>(QString());
        for (QWidget* w : pane->chartViewer()->findChildren<QWidget*>())
            if (w->accessibleName() == QStringLiteral("Chart"))
                plot = w;
        press(plot);
        QTRY_COMPARE(exported.count(), 1);
        QCOMPARE(savedAs.count(), 0);
        QTRY_VERIFY(closer.seen.contains(QStringLiteral("sandpad::ChartExportDialog")));

        // The thumbnail strip is part of the pane too.
        press(pane->thumbnailStrip());
        QTRY_COMPARE(exported.count(), 2);
        QCOMPARE(savedAs.count(), 0);

        // The editor has focus: File > Save to File.
        closer.seen.clear();
        press(window.tabs()->currentPage()->editor());
        QTRY_COMPARE(savedAs.count(), 1);
        QCOMPARE(exported.count(), 2);
        QTRY_VERIFY2(closer.seen.contains(QStringLiteral("QFileDialog")), qPrintable(closer.seen.join(u',')));

        // A figure (PngView): its Save… there too.
        RunChart png;
        png.kind = RunChart::Kind::Png;
        QImage image(40, 30, QImage::Format_RGB32);
        image.fill(Qt::white);
        QByteArray bytes;
        {
            QBuffer buffer(&bytes);
            buffer.open(QIODevice::WriteOnly);
            image.save(&buffer, "PNG");
        }
        png.png = bytes;
        pane->setCharts({png});
        QCOMPARE(pane->currentView(), static_cast<QWidget*>(pane->pngView()));
        QAction* saveFigure = actionNamed(pane->pngView(), QStringLiteral("Save…"));
        QVERIFY(saveFigure);
        QSignalSpy figureSaved(saveFigure, &QAction::triggered);
        auto* scroll = pane->pngView()->findChild<QScrollArea*>();
        QVERIFY(scroll);
        press(scroll);
        QTRY_COMPARE(figureSaved.count(), 1);
        QCOMPARE(savedAs.count(), 1);
    }

    void noAmbiguousShortcuts()
    {
        MainWindow window(MainWindowServices{});
        window.show();
        window.chartPane()->setCharts({barChart()}); // the thumbnail renderer exists too
        QHash<QString, QList<QAction*>> byKey;
        for (QAction* a : window.findChildren<QAction*>())
            for (const QKeySequence& k : a->shortcuts())
                if (!k.isEmpty())
                    byKey[k.toString(QKeySequence::PortableText)].append(a);
        QStringList problems;
        for (auto it = byKey.cbegin(); it != byKey.cend(); ++it) {
            const QList<QAction*>& actions = it.value();
            for (qsizetype i = 0; i < actions.size(); ++i)
                for (qsizetype j = i + 1; j < actions.size(); ++j) {
                    QList<QWidget*> wi, wj;
                    const QString si = scopeOf(actions[i], &wi), sj = scopeOf(actions[j], &wj);
                    const auto pair = QStringLiteral("%1: \"%2\" / \"%3\"").arg(it.key(), actions[i]->text(), actions[j]->text());
                    if (si == u"window" && sj == u"window") {
                        problems << pair;
                        continue;
                    }
                    // A local key against the window's: only a pane with PaneShortcuts settles who wins.
                    if (si != sj) {
                        const QList<QWidget*>& local = si == u"local" ? wi : wj;
                        bool settled = !local.isEmpty();
                        for (QWidget* w : local)
                            settled = settled && PaneShortcuts::settlesKeysFor(w);
                        if (!settled)
                            problems << pair;
                        continue;
                    }
                    // Two local keys: fine when neither widget holds the other.
                    for (QWidget* a : wi)
                        for (QWidget* b : wj)
                            if (a == b || a->isAncestorOf(b) || b->isAncestorOf(a))
                                problems << pair;
                }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));

        // The sheet lists each key once per place, and says where the chart's keys work.
        const QList<ShortcutSheet::Row> rows = ShortcutSheet::rows(&window);
        QSet<QString> seen;
        bool chartExport = false, saveToFile = false;
        for (const ShortcutSheet::Row& row : rows) {
            for (const QString& key : row.keys.split(QStringLiteral(", "))) {
                const QString where = row.group + u'|' + key;
                QVERIFY2(!seen.contains(where), qPrintable(QStringLiteral("twice in %1: %2").arg(row.group, key)));
                seen.insert(where);
            }
            chartExport = chartExport || (row.group == u"Chart tools" && row.action == u"Export");
            saveToFile = saveToFile || (row.group == u"File" && row.action == u"Save to File");
        }
        QVERIFY(chartExport);
        QVERIFY(saveToFile);
    }
    void documentsDockKeysWinInTheDock()
    {
        TempDatabase db;
        QVERIFY2(db.open(), qPrintable(db.error()));
        DocumentStore store(db.db());
        QVERIFY(store.create(QStringLiteral("notes.py"), QStringLiteral("a = 1\n")));
        MainWindowServices services;
        services.documents = &store;
        MainWindow window(services);
        window.resize(1400, 860);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        DocumentBrowser* browser = window.documentBrowser();
        QVERIFY(browser);
        auto* table = browser->findChild<QTableView*>();
        auto* search = browser->findChild<QLineEdit*>();
        QVERIFY(table && search);
        // Ctrl+F in the dock: its search field, not the editor's find bar (before: ambiguous, nothing).
        table->setFocus();
        QTRY_VERIFY(table->hasFocus());
        QTest::keyClick(table, Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(search->hasFocus());
        QVERIFY(!window.findBar()->isVisible());
        // In the editor: the find bar.
        CodeEditor* editor = window.tabs()->currentPage()->editor();
        editor->setFocus();
        QTRY_VERIFY(editor->hasFocus());
        QTest::keyClick(editor, Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(window.findBar()->isVisible());
    }
};

QTEST_MAIN(TestDeskPolish)
#include "test_desk_polish.moc"
