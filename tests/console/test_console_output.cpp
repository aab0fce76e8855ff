// Output that must not freeze the window (issue 10, item 5): what the notebook holds and lays out
// is bounded whatever a run prints (a 10 MB line, a million lines, a flood, "\r" progress bars, a
// huge result or error, hostile chart titles), while the whole text stays for Save and Copy.
// Structural checks only: the figures (event-loop stalls) are in tests/bench/bench_console.
#include "TestRecords.h"

#include "core/notebook/TextPreview.h"
#include "ui/console/ChartThumbnail.h"
#include "ui/console/CutNotice.h"
#include "ui/console/OutputView.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QToolButton>

using namespace sandpad;

namespace {

// A cut line is its first kMaxLineChars characters and the marker (which counts the line).
constexpr qsizetype kLongestShownLine = OutputView::kMaxLineChars + 100;

qsizetype longestBlock(const QTextDocument* doc)
{
    qsizetype longest = 0;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        longest = std::max<qsizetype>(longest, b.length());
    return longest;
}

// Every text document of an entry: output, code, result.
qsizetype longestBlockIn(const RunEntry* entry)
{
    qsizetype longest = 0;
    for (const QPlainTextEdit* edit : entry->findChildren<QPlainTextEdit*>())
        longest = std::max(longest, longestBlock(edit->document()));
    return longest;
}

qsizetype charsIn(const RunEntry* entry)
{
    qsizetype total = 0;
    for (const QPlainTextEdit* edit : entry->findChildren<QPlainTextEdit*>())
        total += edit->document()->characterCount();
    for (const QLabel* label : entry->findChildren<QLabel*>())
        total += label->text().size();
    return total;
}

// Feeds text the way a Run delivers it: in batches.
void feed(RunEntry* entry, OutputStream stream, const QString& text, qsizetype batch)
{
    for (qsizetype i = 0; i < text.size(); i += batch) {
        entry->appendOutput(stream, text.mid(i, batch));
        if ((i / batch) % 16 == 0)
            entry->outputView()->flush(); // as the view's timer would, now and then
    }
}

ExecutionResult finished(const QString& stdoutText = {}, const QString& stderrText = {})
{
    ExecutionResult r = runResult(QStringLiteral("run-1"), QStringLiteral("hostile.py"), QStringLiteral("success"));
    r.stdoutText = stdoutText;
    r.stderrText = stderrText;
    return r;
}

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestConsoleOutput : public QObject {
    Q_OBJECT

private slots:
    void tenMegabyteLineIsCutAndKeptWhole()
    {
        RunNotebook notebook;
        RunEntry* entry = notebook.addRunning(runningRun(QStringLiteral("line"), QStringLiteral("print('x' * 10_000_000, end='')")));
        const QString line(10'000'000, QLatin1Char('x'));
        feed(entry, OutputStream::Stdout, line, 64 << 10);
        entry->run()->deliverResult(finished(line.left(4 << 20)));
        const QTextDocument* doc = entry->outputView()->document();
        QCOMPARE(doc->blockCount(), 1);
        QVERIFY2(longestBlock(doc) <= kLongestShownLine, qPrintable(QString::number(longestBlock(doc))));
        // The user sees what happened, with the line's real length.
        QVERIFY2(doc->lastBlock().text().endsWith(TextPreview::lineCutMarker(10'000'000)),
                 qPrintable(doc->lastBlock().text().right(120)));
        QVERIFY(doc->lastBlock().text().contains(QStringLiteral("line cut: 10,000,000 characters")));
        QVERIFY(entry->outputTruncated());
        QVERIFY(entry->isCut(RunEntry::Part::Output));
        QCOMPARE(entry->outputView()->linesCut(), 1);
        // Save and Copy have every character.
        QCOMPARE(entry->fullOutput().size(), line.size());
        QCOMPARE(entry->fullOutput(), line);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.txt"));
        QVERIFY(notebook.saveOutput(entry, path));
        QCOMPARE(QFileInfo(path).size(), qint64(line.size()));
        notebook.select(entry);
        QVERIFY(notebook.copySelectedOutput());
        QCOMPARE(QApplication::clipboard()->text().size(), line.size());
        // The notice under the output says so and offers both.
        CutNotice* notice = nullptr;
        for (CutNotice* n : entry->findChildren<CutNotice*>())
            if (n->accessibleName() == QLatin1String("Output truncated notice"))
                notice = n;
        QVERIFY(notice);
        QVERIFY(!notice->isHidden());
        QVERIFY2(notice->text().contains(QStringLiteral("1 long line cut")), qPrintable(notice->text()));
        QApplication::clipboard()->clear();
        for (QToolButton* b : notice->findChildren<QToolButton*>())
            if (b->text() == QLatin1String("Copy"))
                b->click();
        QCOMPARE(QApplication::clipboard()->text().size(), line.size());
    }

    void oneBatchOfTenMegabytes()
    {
        OutputView view;
        view.append(OutputStream::Stdout, QString(10'000'000, QLatin1Char('y')));
        view.finishOutput();
        QCOMPARE(view.document()->blockCount(), 1);
        QVERIFY(longestBlock(view.document()) <= kLongestShownLine);
        QVERIFY(view.document()->toPlainText().contains(QStringLiteral("line cut: 10,000,000 characters")));
        QCOMPARE(view.fullText().size(), 10'000'000);
    }

    // While a line grows its marker follows (not at every batch: at the end it is exact).
    void growingLineGetsItsFinalCount()
    {
        OutputView view;
        for (int i = 0; i < 50; ++i) {
            view.append(OutputStream::Stdout, QString(1000, QLatin1Char('g')));
            view.flush();
        }
        view.append(OutputStream::Stdout, QStringLiteral("tail\nnext line"));
        view.finishOutput();
        const QTextDocument* doc = view.document();
        QCOMPARE(doc->blockCount(), 2);
        QVERIFY(doc->firstBlock().text().endsWith(TextPreview::lineCutMarker(50'004)));
        QCOMPARE(doc->lastBlock().text(), QStringLiteral("next line"));
        QCOMPARE(view.linesCut(), 1);
    }

    void millionLinesKeepABoundedTail()
    {
        OutputView view;
        QString batch;
        for (int i = 0; i < 1'000'000; ++i) {
            batch += QString::number(i);
            batch += QLatin1Char('\n');
            if (batch.size() > (256 << 10)) {
                view.append(i % 2 ? OutputStream::Stdout : OutputStream::Stderr, batch);
                view.flush();
                batch.clear();
            }
        }
        view.append(OutputStream::Stdout, batch);
        view.finishOutput();
        QVERIFY(view.document()->blockCount() <= OutputView::kMaxViewLines);
        QCOMPARE(view.document()->lastBlock().text(), QStringLiteral("999999"));
        QVERIFY(view.linesDropped());
        QCOMPARE(view.totalLines(), 1'000'000);
        QVERIFY(view.fullText().startsWith(QStringLiteral("0\n1\n2\n")));
        QVERIFY(view.fullText().endsWith(QStringLiteral("999998\n999999\n")));
    }

    // Lines that each fit still add up: the document keeps about kMaxViewChars characters.
    void floodOfLongLinesStaysWithinTheBudget()
    {
        OutputView view;
        QString line(999, QLatin1Char('f'));
        line += QLatin1Char('\n');
        const QString batch = line.repeated(1000); // 1 MB
        for (int i = 0; i < 20; ++i) {
            view.append(OutputStream::Stdout, batch);
            view.flush();
        }
        view.finishOutput();
        QVERIFY2(view.document()->characterCount() <= OutputView::kMaxViewChars + kLongestShownLine,
                 qPrintable(QString::number(view.document()->characterCount())));
        QVERIFY(view.linesDropped());
        QCOMPARE(view.fullText().size(), 20 * batch.size());
    }

    // Many short batches of lines of 900 characters: dropping from the top keeps the budget
    // too (no batch is over it on its own).
    void slowFloodIsTrimmedFromTheTop()
    {
        OutputView view;
        QString line(899, QLatin1Char('s'));
        line += QLatin1Char('\n');
        for (int i = 0; i < 1500; ++i) {
            view.append(OutputStream::Stdout, line);
            view.flush();
        }
        QVERIFY(view.document()->characterCount() <= OutputView::kMaxViewChars + kLongestShownLine);
        QVERIFY(view.linesDropped());
        QVERIFY(view.truncated());
    }

    void carriageReturnStartsTheLineOver()
    {
        OutputView view;
        QString bar;
        for (int i = 0; i <= 100; ++i)
            bar += QStringLiteral("\r%1% |%2|").arg(i, 3).arg(QString(i / 2, QLatin1Char('#')), -50);
        // Updates split across batches; a progress bar never prints a newline.
        for (qsizetype i = 0; i < bar.size(); i += 37) {
            view.append(OutputStream::Stderr, bar.mid(i, 37));
            view.flush();
        }
        view.finishOutput();
        QCOMPARE(view.document()->blockCount(), 1);
        QCOMPARE(view.document()->toPlainText(), QStringLiteral("100% |%1|").arg(QString(50, QLatin1Char('#'))));
        QCOMPARE(view.fullText(), bar); // Save keeps every update
    }

    void carriageReturnsAndLineEnds()
    {
        OutputView view;
        // "\r\n" is a line end, also split across batches; "\r" restarts only its own line.
        for (const char* part : {"first\r", "\nsecond\r\n", "old\rnew\n", "done\r"})
            view.append(OutputStream::Stdout, QString::fromLatin1(part));
        view.finishOutput();
        QCOMPARE(view.document()->toPlainText(), QStringLiteral("first\nsecond\nnew\ndone"));
        view.append(OutputStream::Stdout, QStringLiteral("X"));
        view.finishOutput();
        QCOMPARE(view.document()->toPlainText(), QStringLiteral("first\nsecond\nnew\nX"));
        // Over a line that began in an earlier flush, and a cut one.
        view.append(OutputStream::Stdout, QStringLiteral("\n") + QString(5000, QLatin1Char('c')));
        view.flush();
        view.append(OutputStream::Stdout, QStringLiteral("\rshort"));
        view.finishOutput();
        QCOMPARE(view.document()->lastBlock().text(), QStringLiteral("short"));
        QCOMPARE(view.document()->blockCount(), 5);
    }

    void separatorsInTheTextDoNotMakeBlocks()
    {
        OutputView view;
        const QString nasty = QString(QChar(QChar::ParagraphSeparator)).repeated(100'000) + QChar(0xfdd0) + QChar(0xfdd1);
        view.append(OutputStream::Stdout, nasty);
        view.finishOutput();
        QCOMPARE(view.document()->blockCount(), 1);
        QVERIFY(longestBlock(view.document()) <= kLongestShownLine);
        QCOMPARE(view.fullText(), nasty);
    }

    void mixedStreamsOnOneLine()
    {
        OutputView view;
        for (int i = 0; i < 500; ++i) {
            view.append(i % 2 ? OutputStream::Stderr : OutputStream::Stdout, QString(10000, QLatin1Char('m')));
            if (i % 7 == 0)
                view.flush();
        }
        view.finishOutput();
        QCOMPARE(view.document()->blockCount(), 1);
        QVERIFY(longestBlock(view.document()) <= kLongestShownLine);
        QVERIFY(view.document()->toPlainText().contains(QStringLiteral("line cut: 5,000,000 characters")));
        QCOMPARE(view.fullText().size(), 5'000'000);
    }

    void hugeResultIsShownCutAndCopiedWhole()
    {
        RunNotebook notebook;
        ExecutionResult r = finished(QStringLiteral("done\n"));
        const QString result = QString(10'000'000, QLatin1Char('r'));
        r.result = result;
        RunEntry* entry = notebook.addFinished(new Run(r));
        QVERIFY(longestBlockIn(entry) <= kLongestShownLine);
        QVERIFY(entry->shownResultText().contains(QStringLiteral("line cut: 10,000,000 characters")));
        QCOMPARE(entry->resultText(), result);
        QVERIFY(entry->isCut(RunEntry::Part::Result));
        // The notice's links give the whole result.
        entry->activateLink(QStringLiteral("copy:result"));
        QCOMPARE(QApplication::clipboard()->text(), result);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("result.txt"));
        QVERIFY(notebook.saveText(entry, RunEntry::Part::Result, path));
        QCOMPARE(readAll(path), result);
    }

    void manyResultLinesAreBounded()
    {
        RunNotebook notebook;
        ExecutionResult r = finished();
        QString result;
        for (int i = 0; i < 200'000; ++i)
            result += QStringLiteral("row %1\n").arg(i);
        r.result = result;
        RunEntry* entry = notebook.addFinished(new Run(r));
        QVERIFY(charsIn(entry) < 100'000);
        QVERIFY(entry->shownResultText().contains(QStringLiteral("more lines not shown")));
        QVERIFY(entry->shownResultText().startsWith(QStringLiteral("row 0\nrow 1\n")));
    }

    void hugeErrorIsShownCutAndSavedWhole()
    {
        RunNotebook notebook;
        ExecutionResult r = finished(QStringLiteral("about to fail\n"));
        r.status = RunStatus::Error;
        QString traceback = QStringLiteral("Traceback (most recent call last):\n");
        for (int i = 0; i < 100'000; ++i)
            traceback += QStringLiteral("  File \"hostile.py\", line %1, in f\n").arg(i % 50 + 1);
        traceback += QStringLiteral("ValueError: ") + QString(1'000'000, QLatin1Char('v'));
        r.error = RunError{QStringLiteral("ValueError"), QString(10'000'000, QLatin1Char('e')), traceback};
        RunEntry* entry = notebook.addFinished(new Run(r));
        QVERIFY2(entry->shownErrorText().size() < 20'000, qPrintable(QString::number(entry->shownErrorText().size())));
        QVERIFY(entry->shownErrorText().contains(QStringLiteral("line cut: 10,000,000 characters")));
        QVERIFY(entry->shownErrorText().contains(QStringLiteral("earlier lines not shown")));
        QVERIFY(entry->shownErrorText().contains(QStringLiteral("save:error")));
        QVERIFY(entry->isCut(RunEntry::Part::Error));
        QSignalSpy lines(entry, &RunEntry::tracebackLineActivated);
        entry->activateLink(QStringLiteral("line:7"));
        QCOMPARE(lines.count(), 1); // the kept frames still link to the editor
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("error.txt"));
        QVERIFY(notebook.saveText(entry, RunEntry::Part::Error, path));
        QCOMPARE(readAll(path), entry->errorText());
        QVERIFY(readAll(path).endsWith(QString(1'000'000, QLatin1Char('v'))));
    }

    void hugeMessageAndCodeAreBounded()
    {
        RunNotebook notebook;
        ExecutionResult r = finished();
        r.status = RunStatus::InfrastructureError;
        r.message = QString(5'000'000, QLatin1Char('w'));
        r.code = QString(3'000'000, QLatin1Char('c'));
        RunEntry* entry = notebook.addFinished(new Run(r));
        QVERIFY(charsIn(entry) < 100'000);
        QVERIFY(longestBlockIn(entry) <= kLongestShownLine);
    }

    void chartTitlesAreBounded()
    {
        RunChart chart;
        chart.kind = RunChart::Kind::Interactive;
        QVERIFY(chart.setSpec(QJsonObject{{"type", "bar"}, {"title", QString(1'000, QLatin1Char('t'))}, {"elements", QJsonArray{}}}));
        ChartThumbnail thumb(chart, 0);
        QVERIFY(thumb.toolTip().size() <= 200);
        QVERIFY(thumb.accessibleName().size() <= 220);
        // Too large to validate again for a sketch: its title (the run's parsed chart is shared,
        // nothing is parsed here), no stall.
        QJsonArray points;
        for (int i = 0; i < 200'000; ++i)
            points.append(QJsonArray{i, i});
        QVERIFY(chart.setSpec(QJsonObject{{"type", "line"}, {"title", "big"},
                                 {"elements", QJsonArray{QJsonObject{{"label", "a"}, {"points", points}}}}}));
        ChartThumbnail big(chart, 3);
        QCOMPARE(big.toolTip(), QStringLiteral("big"));
    }

    // While one long line streams into a shown view, the view settles at one height: its rows
    // are not counted from the state of its own scroll bar (which they decide), else every batch
    // resized it, and each resize laid the line out again.
    void streamingLineDoesNotResizeTheViewOverAndOver()
    {
        RunNotebook notebook;
        notebook.resize(900, 600);
        notebook.show();
        QVERIFY(QTest::qWaitForWindowExposed(&notebook));
        RunEntry* entry = notebook.addRunning(runningRun(QStringLiteral("mixed")));
        entry->appendOutput(OutputStream::Stdout, QString(10000, QLatin1Char('m')));
        entry->outputView()->flush();
        // The first batch's layout and resizes happen now, before the counting starts.
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        struct ResizeCounter : QObject {
            int resizes = 0;
            bool eventFilter(QObject*, QEvent* e) override
            {
                resizes += e->type() == QEvent::Resize;
                return false;
            }
        } counter;
        entry->outputView()->installEventFilter(&counter);
        for (int i = 0; i < 200; ++i) {
            entry->appendOutput(i % 2 ? OutputStream::Stderr : OutputStream::Stdout, QString(10000, QLatin1Char('m')));
            entry->outputView()->flush();
            QCoreApplication::processEvents();
        }
        QVERIFY2(counter.resizes <= 4, qPrintable(QStringLiteral("%1 resizes").arg(counter.resizes)));
    }

    // Shown, laid out and painted: the cut line is what a user sees.
    void paintedNotebookShowsTheMarker()
    {
        RunNotebook notebook;
        notebook.resize(900, 600);
        notebook.show();
        QVERIFY(QTest::qWaitForWindowExposed(&notebook));
        RunEntry* entry = notebook.addRunning(runningRun(QStringLiteral("line")));
        entry->appendOutput(OutputStream::Stdout, QString(10'000'000, QLatin1Char('x')));
        entry->appendOutput(OutputStream::Stdout, QStringLiteral("\nafter\n"));
        ExecutionResult r = finished();
        r.result = QString(5'000'000, QLatin1Char('r'));
        entry->run()->deliverResult(r);
        QTRY_VERIFY(entry->outputView()->isVisible()); // once the result has been laid out
        QVERIFY(!notebook.grab().isNull());
        QCOMPARE(entry->outputView()->document()->lastBlock().text(), QStringLiteral("after"));
        QVERIFY(entry->outputView()->document()->firstBlock().text().contains(QStringLiteral("line cut")));
        // The view is as tall as the rows the cut line wraps to (1,000 characters and the
        // marker: more than 6 at 900 px), not as its two blocks: the marker is in sight.
        const int rowHeight = entry->outputView()->fontMetrics().lineSpacing();
        QTRY_VERIFY2(entry->outputView()->height() >= 6 * rowHeight,
                 qPrintable(QStringLiteral("%1 px for rows of %2 px").arg(entry->outputView()->height()).arg(rowHeight)));
    }
};

QTEST_MAIN(TestConsoleOutput)
#include "test_console_output.moc"
