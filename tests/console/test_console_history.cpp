// The notebook's history under hostile runs: what a start reads and holds per run is a bounded
// preview (TextPreview, RunPreview, RunHistory::recentPreviews), whatever the runs printed, and
// the whole texts are read back from the history for Save and Copy.
#include "TempDatabase.h"
#include "TestRecords.h"

#include "core/notebook/RunHistory.h"
#include "core/notebook/RunPreview.h"
#include "core/notebook/TextPreview.h"
#include "ui/console/OutputView.h"
#include "ui/console/RunController.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

using namespace sandpad;

namespace {

// Everything a run holds as text.
qsizetype textChars(const ExecutionResult& r)
{
    qsizetype n = r.code.size() + r.stdoutText.size() + r.stderrText.size() + r.message.size() + r.reason.size()
                  + r.result.value_or(QString()).size();
    if (r.error)
        n += r.error->name.size() + r.error->value.size() + r.error->traceback.size();
    return n;
}

// What a start may hold per run, whatever the run printed (the previews' limits add up to less).
constexpr qsizetype kPreviewBudget = 200'000;

ExecutionResult hostileRun(const QString& id, qint64 startedMs)
{
    ExecutionResult r = runResult(id, QStringLiteral("hostile.py"), QStringLiteral("error"));
    r.startedAt = QDateTime::fromMSecsSinceEpoch(startedMs, Qt::UTC);
    r.code = QStringLiteral("print('x' * 4_000_000)\n");
    r.stdoutText = QString(4 << 20, QLatin1Char('x')) + QStringLiteral("\n[output truncated: kept the first 4.0 MiB of 10.0 MiB]\n");
    r.stderrText = QStringLiteral("progress\r").repeated(100'000);
    r.result = QString(3'000'000, QLatin1Char('r'));
    QString traceback = QStringLiteral("Traceback (most recent call last):\n");
    for (int i = 0; i < 50'000; ++i)
        traceback += QStringLiteral("  File \"hostile.py\", line %1, in f\n").arg(i % 9 + 1);
    r.error = RunError{QStringLiteral("RecursionError"), QString(2'000'000, QLatin1Char('e')), traceback};
    r.message = r.stdoutText + r.stderrText;
    r.exitCode = 1;
    r.reason = QStringLiteral("the program raised");
    r.documentId = QStringLiteral("doc-1");
    r.revisionId = QStringLiteral("rev-1");
    return r;
}

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestConsoleHistory : public QObject {
    Q_OBJECT
    TempDatabase m_data;

private slots:
    void init() { m_data.initTest(); }
    void cleanup() { m_data.close(); }

    void previewKeepsHeadOrTailAndSaysWhatIsLeftOut()
    {
        QString text;
        for (int i = 0; i < 1000; ++i)
            text += QStringLiteral("line %1\n").arg(i);
        const TextPreview::Limits limits{10, 2000, 64 * 1024};
        const TextPreview head = TextPreview::make(text, TextPreview::Keep::Head, limits);
        QVERIFY(head.isCut());
        QVERIFY(head.text().startsWith(QStringLiteral("line 0\nline 1\n")));
        QVERIFY(head.text().endsWith(TextPreview::linesLeftOutMarker(990, TextPreview::Keep::Head)));
        const TextPreview tail = TextPreview::make(text, TextPreview::Keep::Tail, limits);
        QVERIFY(tail.text().startsWith(TextPreview::linesLeftOutMarker(990, TextPreview::Keep::Tail) + QLatin1Char('\n')));
        QVERIFY(tail.text().endsWith(QStringLiteral("line 998\nline 999\n")));
        QCOMPARE(tail.wholeChars(), text.size());
        // Short text comes back as it is; a long line is cut with its length named.
        QCOMPARE(TextPreview::make(QStringLiteral("a\nb\n"), TextPreview::Keep::Tail).text(), QStringLiteral("a\nb\n"));
        QVERIFY(!TextPreview::make(QStringLiteral("a\nb\n"), TextPreview::Keep::Tail).isCut());
        const TextPreview longLine = TextPreview::make(QString(123'456, QLatin1Char('z')), TextPreview::Keep::Head);
        QVERIFY(longLine.text().size() <= 1000);
        QVERIFY(longLine.text().endsWith(QStringLiteral("… [line cut: 123,456 characters; Save or Copy has the whole text]")));
        // A budget of characters, whatever the lines.
        const TextPreview budget = TextPreview::make(QString(1999, QLatin1Char('b')).append(QLatin1Char('\n')).repeated(100),
                                                     TextPreview::Keep::Tail, {500, 2000, 10'000});
        QVERIFY(budget.text().size() <= 12'000);
        // "\r" shows the line's last state, like the console; separators make no extra lines.
        QCOMPARE(TextPreview::make(QStringLiteral("10%\r20%\r30%\nok\r\n"), TextPreview::Keep::Head).text(),
                 QStringLiteral("30%\nok\n"));
        QCOMPARE(TextPreview::make(QString(QChar(QChar::ParagraphSeparator)), TextPreview::Keep::Head).text(),
                 QString(QChar::ReplacementCharacter));
        // Never half a surrogate pair at a cut.
        const QString emoji = QString::fromUtf8("\xF0\x9F\x98\x80").repeated(5000);
        const TextPreview cutEmoji = TextPreview::make(emoji, TextPreview::Keep::Head);
        const qsizetype markerAt = cutEmoji.text().indexOf(QStringLiteral("… [line cut"));
        QVERIFY(markerAt > 0);
        QVERIFY(!cutEmoji.text().at(markerAt - 1).isHighSurrogate());
    }

    void previewJsonRoundTrip()
    {
        const ExecutionResult whole = hostileRun(QStringLiteral("r1"), 1000);
        RunPreviewCuts cuts;
        const ExecutionResult preview = RunPreview::make(whole, &cuts);
        QVERIFY(cuts.stdoutText && cuts.result && cuts.error && cuts.message);
        QVERIFY(!cuts.code);
        QVERIFY(textChars(preview) < kPreviewBudget);
        // The end of the output is what the preview keeps (with the Executor's notice).
        QVERIFY(preview.stdoutText.endsWith(QStringLiteral("[output truncated: kept the first 4.0 MiB of 10.0 MiB]\n")));
        QCOMPARE(preview.stderrText, QStringLiteral("progress")); // the line's last state
        ExecutionResult back;
        RunPreviewCuts backCuts;
        QVERIFY(RunPreview::fromJson(RunPreview::toJson(preview, cuts), &back, &backCuts));
        QCOMPARE(back.stdoutText, preview.stdoutText);
        QCOMPARE(back.result, preview.result);
        QCOMPARE(back.error->traceback, preview.error->traceback);
        QCOMPARE(back.exitCode, std::optional<int>(1));
        QCOMPARE(back.revisionId, QStringLiteral("rev-1"));
        QCOMPARE(backCuts, cuts);
        QVERIFY(!RunPreview::fromJson(QStringLiteral("not json"), &back, &backCuts));
    }

    void startReadsPreviewsNotTheWholeRuns()
    {
        RunHistory history(m_data.db());
        for (int i = 0; i < 3; ++i)
            QVERIFY2(history.save(hostileRun(QStringLiteral("run-%1").arg(i), 1000 + i)), qPrintable(history.lastError()));
        QCOMPARE(m_data.rowCount(QStringLiteral("run_previews")), 3);
        // The whole texts are not read: replace them and the previews still show the run.
        QSqlQuery q(m_data.db().connection());
        QVERIFY(q.exec(QStringLiteral("UPDATE runs SET stdout = 'REPLACED', result = 'REPLACED', error_value = 'REPLACED'")));
        const QList<RunHistory::Preview> runs = history.recentPreviews(50);
        QCOMPARE(runs.size(), 3);
        QCOMPARE(runs.first().run.runId, QStringLiteral("run-0")); // oldest first, like recent()
        for (const auto& [r, cuts] : runs) {
            QVERIFY(cuts.any());
            QVERIFY2(textChars(r) < kPreviewBudget, qPrintable(QString::number(textChars(r))));
            QVERIFY(r.stdoutText.contains(QStringLiteral("line cut: 4,194,304 characters")));
            QVERIFY(!r.stdoutText.contains(QStringLiteral("REPLACED")));
            QCOMPARE(r.status, RunStatus::Error);
            QCOMPARE(r.costMicros, 50000);
            QCOMPARE(r.exitCode, std::optional<int>(1));
            QCOMPARE(r.documentId, QStringLiteral("doc-1"));
            QCOMPARE(r.error->name, QStringLiteral("RecursionError"));
        }
        // find() still gives the whole run.
        const auto whole = history.find(QStringLiteral("run-1"));
        QVERIFY(whole);
        QCOMPARE(whole->stdoutText, QStringLiteral("REPLACED"));
        QCOMPARE(whole->stderrText.size(), QStringLiteral("progress\r").size() * 100'000);
    }

    // Runs stored before previews existed (or in an older preview format) get one on their
    // first reload, kept for the next start.
    void runsWithoutAPreviewGetOneOnce()
    {
        RunHistory history(m_data.db());
        QVERIFY(history.save(hostileRun(QStringLiteral("old"), 1)));
        QVERIFY(history.save(hostileRun(QStringLiteral("older-format"), 2)));
        QSqlQuery q(m_data.db().connection());
        QVERIFY(q.exec(QStringLiteral("DELETE FROM run_previews WHERE run_id = 'old'")));
        QVERIFY(q.exec(QStringLiteral("UPDATE run_previews SET format = 0 WHERE run_id = 'older-format'")));
        const QList<RunHistory::Preview> runs = history.recentPreviews(50);
        QCOMPARE(runs.size(), 2);
        for (const auto& [r, cuts] : runs) {
            QVERIFY(cuts.any());
            QVERIFY(textChars(r) < kPreviewBudget);
            QCOMPARE(r.reason, QStringLiteral("the program raised"));
        }
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM run_previews WHERE format = %1").arg(RunPreview::kFormat)));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 2);
        q.finish();
        // Removing a run removes its preview.
        QVERIFY(history.remove(QStringLiteral("old")));
        QCOMPARE(m_data.rowCount(QStringLiteral("run_previews")), 1);
        history.clear();
        QCOMPARE(m_data.rowCount(QStringLiteral("run_previews")), 0);
    }

    // A file without the previews' table (another build's schema) still reloads, bounded.
    void noPreviewTableFallsBackToBoundedWholeRuns()
    {
        RunHistory history(m_data.db());
        QVERIFY(history.save(hostileRun(QStringLiteral("r"), 1)));
        QSqlQuery q(m_data.db().connection());
        QVERIFY(q.exec(QStringLiteral("DROP TABLE run_previews")));
        const QList<RunHistory::Preview> runs = history.recentPreviews(50);
        QCOMPARE(runs.size(), 1);
        QVERIFY(runs.first().cuts.any());
        QVERIFY(textChars(runs.first().run) < kPreviewBudget);
    }

    void notebookReloadHoldsPreviewsAndSavesWholeTexts()
    {
        RunHistory history(m_data.db());
        const ExecutionResult hostile = hostileRun(QStringLiteral("hostile"), 10);
        QVERIFY(history.save(hostile));
        ExecutionResult small = runResult(QStringLiteral("small"), QStringLiteral("ok.py"), QStringLiteral("success"));
        small.startedAt = QDateTime::fromMSecsSinceEpoch(20, Qt::UTC);
        small.stdoutText = QStringLiteral("hello\n");
        small.result = QStringLiteral("42");
        QVERIFY(history.save(small));

        RunNotebook notebook;
        RunController controller(nullptr, &notebook);
        controller.setHistory(&history);
        QCOMPARE(controller.loadHistory(), 2);
        const QList<RunEntry*> entries = notebook.entries();
        QCOMPARE(entries.size(), 2);
        RunEntry* entry = entries.first();
        QCOMPARE(entry->runId(), QStringLiteral("hostile"));
        // What the start holds for the run, and what its widgets lay out, is bounded.
        QVERIFY2(textChars(entry->run()->result()) < kPreviewBudget, qPrintable(QString::number(textChars(entry->run()->result()))));
        const QTextDocument* doc = entry->outputView()->document();
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
            QVERIFY(b.length() <= OutputView::kMaxLineChars + 100);
        QVERIFY(doc->toPlainText().contains(QStringLiteral("line cut: 4,194,304 characters")));
        QVERIFY(entry->isCut(RunEntry::Part::Output));
        QVERIFY(entry->isCut(RunEntry::Part::Result));
        QVERIFY(entry->isCut(RunEntry::Part::Error));
        // Save and Copy read the whole texts back from the history.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out.txt"));
        QVERIFY(notebook.saveOutput(entry, out));
        QCOMPARE(readAll(out), hostile.stdoutText + hostile.stderrText);
        const QString result = dir.filePath(QStringLiteral("result.txt"));
        QVERIFY(notebook.saveText(entry, RunEntry::Part::Result, result));
        QCOMPARE(readAll(result), *hostile.result);
        QVERIFY(entry->copyWholeText(RunEntry::Part::Error));
        QCOMPARE(QApplication::clipboard()->text().size(),
                 (hostile.error->name + QStringLiteral(": ") + hostile.error->value + QLatin1Char('\n') + hostile.error->traceback).size());
        // The entry still holds only its preview.
        QVERIFY(textChars(entry->run()->result()) < kPreviewBudget);
        // A run that printed little is shown whole, and saved from what the entry holds.
        RunEntry* plain = entries.last();
        QVERIFY(!plain->isCut(RunEntry::Part::Output));
        QCOMPARE(plain->outputView()->toPlainText(), QStringLiteral("hello"));
        QCOMPARE(plain->resultText(), QStringLiteral("42"));
        QCOMPARE(plain->fullOutput(), QStringLiteral("hello\n"));
    }

    // The history lost the run (cleared, another workspace): Save says so and writes nothing,
    // never an excerpt passed off as the whole text.
    void wholeTextGoneIsAClearError()
    {
        RunHistory history(m_data.db());
        QVERIFY(history.save(hostileRun(QStringLiteral("gone"), 1)));
        RunNotebook notebook;
        RunController controller(nullptr, &notebook);
        controller.setHistory(&history);
        QCOMPARE(controller.loadHistory(), 1);
        history.clear();
        RunEntry* entry = notebook.entries().first();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.txt"));
        QString error;
        QVERIFY(!notebook.saveOutput(entry, path, &error));
        QVERIFY2(error.contains(QStringLiteral("not in the history")), qPrintable(error));
        QVERIFY(!QFile::exists(path));
        QApplication::clipboard()->setText(QStringLiteral("unchanged"));
        notebook.select(entry);
        QVERIFY(!notebook.copySelectedOutput(&error));
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("unchanged"));
        QVERIFY(entry->fullOutput().isEmpty());
    }
};

QTEST_MAIN(TestConsoleHistory)
#include "test_console_history.moc"
