// The rough edges of a first day (issue 16, list 6), each where a test can tell, offscreen: find
// in output says what it found, cell runs' tracebacks say the editor's lines, a failed pip
// install points at the network setting, examples do not pile up, quitting offers Discard All,
// Recovery's Restore all closes the dialog.
#include "TestRecords.h"

#include "core/recovery/RecoveryJournal.h"
#include "ui/console/OutputView.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorDocuments.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/MainWindow.h"
#include "ui/recovery/RecoveryDialog.h"
#include "ui/statusbar/ProviderCheck.h"
#include "ui/statusbar/RunStatusBar.h"

#include <QDialogButtonBox>
#include <QPushButton>
#include <QSplitter>
#include <QTemporaryDir>
#include <QTest>

using namespace sandpad;

class TestFirstDay : public QObject {
    Q_OBJECT

private slots:
    void findInOutputHighlightsCountsAndSaysNotFound()
    {
        RunNotebook notebook;
        for (int i = 0; i < 2; ++i) {
            ExecutionResult r = runResult(QStringLiteral("r%1").arg(i), QStringLiteral("run"), QStringLiteral("success"));
            r.stdoutText = QStringLiteral("alpha\nwarning one\nwarning two\n");
            notebook.addFinished(new Run(r));
        }
        QVERIFY(notebook.findNext(QStringLiteral("warning")));
        QCOMPARE(notebook.findStatusText(), QStringLiteral("1 of 4"));
        QCOMPARE(notebook.entries().first()->outputView()->extraSelections().size(), 2); // all marked
        QCOMPARE(notebook.entries().last()->outputView()->extraSelections().size(), 2);
        QVERIFY(notebook.findNext(QStringLiteral("warning")));
        QCOMPARE(notebook.findStatusText(), QStringLiteral("2 of 4"));
        QVERIFY(notebook.findNext(QStringLiteral("warning")));
        QCOMPARE(notebook.findStatusText(), QStringLiteral("3 of 4"));
        QVERIFY(!notebook.findNext(QStringLiteral("no such text")));
        QCOMPARE(notebook.findStatusText(), QStringLiteral("Not found"));
        QVERIFY(notebook.entries().first()->outputView()->extraSelections().isEmpty());
    }

    void cellTracebacksSayTheEditorsLines()
    {
        RunNotebook notebook;
        RunOrigin origin;
        origin.title = QStringLiteral("cells.py · lines 6–9");
        origin.firstLine = 6; // the cell starts at editor line 6
        auto* run = new Run(QStringLiteral("c1"), origin, QStringLiteral("local"));
        RunEntry* entry = notebook.addRunning(run);
        ExecutionResult r = runResult(QStringLiteral("c1"), origin.title, QStringLiteral("error"));
        r.error = RunError{QStringLiteral("ZeroDivisionError"), QStringLiteral("division by zero"),
                           QStringLiteral("Traceback (most recent call last):\n  File \"cells.py\", line 3, in <module>\nZeroDivisionError: division by zero")};
        run->deliverResult(r);
        const QString shown = entry->shownErrorText();
        QVERIFY2(shown.contains(QStringLiteral("line 8, in")), qPrintable(shown)); // 3 + 6 - 1
        QVERIFY(!shown.contains(QStringLiteral("line 3, in")));
        QVERIFY(shown.contains(QStringLiteral("href=\"line:3\""))); // the jump adds the offset itself
    }

    void aFailedPipInstallPointsAtTheNetworkSetting()
    {
        RunNotebook notebook;
        ExecutionResult r = runResult(QStringLiteral("p1"), QStringLiteral("pip"), QStringLiteral("error"));
        r.error = RunError{QStringLiteral("PipInstallError"),
                           QStringLiteral("Failed to install packages: ERROR: No matching distribution found for yfinance"), {}};
        RunEntry* entry = notebook.addFinished(new Run(r));
        QVERIFY2(entry->shownErrorText().contains(QStringLiteral("Allow network access")), qPrintable(entry->shownErrorText()));
    }

