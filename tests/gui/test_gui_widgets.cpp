// Widget-level tests: editor cells, find/replace, error marks, the output view under a flood,
// run entries, examples and the status bar. No execution here (see test_gui_main_window).
#include "EventLoopProbe.h"
#include "TestFiles.h"
#include "TestRecords.h"

#include "ui/console/OutputView.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/editor/FindReplaceBar.h"
#include "ui/examples/ExampleLibrary.h"
#include "ui/statusbar/RunStatusBar.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QToolButton>

using namespace sandpad;

class TestGuiWidgets : public QObject {
    Q_OBJECT
private slots:
    void cellsAreFoundAndDrawn()
    {
        CodeEditor editor;
        editor.setText(QStringLiteral("import math\n# %% second\nx = 1\ny = 2\n# %%\nprint(x + y)\n"));
        editor.updateCellSeparators();
        QCOMPARE(editor.cellSeparatorLines(), (QList<int>{1, 4}));
        editor.setCursorPosition(3, 0);
        const CodeEditor::Cell cell = editor.currentCell();
        QCOMPARE(cell.text, QStringLiteral("x = 1\ny = 2"));
        QCOMPARE(cell.startLine, 3);
        QCOMPARE(cell.endLine, 4);
        QCOMPARE(editor.nextCellLine(), 6);
        editor.setCursorPosition(0, 0);
        QCOMPARE(editor.currentCell().text, QStringLiteral("import math"));
        // JavaScript uses `// %%`.
        editor.setLanguage(Language::JavaScript);
        editor.setText(QStringLiteral("let a = 1\n// %%\nconsole.log(a)\n"));
        editor.updateCellSeparators();
        QCOMPARE(editor.cellSeparatorLines(), QList<int>{1});
    }

    void selectedOrAllAndErrorMarks()
    {
        CodeEditor editor;
        editor.setText(QStringLiteral("a = 1\nb = 0\nprint(a / b)\n"));
        QCOMPARE(editor.selectedOrAll(), editor.text());
        editor.setSelection(1, 0, 1, 5);
        QCOMPARE(editor.selectedOrAll(), QStringLiteral("b = 0"));
        editor.markErrorLine(3, QStringLiteral("ZeroDivisionError: division by zero"));
        QCOMPARE(editor.errorLine(), 3);
        QVERIFY(editor.markersAtLine(2) != 0);
        QCOMPARE(editor.annotation(2), QStringLiteral("ZeroDivisionError: division by zero"));
        editor.insertAt(QStringLiteral("# edited\n"), 0, 0); // editing clears the stale mark
        QCOMPARE(editor.errorLine(), 0);
        QCOMPARE(editor.annotation(3), QString());
    }

    void pythonIndentsAfterColon()
    {
        CodeEditor editor;
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setFocus();
        QTest::keyClicks(&editor, QStringLiteral("for i in range(3):"));
        QTest::keyClick(&editor, Qt::Key_Return);
        QTest::keyClicks(&editor, QStringLiteral("print(i)"));
        QCOMPARE(editor.text(), QStringLiteral("for i in range(3):\n    print(i)"));
    }

    void findAndReplace()
    {
        CodeEditor editor;
        editor.setText(QStringLiteral("foo = 1\nprint(foo)\nfoo += 2\n"));
        FindReplaceBar bar;
        bar.setEditor(&editor);
        bar.showReplace();
        bar.findField()->setText(QStringLiteral("foo"));
        QVERIFY(bar.findNext());
        QCOMPARE(editor.selectedText(), QStringLiteral("foo"));
        bar.replaceField()->setText(QStringLiteral("bar"));
        QCOMPARE(bar.replaceAll(), 3);
        QCOMPARE(editor.text(), QStringLiteral("bar = 1\nprint(bar)\nbar += 2\n"));
        bar.findField()->setText(QStringLiteral("nothing"));
        QVERIFY(!bar.findNext());
    }

