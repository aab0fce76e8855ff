// Console benchmark: what hostile output costs the window. Each case streams text into a run
// entry of a shown RunNotebook the way a Run delivers it (one batch per event-loop turn),
// finishes the entry with the record the Executor would keep, and paints the notebook. The
// figure is the longest event-loop stall (gap between the ticks of a 10 ms timer), the
// "freezes the window" number. A second table reloads a history of such runs into a notebook,
// from a workspace database as the window does at start.
// Usage: bench_console [CASE-SUBSTRING] (QT_QPA_PLATFORM=offscreen by default).
#include "EventLoopProbe.h"
#include "TestRecords.h"

#include "core/notebook/RunHistory.h"
#include "core/storage/Database.h"
#include "ui/console/OutputView.h"
#include "ui/console/RunController.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace sandpad;

namespace {

constexpr int kRepeats = 3;

struct Chunk {
    OutputStream stream = OutputStream::Stdout;
    QString text;
};
// Returns the next batch, or an empty text when the output has ended.
using Producer = std::function<Chunk()>;

struct Case {
    const char* name;
    Producer (*producer)();
    // What the finished run's record holds besides the output (result, error); built before the
    // measurement starts, so that the bench's own string building is not counted.
    void (*finish)(ExecutionResult&) = nullptr;
};

// Repeats one batch `count` times.
Producer repeated(OutputStream stream, QString batch, qint64 count)
{
    auto left = std::make_shared<qint64>(count);
    return [stream, batch, left]() -> Chunk {
        if ((*left)-- <= 0)
            return {};
        return {stream, batch};
    };
}

QString lines(int first, int count)
{
    QString s;
    for (int i = first; i < first + count; ++i) {
        s += QString::number(i);
        s += QLatin1Char('\n');
    }
    return s;
}

const Case kCases[] = {
    {"10 MB on one line, no newline (64 KiB batches)",
     [] { return repeated(OutputStream::Stdout, QString(64 << 10, QLatin1Char('x')), (10'000'000 >> 16) + 1); }},
    {"10 MB on one line, no newline (one batch)",
     [] { return repeated(OutputStream::Stdout, QString(10'000'000, QLatin1Char('x')), 1); }},
    {"10 MB of lines of 100,000 characters (one batch)",
     [] {
         QString line(99'999, QLatin1Char('z'));
         line += QLatin1Char('\n');
         return repeated(OutputStream::Stdout, line.repeated(100), 1);
     }},
    {"1,000,000 short lines",
     [] {
         auto next = std::make_shared<int>(0);
         return Producer([next]() -> Chunk {
             if (*next >= 1'000'000)
                 return {};
             const QString text = lines(*next, 20000);
             *next += 20000;
             return {(*next / 20000) % 3 ? OutputStream::Stdout : OutputStream::Stderr, text};
         });
     }},
    {"100 MB flood of 1,000-character lines (1 MB batches)",
     [] {
         QString line(999, QLatin1Char('y'));
         line += QLatin1Char('\n');
         return repeated(OutputStream::Stdout, line.repeated(1000), 100);
     }},
    {"mixed stdout/stderr on one 10 MB line",
     [] {
         auto n = std::make_shared<int>(0);
         return Producer([n]() -> Chunk {
             if (*n >= 1000)
                 return {};
             return {(*n)++ % 2 ? OutputStream::Stderr : OutputStream::Stdout, QString(10000, QLatin1Char('m'))};
         });
     }},
    {"\\r progress bar, 1,000,000 updates, no newline ever",
     [] {
         auto n = std::make_shared<int>(0);
         return Producer([n]() -> Chunk {
             if (*n >= 1'000'000)
                 return {};
             QString s;
             for (int i = 0; i < 10000; ++i, ++*n)
                 s += QStringLiteral("\r%1% |%2|").arg(*n / 10000, 3).arg(QString(*n / 20000, QLatin1Char('#')), -50);
             return {OutputStream::Stderr, s};
         });
     }},
    {"10 MB `result` string (one line)",
     [] { return repeated(OutputStream::Stdout, QStringLiteral("done\n"), 1); },
     [](ExecutionResult& r) { r.result = QString(10'000'000, QLatin1Char('r')); }},
    {"10 MB error value and a 100,000-line traceback",
     [] { return repeated(OutputStream::Stdout, QStringLiteral("about to fail\n"), 1); },
     [](ExecutionResult& r) {
         QString tb = QStringLiteral("Traceback (most recent call last):\n");
         for (int i = 0; i < 100000; ++i)
             tb += QStringLiteral("  File \"Untitled 1\", line %1, in f\n").arg(i % 50 + 1);
         r.status = RunStatus::Error;
         r.error = RunError{QStringLiteral("ValueError"), QString(10'000'000, QLatin1Char('e')), tb};
     }},
};

// The record the Executor keeps: at most 4 MiB per stream (see Executor::Config).
QString capped(const QString& text)
{
    constexpr qsizetype keep = 4 << 20;
    if (text.size() <= keep)
        return text;
    return text.left(keep) + QStringLiteral("\n[output truncated: kept the first 4.0 MiB of %1 MB]\n")
                                 .arg(double(text.size()) / 1e6, 0, 'f', 1);
}

qint64 longestBlock(const QTextDocument* doc)
{
    qint64 longest = 0;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        longest = std::max<qint64>(longest, b.length());
    return longest;
}

// Longest block over every text document in the entry (output, result, code).
qint64 longestBlockIn(QWidget* entry)
{
    qint64 longest = 0;
    for (QPlainTextEdit* edit : entry->findChildren<QPlainTextEdit*>())
        longest = std::max(longest, longestBlock(edit->document()));
    return longest;
}

double rssMiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    return 0;
}

void spin(int ms)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

struct Outcome {
    qint64 worstGapMs = 0, totalMs = 0, longestBlock = 0;
    double rssDeltaMiB = 0;
};

Outcome runCase(const Case& c)
{
    RunNotebook notebook;
    notebook.resize(1000, 700);
    notebook.show();
    spin(100);
    const double rss0 = rssMiB();
    RunEntry* entry = notebook.addRunning(runningRun(QStringLiteral("bench"), QStringLiteral("print(...)")));
    Producer next = c.producer();
    ExecutionResult record = runResult(QStringLiteral("bench-run"), QStringLiteral("bench"), QStringLiteral("success"));
    if (c.finish)
        c.finish(record);
    // The producers' batches are made before they are measured too (shared, not copied).
    QList<Chunk> chunks;
    for (Chunk chunk = next(); !chunk.text.isEmpty(); chunk = next())
        chunks.append(chunk);
    QString stdoutText, stderrText;
    bool done = false;
    QTimer feeder;
    feeder.setInterval(0);
    qsizetype nextChunk = 0;
    QObject::connect(&feeder, &QTimer::timeout, [&] {
        if (nextChunk == chunks.size()) {
            feeder.stop();
            record.stdoutText = capped(stdoutText);
            record.stderrText = capped(stderrText);
            entry->run()->deliverResult(record);
            done = true;
            return;
        }
        const Chunk& chunk = chunks[nextChunk++];
        QString& kept = chunk.stream == OutputStream::Stdout ? stdoutText : stderrText;
        if (kept.size() < (5 << 20))
            kept += chunk.text; // shared while kept is empty
        entry->appendOutput(chunk.stream, chunk.text);
    });
    EventLoopProbe probe;
    QElapsedTimer total;
    total.start();
    probe.start();
    feeder.start();
    while (!done)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    notebook.showLatest();
    spin(300); // flushes, layout and the paints that follow
    notebook.grab();
    spin(50);
    Outcome o;
    o.worstGapMs = probe.worstGapMs();
    o.totalMs = total.elapsed();
    o.longestBlock = longestBlockIn(entry);
    o.rssDeltaMiB = rssMiB() - rss0;
    return o;
}

// The notebook filled from the history at dir the way the window does at start
// (RunController::loadHistory: previews), or from the whole runs (RunHistory::recent, what
// the start read before), then shown and painted; the median of 5, in ms.
double reloadMs(const QString& dir, bool wholeRuns)
{
    Database db(dir);
    if (!db.open())
        return -1;
    RunHistory history(db);
    std::vector<double> times;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer t;
        t.start();
        RunNotebook notebook;
        notebook.resize(1000, 700);
        if (wholeRuns) {
            for (const ExecutionResult& r : history.recent(50))
                notebook.addFinished(new Run(r));
        } else {
            RunController controller(nullptr, &notebook);
            controller.setHistory(&history);
            controller.loadHistory(50);
        }
        notebook.show();
        notebook.showLatest();
        QCoreApplication::processEvents();
        notebook.grab();
        QCoreApplication::processEvents();
        times.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QString only = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();

    std::printf("### Hostile output in the run notebook (offscreen, 1000x700; a 10 ms timer measures the "
                "event loop)\n\n");
    std::printf("| output | longest stall ms, median of %d (goal < 50) | worst of %d | total ms | longest text block (chars) | RSS growth MiB |\n",
                kRepeats, kRepeats);
    std::printf("|---|---:|---:|---:|---:|---:|\n");
    std::fflush(stdout);
    for (const Case& c : kCases) {
        if (!only.isEmpty() && !QString::fromUtf8(c.name).contains(only))
            continue;
        // The median of three, by stall: the figure is about the notebook, not the neighbours
        // this machine shares its two cores with.
        std::vector<Outcome> runs;
        for (int i = 0; i < kRepeats; ++i)
            runs.push_back(runCase(c));
        std::sort(runs.begin(), runs.end(), [](const Outcome& a, const Outcome& b) { return a.worstGapMs < b.worstGapMs; });
        const Outcome& o = runs[runs.size() / 2];
        std::printf("| %s | %lld | %lld | %lld | %lld | %.0f |\n", c.name, o.worstGapMs, runs.back().worstGapMs,
                    o.totalMs, o.longestBlock, o.rssDeltaMiB);
        std::fflush(stdout);
    }
    if (only.isEmpty() || only == QLatin1String("reload")) {
        QTemporaryDir small, hostile;
        if (!fillHistory(small.path(), 50, false) || !fillHistory(hostile.path(), 50, true))
            return 1;
        std::printf("\n### The notebook's reload at start: 50 runs from the history, shown and painted "
                    "(median of 5)\n\n");
        std::printf("| history | previews (RunController::loadHistory) ms | whole runs (as before) ms |\n|---|---:|---:|\n");
        std::printf("| 50 small runs | %.0f | %.0f |\n", reloadMs(small.path(), false), reloadMs(small.path(), true));
        std::fflush(stdout);
        std::printf("| 50 runs, each a 4 MiB line, a 1 MB stderr line, a 2 MB result | %.0f | %.0f |\n",
                    reloadMs(hostile.path(), false), reloadMs(hostile.path(), true));
    }
    return 0;
}