    void examplesDoNotPileUpAndQuittingOffersDiscardAll()
    {
        QWidget window;
        auto* tabs = new EditorTabs(&window);
        EditorDocuments docs(tabs, nullptr, QString(), &window);
        tabs->newTab();
        QVERIFY(docs.openExample(QStringLiteral("sine_wave")));
        QCOMPARE(tabs->count(), 1); // over the blank tab
        QVERIFY(docs.openExample(QStringLiteral("scatter")));
        QCOMPARE(tabs->count(), 1); // over the untouched example
        QCOMPARE(tabs->currentPage()->title(), QStringLiteral("scatter.py"));
        tabs->currentEditor()->append(QStringLiteral("# mine\n"));
        QVERIFY(docs.openExample(QStringLiteral("line_dates")));
        QCOMPARE(tabs->count(), 2); // an edited example is kept
        QVERIFY(docs.openExample(QStringLiteral("scatter")));
        QCOMPARE(tabs->count(), 2); // already open: gone back to, edits kept
        QVERIFY(tabs->currentEditor()->text().contains(QStringLiteral("# mine")));

        tabs->newTab(Language::Python, QStringLiteral("a"));
        tabs->currentEditor()->append(QStringLiteral("b"));
        tabs->newTab(Language::Python, QStringLiteral("c"));
        tabs->currentEditor()->append(QStringLiteral("d"));
        int asked = 0;
        docs.setDiscardPrompt([&asked](EditorPage*) {
            ++asked;
            return QMessageBox::NoToAll; // Discard All
        });
        QVERIFY(docs.confirmCloseAll());
        QCOMPARE(asked, 1); // three modified tabs, one question
    }

    void recoveryRestoreAllClosesTheDialog()
    {
        QTemporaryDir dir;
        RecoveryJournal journal(dir.path());
        RecoverySnapshot a;
        a.title = QStringLiteral("alpha.py");
        a.text = QStringLiteral("print('alpha')\n");
        journal.noteChanged(QStringLiteral("a"), a);
        QVERIFY(journal.flush());
        RecoveryDialog dialog(journal);
        dialog.show();
        QPushButton* restoreAll = nullptr;
        for (QPushButton* b : dialog.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Restore all"))
                restoreAll = b;
        QVERIFY(restoreAll);
        restoreAll->click();
        QVERIFY(!dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.toRestore().size(), 1);
    }

    void anOptionalPackageAloneIsNoWarning()
    {
        RunStatusBar bar;
        ProviderCheck check(&bar);
        ValidationReport report;
        report.provider = QStringLiteral("local");
        report.items = {{QStringLiteral("bubblewrap"), ValidationItem::Level::Ok, QStringLiteral("bwrap 0.8.0")},
                        {QStringLiteral("package yfinance"), ValidationItem::Level::Warning, QStringLiteral("missing")}};
        check.show(report);
        QCOMPARE(bar.validation(), RunStatusBar::Validation::Valid);
        report.items.append({QStringLiteral("package numpy"), ValidationItem::Level::Warning, QStringLiteral("missing")});
        check.show(report);
        QCOMPARE(bar.validation(), RunStatusBar::Validation::Warning);
    }

    void theChartPaneWaitsForTheFirstChart()
    {
        MainWindow window(MainWindowServices{});
        window.resize(1400, 860);
        window.show();
        QCoreApplication::processEvents();
        auto* right = window.findChild<QSplitter*>(QStringLiteral("rightSplitter"));
        QVERIFY(right);
        QVERIFY2(right->sizes().value(1) < right->sizes().value(0) / 4,
                 "before any run the notebook has the column");
    }

    // Issue 17: a tab's language is warmed when the tab opens or switches to it, so a JavaScript
    // tab's first run is pre-started too.
    void aTabWarmsItsLanguage()
    {
        QList<Language> warmed;
        MainWindowServices services;
        services.warmLanguage = [&warmed](Language language) { warmed.append(language); };
        MainWindow window(services);
        window.tabs()->newTab(Language::JavaScript, QStringLiteral("console.log(1)"));
        QVERIFY2(warmed.contains(Language::JavaScript), "a new JavaScript tab");
        warmed.clear();
        EditorPage* page = window.tabs()->newTab(Language::Python);
        QVERIFY(!warmed.contains(Language::JavaScript));
        page->setLanguage(Language::JavaScript);
        QVERIFY2(warmed.contains(Language::JavaScript), "a tab switched to JavaScript");
    }
};

QTEST_MAIN(TestFirstDay)
#include "test_first_day.moc"
