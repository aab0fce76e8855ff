// Benchmark: pre-started (pooled) local sandboxes against cold ones, side by side in one run
// (ratios, so the machine's load cancels out as far as possible). Prints a Markdown table.
// Usage: bench_pool [runs] [--only=print,chart,lines,latency,burst,shown]   (default: all; 50 runs for print(1)
// and console.log(1); the chart uses runs/5 (at least 5), or `runs` when it is all that is asked)
#include "BenchStats.h"

#include "core/engine/Executor.h"
#include "core/providers/local/LocalProvider.h"
#include "core/providers/local/LocalSandbox.h"
#include "core/run/ExecutionRequest.h"
#include "core/run/Run.h"
#include "core/sandbox/RunControl.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryFile>
#include <QProcess>
#include <QStandardPaths>
#include <QThread>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

using namespace sandpad;

namespace {

using bench::Stats;
using bench::stats;

void runProcess(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(program, args);
    p.waitForFinished(60000);
    if (p.exitCode() != 0)
        std::fprintf(stderr, "baseline failed: %s\n", p.readAllStandardError().constData());
}

QStringList plainBwrap(const QStringList& command)
{
    QStringList a{QStringLiteral("--unshare-all"), QStringLiteral("--die-with-parent"), QStringLiteral("--new-session"),
                  QStringLiteral("--ro-bind"), QStringLiteral("/usr"), QStringLiteral("/usr"),
                  QStringLiteral("--symlink"), QStringLiteral("usr/lib"), QStringLiteral("/lib"),
                  QStringLiteral("--symlink"), QStringLiteral("usr/lib64"), QStringLiteral("/lib64"),
                  QStringLiteral("--symlink"), QStringLiteral("usr/bin"), QStringLiteral("/bin"),
                  QStringLiteral("--ro-bind"), QStringLiteral("/etc/ld.so.cache"), QStringLiteral("/etc/ld.so.cache"),
                  QStringLiteral("--proc"), QStringLiteral("/proc"), QStringLiteral("--dev"), QStringLiteral("/dev"),
                  QStringLiteral("--tmpfs"), QStringLiteral("/tmp"), QStringLiteral("--")};
    return a + command;
}

void row(const char* what, const Stats& s, const Stats& base)
{
    std::printf("| %s | %.1f | %.1f | %.2f |\n", what, s.median, s.p95, base.median > 0 ? s.median / base.median : 0.0);
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? std::max(5, atoi(argv[1])) : 50;
    const QByteArray only = argc > 2 && QByteArray(argv[2]).startsWith("--only=") ? QByteArray(argv[2]).mid(7) : QByteArray();
    auto want = [&](const char* section) { return only.isEmpty() || only.split(',').contains(section); };
    auto coldProvider = std::make_shared<LocalProvider>();
    coldProvider->setPoolSize(0);
    auto pooledProvider = std::make_shared<LocalProvider>();
    pooledProvider->setPoolSize(1);
    pooledProvider->startPool();
    pooledProvider->warmLanguage(Language::JavaScript);
    Executor cold(coldProvider, nullptr);
    Executor pooled(pooledProvider, nullptr);
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    int notPooled = 0;

    auto execRun = [&](Executor& executor, Language lang, const QString& code) {
        const auto r = executor.run(ExecutionRequest::adHoc(lang, code));
        if (r.status != RunStatus::Success)
            std::fprintf(stderr, "run failed: %s %s\n", qPrintable(r.reason), qPrintable(r.stderrText.left(300)));
    };
    // The pool is ready (the user reads the output between runs); only request -> result counts.
    auto pooledRun = [&](Language lang, const QString& code) {
        pooledProvider->pool().waitUntilFull(120000);
        const int before = pooledProvider->pooledCreates();
        const double ms = bench::timeMs([&] { execRun(pooled, lang, code); });
        if (pooledProvider->pooledCreates() == before)
            ++notPooled;
        return ms;
    };
    execRun(cold, Language::Python, QStringLiteral("print(1)")); // font cache, page cache

    // 1 and 3: print(1) / console.log(1), interleaved so drift hits every column alike.
    std::vector<double> plainPy, bwrapPy, coldPy, warmPy, coldJs, warmJs;
    for (int i = 0; i < (want("print") ? n : 0); ++i) {
        plainPy.push_back(bench::timeMs([] { runProcess(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral("print(1)")}); }));
        bwrapPy.push_back(bench::timeMs([] { runProcess(QStringLiteral("bwrap"), plainBwrap({QStringLiteral("/usr/bin/python3"), QStringLiteral("-c"), QStringLiteral("print(1)")})); }));
        coldPy.push_back(bench::timeMs([&] { execRun(cold, Language::Python, QStringLiteral("print(1)")); }));
        warmPy.push_back(pooledRun(Language::Python, QStringLiteral("print(1)")));
        if (!node.isEmpty()) {
            coldJs.push_back(bench::timeMs([&] { execRun(cold, Language::JavaScript, QStringLiteral("console.log(1)")); }));
            warmJs.push_back(pooledRun(Language::JavaScript, QStringLiteral("console.log(1)")));
        }
    }