    void tabsTakeLanguageFromExtension()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("snippet.js"));
        QVERIFY(writeFile(path, "console.log(1)\n"));
        EditorTabs tabs;
        tabs.newTab();
        EditorPage* page = tabs.openFile(path);
        QVERIFY(page);
        QCOMPARE(page->language(), Language::JavaScript);
        QCOMPARE(page->editor()->language(), Language::JavaScript);
        QCOMPARE(tabs.tabText(tabs.currentIndex()), QStringLiteral("snippet.js"));
        page->editor()->append(QStringLiteral("// more\n"));
        QVERIFY(tabs.tabText(tabs.currentIndex()).endsWith(QStringLiteral("•")));
        const QString py = dir.filePath(QStringLiteral("copy.py"));
        QVERIFY(tabs.savePage(page, py));
        QCOMPARE(page->language(), Language::Python);
        QCOMPARE(tabs.tabText(tabs.currentIndex()), QStringLiteral("copy.py"));
        QCOMPARE(tabs.count(), 2);
        tabs.closePage(1);
        tabs.closePage(0);
        QCOMPARE(tabs.count(), 1); // a fresh untitled tab replaces the last one
    }

    // A million lines arriving in Run-sized batches: the event loop keeps ticking and the
    // view keeps a bounded tail.
    void outputViewTakesAFlood()
    {
        RunNotebook notebook;
        notebook.resize(800, 600);
        notebook.show();
        QVERIFY(QTest::qWaitForWindowExposed(&notebook));
        RunEntry* entry = notebook.addRunning(runningRun(QStringLiteral("flood"), QStringLiteral("for i in ...")));
        int next = 0;
        const int total = 1000000;
        QTimer producer;
        producer.setInterval(0);
        connect(&producer, &QTimer::timeout, this, [&] {
            QString batch;
            const int end = std::min(total, next + 20000);
            for (; next < end; ++next) {
                batch += QString::number(next);
                batch += QLatin1Char('\n');
            }
            entry->appendOutput(next % 3 ? OutputStream::Stdout : OutputStream::Stderr, batch);
            if (next >= total)
                producer.stop();
        });
        EventLoopProbe probe;
        probe.start();
        producer.start();
        QTRY_VERIFY_WITH_TIMEOUT(!producer.isActive(), 60000);
        QTRY_COMPARE(entry->outputView()->document()->lastBlock().text(), QStringLiteral("999999")); // the last flush
        const qint64 worst = probe.worstGapMs();
        qInfo("output view flood: longest event-loop gap %lld ms over %lld ms", worst, probe.elapsedMs());
        OutputView* view = entry->outputView();
        QVERIFY(view->truncated());
        QVERIFY(view->document()->blockCount() <= OutputView::kMaxViewLines);
        QCOMPARE(view->document()->lastBlock().text(), QStringLiteral("999999"));
        QCOMPARE(view->totalLines(), qint64(total));
        QVERIFY(entry->fullOutput().endsWith(QStringLiteral("999998\n999999\n")));
        QVERIFY(entry->fullOutput().startsWith(QStringLiteral("0\n1\n2\n")));
        auto* notice = entry->findChild<QLabel*>(QString(), Qt::FindDirectChildrenOnly);
        Q_UNUSED(notice);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.txt"));
        QVERIFY(notebook.saveOutput(entry, path));
        QCOMPARE(QFileInfo(path).size(), qint64(entry->fullOutput().toUtf8().size()));
    }

    void finishedEntryShowsEverything()
    {
        RunNotebook notebook;
        ExecutionResult record = runResult(QStringLiteral("r1"), QStringLiteral("Untitled 1"), QStringLiteral("error"));
        record.stdoutText = QStringLiteral("before\n");
        record.stderrText = QStringLiteral("warning\n");
        record.error = RunError{QStringLiteral("ZeroDivisionError"), QStringLiteral("division by zero"),
                                      QStringLiteral("Traceback (most recent call last):\n  File \"Untitled 1\", line 3, in <module>\nZeroDivisionError: division by zero")};
        RunChart chart;
        chart.kind = RunChart::Kind::Interactive;
        QVERIFY(chart.setSpec(QJsonObject{{"type", "bar"}, {"title", "Sales"}, {"elements", QJsonArray{}}}));
        record.charts = {chart};
        RunEntry* entry = notebook.addFinished(new Run(record));
        QVERIFY(entry->headerText().contains(QStringLiteral("error")));
        QVERIFY(entry->headerText().contains(QStringLiteral("$0.05")));
        QVERIFY(entry->headerText().contains(QStringLiteral("1.23 s")));
        QVERIFY(entry->headerText().contains(QStringLiteral("local")));
        QCOMPARE(entry->outputView()->toPlainText(), QStringLiteral("before\nwarning"));
        QSignalSpy lines(&notebook, &RunNotebook::tracebackLineActivated);
        entry->activateLink(QStringLiteral("line:3"));
        QCOMPARE(lines.count(), 1);
        QCOMPARE(lines.first().at(1).toInt(), 3);
        QSignalSpy charts(&notebook, &RunNotebook::chartActivated);
        auto* thumb = entry->findChild<QToolButton*>(QString());
        QVERIFY(thumb);
        const QList<QToolButton*> buttons = entry->findChildren<QToolButton*>();
        for (QToolButton* b : buttons)
            if (b->accessibleName().startsWith(QStringLiteral("Chart 1")))
                b->click();
        QCOMPARE(charts.count(), 1);
        QCOMPARE(charts.first().at(0).toString(), QStringLiteral("r1"));
        QVERIFY(notebook.findNext(QStringLiteral("warning")));
        notebook.clear();
        QVERIFY(notebook.entries().isEmpty());
    }

    void examplesAreBundled()
    {
        const QList<Example> all = ExampleLibrary::all();
        QCOMPARE(all.size(), 8);
        for (const Example& e : all)
            QVERIFY2(!e.code().isEmpty(), qPrintable(e.fileName));
        QCOMPARE(ExampleLibrary::find(QStringLiteral("javascript_snippet"))->language, Language::JavaScript);
        QVERIFY(ExampleLibrary::find(QStringLiteral("sine_wave"))->code().contains(QStringLiteral("np.sin(x)")));
        QCOMPARE(ExampleLibrary::find(QStringLiteral("dataframe_math"))->title, QStringLiteral("DataFrame and math"));
    }

    void statusBarShowsCosts()
    {
        RunStatusBar bar;
        bar.setProvider(QStringLiteral("local"));
        bar.setValidation(RunStatusBar::Validation::Valid);
        QVERIFY(bar.providerText().contains(QStringLiteral("local")));
        QVERIFY(bar.providerText().contains(QStringLiteral("valid")));
        bar.setLastRunCost(50000);
        bar.setSessionTotal(150000);
        QCOMPARE(bar.lastCostText(), QStringLiteral("Last run: $0.05"));
        QCOMPARE(bar.sessionTotalText(), QStringLiteral("Session: $0.15"));
        QCOMPARE(bar.creditsText(), QString());
        bar.setCreditsBalance(2500000);
        QCOMPARE(bar.creditsText(), QStringLiteral("Credits: $2.50"));
    }
};

QTEST_MAIN(TestGuiWidgets)
#include "test_gui_widgets.moc"
