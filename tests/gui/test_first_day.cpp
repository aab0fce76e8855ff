// The rough edges of a first day (issue 16, list 6), each where a test can tell, offscreen: find
// in output says what it found, cell runs' tracebacks say the editor's lines, a failed pip
// install points at the network setting, examples do not pile up, quitting offers Discard All,
// Recovery's Restore all closes the dialog.
#include "TestRecords.h"

#include "core/recovery/RecoveryJournal.h"
#include "ui/charts/ChartExportDialog.h"
#include "ui/charts/ChartPane.h"
#include "ui/charts/ChartViewer.h"
#include "ui/console/OutputView.h"
#include "ui/documents/DiffModel.h"
#include "ui/documents/DiffView.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorDocuments.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/MainWindow.h"
#include "ui/recovery/RecoveryDialog.h"
#include "ui/session/VariableExplorer.h"
#include "ui/statusbar/ProviderCheck.h"
#include "ui/statusbar/RunStatusBar.h"

#include <QBuffer>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QImage>
#include <QJsonArray>
#include <QLabel>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QDockWidget>
#include <QGuiApplication>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
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

    // The export dialog's bottom has room: the summary, then the buttons well apart below it,
    // every field as wide as it asks (it was 271 px wide, the buttons against the summary).
    void chartExportDialogHasRoom()
    {
        ChartExportDialog dialog(ChartExportDialog::defaultSize(), QSize(512, 300));
        dialog.show();
        QCoreApplication::processEvents();
        auto* buttons = dialog.findChild<QDialogButtonBox*>();
        QLabel* summary = nullptr;
        for (auto* label : dialog.findChildren<QLabel*>())
            if (label->accessibleName() == QStringLiteral("Exported size"))
                summary = label;
        QVERIFY(buttons && summary);
        QVERIFY(summary->text().contains(QStringLiteral("1600 × 1000")));
        const int gap = buttons->geometry().top() - summary->geometry().bottom();
        QVERIFY2(gap >= 12, qPrintable(QString::number(gap)));
        QVERIFY2(dialog.geometry().width() >= 360, qPrintable(QString::number(dialog.geometry().width())));
        QVERIFY(summary->geometry().right() < dialog.geometry().width());
        for (QWidget* field : dialog.findChildren<QWidget*>())
            if (qobject_cast<QComboBox*>(field) || qobject_cast<QSpinBox*>(field))
                QVERIFY2(field->width() >= field->sizeHint().width(), qPrintable(field->accessibleName()));
        for (QPushButton* button : buttons->findChildren<QPushButton*>())
            QVERIFY2(button->width() >= button->sizeHint().width(), qPrintable(button->text()));
    }

    // Chart export starts from a sensible size (a figure's own, else 1600×1000; the pane's size
    // is a choice, not the default) and confirms in the status bar with Open Folder.
    void chartExportHasASensibleSizeAndConfirms()
    {
        QCOMPARE(ChartExportDialog::defaultSize(), QSize(1600, 1000));
        QImage figure(640, 480, QImage::Format_RGB32);
        figure.fill(Qt::white);
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(figure.save(&buffer, "PNG"));
        QCOMPARE(ChartExportDialog::defaultSize(png), QSize(640, 480));
        QCOMPARE(ChartExportDialog::defaultSize("not a png"), QSize(1600, 1000));

        ChartExportDialog dialog(ChartExportDialog::defaultSize(), QSize(512, 300));
        QCOMPARE(QSize(dialog.width(), dialog.height()), QSize(1600, 1000));
        QCOMPARE(dialog.outputSize(), QSize(1600, 1000));
        QComboBox* sizes = dialog.sizeChoice();
        QVERIFY(sizes->currentText().contains(QStringLiteral("1600 × 1000")));
        const int shown = sizes->findText(QStringLiteral("As shown (512 × 300)"));
        QVERIFY(shown >= 0);
        sizes->setCurrentIndex(shown);
        emit sizes->activated(shown);
        QCOMPARE(QSize(dialog.width(), dialog.height()), QSize(512, 300));
        qobject_cast<QSpinBox*>(dialog.findChildren<QSpinBox*>().value(0))->setValue(700); // width
        QCOMPARE(sizes->currentText(), QStringLiteral("Custom"));
        dialog.setDpi(192);
        QCOMPARE(dialog.outputSize(), QSize(1400, 600));
        dialog.setFormat(ChartExportDialog::Format::Pdf);
        QCOMPARE(dialog.outputSize(), QSize(700, 300)); // points: dpi does not apply

        // A chart extracted from a figure exports at the figure's size; a dictionary at 1600×1000.
        ChartPane pane;
        RunChart extracted;
        extracted.kind = RunChart::Kind::Png;
        extracted.png = png;
        QVERIFY(extracted.setSpec(QJsonObject{{QStringLiteral("type"), QStringLiteral("line")}, {QStringLiteral("title"), QStringLiteral("f")},
                                     {QStringLiteral("elements"), QJsonArray{QJsonObject{{QStringLiteral("label"), QStringLiteral("a")},
                                          {QStringLiteral("points"), QJsonArray{QJsonArray{0, 1}, QJsonArray{1, 2}}}}}}}));
        RunChart dictionary;
        dictionary.kind = RunChart::Kind::Interactive;
        dictionary.spec = extracted.spec;
        pane.setCharts({extracted, dictionary});
        QVERIFY(pane.showsInteractive());
        QCOMPARE(pane.chartViewer()->exportSize(), QSize(640, 480));
        pane.selectChart(1);
        QCOMPARE(pane.chartViewer()->exportSize(), QSize(1600, 1000));

        // The confirmation, with the folder it opens.
        MainWindow window(MainWindowServices{});
        QString opened;
        window.runStatusBar()->setFolderOpener([&opened](const QString& folder) { opened = folder; });
        auto* charts = window.findChild<ChartPane*>();
        QVERIFY(charts);
        emit charts->chartExported(QStringLiteral("/tmp/plots/chart.png"), QSize(1600, 1000));
        QVERIFY2(window.runStatusBar()->savedText().startsWith(QStringLiteral("Saved chart.png, 1600×1000")),
                 qPrintable(window.runStatusBar()->savedText()));
        QVERIFY(window.runStatusBar()->savedText().contains(QStringLiteral("Open Folder")));
        window.runStatusBar()->showMessage(QStringLiteral("something else"), 1000);
        QVERIFY(!window.runStatusBar()->savedText().isEmpty()); // not hidden by other messages
        window.runStatusBar()->openSavedFolder();
        QCOMPARE(opened, QStringLiteral("/tmp/plots"));
    }

    // The revision diff marks what changed within a replaced line (core/diff InlineDiff), in
    // both layouts, drawn on a stronger tint than the line's.
    void diffShowsWithinLineChanges()
    {
        DiffView view;
        view.resize(900, 300);
        view.setTexts(QStringLiteral("a = 1\n\tvalue = compute(x)\nz\n"), QStringLiteral("a = 1\n\tvalue = compute(y)\nz\n"));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        DiffModel* model = view.model();
        QList<QPoint> removed, added;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex text = model->index(row, 2);
            for (const QVariant& v : text.data(DiffModel::InlineSpansRole).toList())
                (text.data(DiffModel::OldOpRole).toInt() == int(DiffOp::Removed) ? removed : added).append(v.toPoint());
        }
        // Unified text is "- " + the line with its tab shown as four spaces: "x" at 2 + 4 + 16.
        QCOMPARE(removed, QList<QPoint>{QPoint(22, 1)});
        QCOMPARE(added, QList<QPoint>{QPoint(22, 1)});
        QCOMPARE(model->index(1, 2).data().toString().mid(22, 1), QStringLiteral("x"));
        QVERIFY(model->index(1, 2).data(DiffModel::InlineColorRole).value<QColor>() != model->removedColor());
        // The added line (the removed one is the current row, drawn selected).
        const QColor strong = model->index(2, 2).data(DiffModel::InlineColorRole).value<QColor>();
        QVERIFY(strong != model->addedColor());
        // Drawn: the stronger tint is on screen.
        const QImage shot = view.table()->viewport()->grab().toImage();
        bool seen = false;
        for (int y = 0; y < shot.height() && !seen; ++y)
            for (int x = 0; x < shot.width() && !seen; ++x)
                seen = (shot.pixel(x, y) & 0xffffff) == (strong.rgb() & 0xffffff);
        QVERIFY(seen);
        view.setMode(DiffView::Mode::SideBySide);
        const QVariantList side = model->index(1, 3).data(DiffModel::InlineSpansRole).toList();
        QCOMPARE(side.size(), 1);
        QCOMPARE(side[0].toPoint(), QPoint(20, 1));
    }

    // A short diff's line-number columns are as wide as their titles ("New" was cut), in both
    // layouts.
    void diffNumberColumnsShowTheirTitles()
    {
        DiffView view;
        view.resize(900, 300);
        view.setTexts(QStringLiteral("print('kept')\n"), QStringLiteral("print('kept here')\n"));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QHeaderView* header = view.table()->horizontalHeader();
        for (const DiffView::Mode mode : {DiffView::Mode::Unified, DiffView::Mode::SideBySide}) {
            view.setMode(mode);
            const QList<int> numbers = mode == DiffView::Mode::Unified ? QList<int>{0, 1} : QList<int>{0, 2};
            for (int c : numbers) {
                const QString title = view.model()->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
                QVERIFY(!title.isEmpty());
                const int needed = header->fontMetrics().horizontalAdvance(title);
                QVERIFY2(header->sectionSize(c) > needed + 4, qPrintable(QStringLiteral("%1: %2 for %3").arg(title).arg(header->sectionSize(c)).arg(needed)));
            }
        }
    }

    // The Documents dock does not force the window wider than a 1024×768 screen, and the
    // window starts no larger than the screen.
    void documentsDockFitsASmallScreen()
    {
        MainWindow window(MainWindowServices{});
        const QSize available = QGuiApplication::primaryScreen()->availableGeometry().size();
        QVERIFY2(window.width() <= available.width() && window.height() <= available.height(),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4").arg(window.width()).arg(window.height())
                                .arg(available.width()).arg(available.height())));
        window.documentsDock()->show();
        window.show();
        QCoreApplication::processEvents();
        const int dock = window.documentsDock()->minimumSizeHint().width();
        const int whole = window.minimumSizeHint().width();
        qInfo("minimum widths: Documents dock %d px, window %d px", dock, whole);
        QVERIFY2(dock <= 360, qPrintable(QString::number(dock)));
        QVERIFY2(whole <= 1000, qPrintable(QString::number(whole)));
    }

    // A DataFrame `result` is shown once: as its table, not as the table and its text (issue 14).
    void aRichResultIsShownOnce()
    {
        RunNotebook notebook;
        ExecutionResult r = runResult(QStringLiteral("df"), QStringLiteral("frame.py"), QStringLiteral("success"));
        r.result = QStringLiteral("   a\n0  1\n1  2");
        RunOutput table;
        table.type = RunOutput::Type::Table;
        table.columns = {QStringLiteral("a")};
        table.dtypes = {QStringLiteral("int64")};
        table.index = {QStringLiteral("0"), QStringLiteral("1")};
        table.rows = {{QStringLiteral("1")}, {QStringLiteral("2")}};
        table.totalRows = 2;
        table.plain = *r.result + u'\n';
        r.outputs = {table};
        RunEntry* entry = notebook.addFinished(new Run(r));
        auto resultView = [](RunEntry* e) {
            for (auto* edit : e->findChildren<QPlainTextEdit*>())
                if (edit->accessibleName() == QStringLiteral("Result"))
                    return edit;
            return static_cast<QPlainTextEdit*>(nullptr);
        };
        QVERIFY(resultView(entry));
        QVERIFY2(resultView(entry)->isHidden(), qPrintable(entry->shownResultText()));
        QVERIFY(entry->shownResultText().isEmpty());
        QCOMPARE(entry->resultText(), *r.result); // still the run's result (Copy, exports)
        // A plain result beside an unrelated table keeps its text.
        r.runId = QStringLiteral("df2");
        r.result = QStringLiteral("42");
        RunEntry* other = notebook.addFinished(new Run(r));
        QVERIFY(!resultView(other)->isHidden());
    }

    // A narrow notebook (the Variables dock open beside it): the run's header wraps instead of
    // cutting its cost and time off, and the header's mode label keeps its text when it fits.
    void aNarrowNotebookCutsNothing()
    {
        RunNotebook notebook;
        notebook.setModeText(QStringLiteral("Session: 12 execution(s)"));
        ExecutionResult r = runResult(QStringLiteral("narrow"), QStringLiteral("a rather long tab title.py"),
                                      QStringLiteral("success"));
        RunEntry* entry = notebook.addFinished(new Run(r));
        notebook.resize(520, 400);
        notebook.show();
        QCoreApplication::processEvents();
        QVERIFY2(entry->minimumSizeHint().width() <= 420, qPrintable(QString::number(entry->minimumSizeHint().width())));
        QVERIFY2(entry->width() <= 520, qPrintable(QString::number(entry->width())));
        auto* mode = notebook.findChild<QLabel*>(QStringLiteral("notebookMode"));
        QVERIFY(mode);
        QVERIFY2(mode->width() >= mode->sizeHint().width(),
                 qPrintable(QStringLiteral("%1 < %2").arg(mode->width()).arg(mode->sizeHint().width())));
        // And it stands apart from the "Output" title.
        QLabel* title = nullptr;
        for (auto* label : notebook.findChildren<QLabel*>())
            if (label->text() == QStringLiteral("<b>Output</b>"))
                title = label;
        QVERIFY(title);
        QVERIFY2(mode->geometry().left() - title->geometry().right() > 4,
                 qPrintable(QStringLiteral("%1 → %2").arg(title->geometry().right()).arg(mode->geometry().left())));
    }

    // The header wraps between its items: at every width no line of it starts or ends with the
    // "·" between two items (it used to end the first line with one), and it is never cut.
    void aNarrowHeaderWrapsBetweenItems()
    {
        RunNotebook notebook;
        ExecutionResult r = runResult(QStringLiteral("wrap"), QStringLiteral("a rather long tab title.py"),
                                      QStringLiteral("success"));
        r.durationMs = 1234;
        r.costMicros = 50000;
        RunEntry* entry = notebook.addFinished(new Run(r));
        QLabel* header = nullptr;
        for (auto* label : entry->findChildren<QLabel*>())
            if (label->accessibleName() == QStringLiteral("Run summary"))
                header = label;
        QVERIFY(header);
        notebook.show();
        int wrapped = 0;
        for (int width = 900; width >= 240; width -= 20) {
            notebook.resize(width, 400);
            QCoreApplication::processEvents();
            QTextDocument doc;
            doc.setDocumentMargin(0);
            doc.setDefaultFont(header->font());
            doc.setHtml(header->text());
            doc.setTextWidth(header->contentsRect().width());
            const QString where = QStringLiteral("width %1: %2").arg(width).arg(header->text());
            QVERIFY2(header->height() >= int(doc.size().height()), qPrintable(where)); // nothing cut
            int lines = 0;
            for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
                const QString text = block.text();
                for (int i = 0; i < block.layout()->lineCount(); ++i, ++lines) {
                    const QTextLine line = block.layout()->lineAt(i);
                    const QString shown = text.mid(line.textStart(), line.textLength())
                                              .replace(QChar::Nbsp, u' ').replace(QChar::LineSeparator, u' ').trimmed();
                    QVERIFY2(!shown.startsWith(u'·') && !shown.endsWith(u'·'), qPrintable(where + " | " + shown));
                }
            }
            wrapped = qMax(wrapped, lines);
        }
        QVERIFY2(wrapped >= 3, "the narrow widths wrapped it");
        QVERIFY(entry->headerText().contains(QStringLiteral("success · 1.23 s")));
    }

    // The Variables dock at its usual width shows each variable's value (five 100 px columns put
    // Value out of sight beside a 300 px dock).
    void theVariablesDockShowsValues()
    {
        VariableExplorer explorer;
        QList<SessionVariable> variables;
        for (const char* name : {"df", "total_revenue", "x"}) {
            SessionVariable v;
            v.name = QString::fromLatin1(name);
            v.type = QStringLiteral("int");
            v.size = QStringLiteral("1");
            v.memory = 28;
            v.value = QStringLiteral("42");
            variables << v;
        }
        explorer.setSnapshot(variables);
        explorer.resize(300, 300);
        explorer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&explorer));
        QTableWidget* table = explorer.table();
        const int valueAt = table->columnViewportPosition(4);
        QVERIFY2(valueAt + 30 < table->viewport()->width(),
                 qPrintable(QStringLiteral("Value at %1 of %2").arg(valueAt).arg(table->viewport()->width())));
        for (int c = 0; c < 4; ++c) // each as wide as its title at least
            QVERIFY(table->columnWidth(c) >= table->horizontalHeader()->fontMetrics().horizontalAdvance(table->horizontalHeaderItem(c)->text()));
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