    // 2: the seed's sine-wave chart.
    const QString sine = QStringLiteral(
        "import matplotlib.pyplot as plt\nimport numpy as np\nx = np.linspace(0, 10, 100)\ny = np.sin(x)\n"
        "plt.figure(figsize=(10, 6))\nplt.plot(x, y)\nplt.title('Sine Wave')\nplt.xlabel('x')\nplt.ylabel('sin(x)')\n");
    std::vector<double> coldSine, warmSine;
    const int chartRuns = !want("chart") ? 0 : only == "chart" ? n : std::max(5, n / 5);
    for (int i = 0; i < chartRuns; ++i) {
        coldSine.push_back(bench::timeMs([&] { execRun(cold, Language::Python, sine); }));
        warmSine.push_back(pooledRun(Language::Python, sine));
    }

    // 4: 1,000,000 printed lines through the Executor (pooled) vs the same to /dev/null in a bare
    // local sandbox (same bwrap policy, no wrapper, no Executor).
    const QString lines = QStringLiteral("for i in range(1000000):\n    print(i)\n");
    std::vector<double> execLines, nullLines;
    for (int i = 0; i < (want("lines") ? 3 : 0); ++i) {
        execLines.push_back(pooledRun(Language::Python, lines));
        nullLines.push_back(bench::timeMs([&] {
            RunControl control;
            SandboxOptions options;
            options.coldOnly = true;
            auto sandbox = coldProvider->create(options, control);
            SandboxCommand command;
            command.argv = {coldProvider->pythonPath(), QStringLiteral("-c"),
                            QStringLiteral("import sys\nsys.stdout = open('/dev/null', 'w')\n") + lines};
            command.timeoutMs = 120000;
            sandbox->run(command, {}, control);
            sandbox->destroy();
        }));
    }

    // 5: output latency: a line printed after a quiet spell, from the print in the sandbox to the
    // Executor's output callback (the wall clock is shared with the sandbox). Python's stdout is
    // block buffered and flushed by the wrapper's thread; flush=True shows the pipeline alone.
    auto outputLatency = [&](Language lang, const QString& code) {
        pooledProvider->pool().waitUntilFull(120000);
        double latency = -1;
        pooled.run(ExecutionRequest::adHoc(lang, code), [&](OutputStream, const QString& text) {
            if (latency >= 0)
                return;
            const double printedMs = text.section(u'\n', 0, 0).toDouble();
            const double nowMs = std::chrono::duration<double, std::milli>(
                                     std::chrono::system_clock::now().time_since_epoch()).count();
            latency = nowMs - printedMs;
        });
        return latency;
    };
    std::vector<double> latePrint, latePrintFlushed, lateLog;
    for (int i = 0; i < (want("latency") ? 10 : 0); ++i) {
        latePrint.push_back(outputLatency(Language::Python, QStringLiteral(
            "import time\ntime.sleep(0.2)\nprint(repr(time.time() * 1000))\ntime.sleep(0.3)\n")));
        latePrintFlushed.push_back(outputLatency(Language::Python, QStringLiteral(
            "import time\ntime.sleep(0.2)\nprint(repr(time.time() * 1000), flush=True)\ntime.sleep(0.3)\n")));
        if (!node.isEmpty())
            lateLog.push_back(outputLatency(Language::JavaScript, QStringLiteral(
                "setTimeout(() => {\n  for (let i = 0; i < 3; ++i) console.log(String(performance.timeOrigin + performance.now()));\n"
                "  const t = Date.now();\n  while (Date.now() - t < 300) {}\n}, 200);\n")));
    }

    // 6: a burst: 10 runs back to back (Shift+Enter through ten cells, or Run All), pool ready
    // at the start; then the time the pool takes to be full again.
    std::vector<double> burst, refill, burstBase;
    int burstPooled = 0, burstTotal = 0;
    for (int i = 0; i < (want("burst") ? 10 : 0); ++i) // the same run, pool ready before each
        burstBase.push_back(pooledRun(Language::Python, QStringLiteral("print(1)")));
    for (int round = 0; round < (want("burst") ? 3 : 0); ++round) {
        pooledProvider->pool().waitUntilFull(120000);
        QThread::msleep(3000); // idle: let a grown pool shrink back first
        pooledProvider->pool().waitUntilFull(120000);
        for (int i = 0; i < 10; ++i) {
            const int before = pooledProvider->pooledCreates();
            burst.push_back(bench::timeMs([&] { execRun(pooled, Language::Python, QStringLiteral("print(1)")); }));
            burstPooled += pooledProvider->pooledCreates() > before ? 1 : 0;
            ++burstTotal;
        }
        refill.push_back(bench::timeMs([&] { pooledProvider->pool().waitUntilFull(120000); }));
    }

    // 7: when the notebook shows the result (Run::validated) against when the run is recorded
    // (finished: cleanup confirmed, ledger row written), pooled, interleaved.
    std::vector<double> shownPrint, donePrint, shownSine, doneSine;
    auto timedShown = [&](Language lang, const QString& code, std::vector<double>& shown, std::vector<double>& done) {
        pooledProvider->pool().waitUntilFull(120000);
        QElapsedTimer clock;
        clock.start();
        Run* run = pooled.start(ExecutionRequest::adHoc(lang, code));
        double shownMs = -1;
        QEventLoop loop;
        QObject::connect(run, &Run::validated, &loop, [&] { shownMs = clock.nsecsElapsed() / 1e6; });
        QObject::connect(run, &Run::finished, &loop, &QEventLoop::quit);
        if (!run->isFinished())
            loop.exec();
        const double doneMs = clock.nsecsElapsed() / 1e6;
        shown.push_back(shownMs < 0 ? doneMs : shownMs);
        done.push_back(doneMs);
        delete run;
    };
    for (int i = 0; i < (want("shown") ? n : 0); ++i) {
        timedShown(Language::Python, QStringLiteral("print(1)"), shownPrint, donePrint);
        if (i % 5 == 0)
            timedShown(Language::Python, sine, shownSine, doneSine);
    }

    const Stats sp = stats(plainPy), sb = stats(bwrapPy), cp = stats(coldPy), wp = stats(warmPy),
                cj = stats(coldJs), wj = stats(warmJs), cs = stats(coldSine), ws = stats(warmSine),
                el = stats(execLines), nl = stats(nullLines);
    if (want("print") || want("chart") || want("lines")) {
        std::printf("### Pre-started (pooled) vs cold local runs (%d runs each for print/console.log, %d for the chart, "
                    "3 for 1,000,000 lines; interleaved; pooled runs measured with the pool ready)\n\n",
                    want("print") ? n : 0, chartRuns);
        std::printf("| what | median ms | p95 ms | ratio |\n|---|---:|---:|---:|\n");
    }
    if (want("print")) {
        std::printf("| `python3 -c 'print(1)'` (no sandbox) | %.1f | %.1f | 1.00 |\n", sp.median, sp.p95);
        row("plain `bwrap … python3 -c 'print(1)'`", sb, sp);
        row("Executor `print(1)`, cold (ratio to plain bwrap; goal <= 1.3)", cp, sb);
        row("Executor `print(1)`, **pooled** (goal < 30 ms)", wp, sp);
    }
    if (want("chart")) {
        std::printf("| sine-wave chart, cold | %.1f | %.1f | 1.00 |\n", cs.median, cs.p95);
        row("sine-wave chart, **pooled** (goal < 200 ms)", ws, cs);
    }
    if (want("print") && !node.isEmpty()) {
        std::printf("| `console.log(1)`, cold | %.1f | %.1f | 1.00 |\n", cj.median, cj.p95);
        row("`console.log(1)`, **pooled**", wj, cj);
    }
    if (want("lines")) {
        std::printf("| 1,000,000 lines to /dev/null, bare local sandbox | %.1f | %.1f | 1.00 |\n", nl.median, nl.p95);
        row("1,000,000 printed lines through the Executor, pooled (goal ratio <= 1.5)", el, nl);
    }
    if (want("latency")) {
        const Stats lp = stats(latePrint), lf = stats(latePrintFlushed), ll = stats(lateLog);
        std::printf("\n### Output latency after a quiet spell (10 pooled runs each; print in the sandbox -> "
                    "Executor output callback)\n\n| what | median ms | p95 ms |\n|---|---:|---:|\n");
        std::printf("| Python `print()` (block-buffered stdout; the wrapper flushes every 16 ms) | %.1f | %.1f |\n", lp.median, lp.p95);
        std::printf("| Python `print(..., flush=True)` | %.1f | %.1f |\n", lf.median, lf.p95);
        if (!node.isEmpty())
            std::printf("| JavaScript `console.log()` followed by busy work | %.1f | %.1f |\n", ll.median, ll.p95);
    }
    if (want("burst")) {
        const Stats bs = stats(burst), rs = stats(refill), base = stats(burstBase);
        const double maxMs = burst.empty() ? 0 : *std::max_element(burst.begin(), burst.end());
        std::printf("\n### A burst: 10 Python `print(1)` runs back to back, pool ready at the start (3 rounds)\n\n"
                    "| what | value |\n|---|---:|\n");
        std::printf("| pooled `print(1)` with the pool ready before each run, median ms | %.1f |\n", base.median);
        std::printf("| burst median ms | %.1f |\n| burst max ms (goal <= 3x the pooled median) | %.1f (%.1fx) |\n",
                    bs.median, maxMs, base.median > 0 ? maxMs / base.median : 0.0);
        std::printf("| runs that got a pre-started sandbox | %d of %d |\n", burstPooled, burstTotal);
        std::printf("| after the burst, until the pool is full again, median ms | %.1f |\n", rs.median);
    }
    // A warm Jupyter kernel (python3-ipykernel; no isolation at all), after the sandboxes.
    QString jupyterPrint = QStringLiteral("skipped"), jupyterSine = QStringLiteral("skipped");
    double jupyterPrintMs = 0, jupyterSineMs = 0;
    if (want("shown")) {
        QTemporaryFile sineFile;
        sineFile.open();
        sineFile.write(sine.toUtf8());
        sineFile.flush();
        QProcess jupyter;
        jupyter.start(QStringLiteral("/usr/bin/python3"),
                      {QStringLiteral(SANDPAD_SOURCE_DIR "/tests/bench/bench_session_jupyter.py"), QString::number(n),
                       sineFile.fileName()});
        jupyter.waitForFinished(300000);
        const QJsonObject j = QJsonDocument::fromJson(jupyter.readAllStandardOutput().trimmed().split('\n').last()).object();
        auto numbers = [](const QJsonArray& a) {
            std::vector<double> v;
            for (const auto& x : a)
                v.push_back(x.toDouble());
            return v;
        };
        if (j.contains(QStringLiteral("print"))) {
            jupyterPrintMs = stats(numbers(j.value(QStringLiteral("print")).toArray())).median;
            jupyterSineMs = stats(numbers(j.value(QStringLiteral("sine")).toArray())).median;
            jupyterPrint = QString::number(jupyterPrintMs, 'f', 1);
            jupyterSine = QString::number(jupyterSineMs, 'f', 1);
        } else {
            std::fprintf(stderr, "Jupyter column skipped: %s\n",
                         qPrintable(j.value(QStringLiteral("skip")).toString(QString::fromUtf8(jupyter.readAllStandardError().left(400)))));
        }
    }
    if (want("shown")) {
        const Stats a = stats(shownPrint), b = stats(donePrint), c = stats(shownSine), d = stats(doneSine);
        std::printf("\n### Result shown (validated) vs run recorded (cleanup confirmed, cost known), pooled "
                    "(%zu / %zu runs)\n\n| what | shown median ms | recorded median ms | shown p95 | recorded p95 |\n"
                    "|---|---:|---:|---:|---:|\n", shownPrint.size(), shownSine.size());
        std::printf("| `print(1)` | %.1f | %.1f | %.1f | %.1f |\n", a.median, b.median, a.p95, b.p95);
        std::printf("| sine-wave chart | %.1f | %.1f | %.1f | %.1f |\n", c.median, d.median, c.p95, d.p95);
        std::printf("\n### Pooled sandbox (result shown) vs a warm Jupyter kernel (python3-ipykernel, inline backend; "
                    "execute -> idle)\n\n| what | pooled shown median ms | Jupyter median ms | ratio | goal |\n"
                    "|---|---:|---:|---:|---:|\n");
        std::printf("| `print(1)` | %.1f | %s | %.2f | <= 1.0 |\n", a.median, qPrintable(jupyterPrint),
                    jupyterPrintMs > 0 ? a.median / jupyterPrintMs : 0.0);
        std::printf("| sine-wave chart | %.1f | %s | %.2f | <= 0.8 |\n", c.median, qPrintable(jupyterSine),
                    jupyterSineMs > 0 ? c.median / jupyterSineMs : 0.0);
    }
    if (notPooled > 0)
        std::printf("\n(%d of the \"pooled\" runs did not get a pre-started sandbox)\n", notPooled);
    return 0;
}
