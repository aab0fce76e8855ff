// Charts, side by side in one run (issue 15), printed as Markdown tables:
// 1. the wrapper (python3 wrapper.py, no sandbox) on the seed's sine wave with PNG only (no
//    chart_extract.py placed) and with PNG + extraction, and on a 1,000,000-point `chart` dict
//    built from lists, from numpy arrays, and the same snippet without the chart: wall time and
//    the wrapper process's CPU time (which the machine's load inflates much less);
// 2. the app side: an extracted chart (the sine wave's, and a 4-axes composite) from its
//    validated columns to the first paint, and its repaint, in ChartViewer offscreen;
// 3. Run to first paint on a pooled local sandbox (Executor, then ChartViewer) for the
//    1,000,000-point chart from numpy arrays and from lists (Python) and from an array of pairs
//    (JavaScript), each against the same snippet without a chart; the repaint of that chart; and
//    the peak RSS of a child process that does what the app does for it (one pooled run, the
//    chart drawn), against the child without the chart;
// 4. the `--json` lists of a 1,000,000-point chart (only done when asked), written from the
//    series (ChartSpec::toJsonText) and through a QJsonObject tree.
// Never a timed assertion: it prints figures. Run with QT_QPA_PLATFORM=offscreen.
// `bench_charts --rss-child numpy|lists|none` is the child of 3.
#include "BenchStats.h"

#include "core/charts/ChartColumns.h"
#include "core/charts/ChartSpec.h"
#include "core/engine/Executor.h"
#include "core/providers/local/LocalProvider.h"
#include "core/providers/local/WrapperBytecode.h"
#include "core/run/ExecutionRequest.h"
#include "core/run/ExecutionResult.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/runtime/WrapperResult.h"
#include "ui/charts/ChartSpecAdapter.h"
#include "ui/charts/ChartViewer.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>
#include <sys/resource.h>
#include <cmath>
#include <cstdio>
#include <memory>

using namespace sandpad;

namespace {

QTextStream out(stdout);

// CPU time (user + system) of this process's waited-for children, ms.
double childCpuMs()
{
    rusage u{};
    getrusage(RUSAGE_CHILDREN, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

struct WrapperRun {
    double ms = 0;
    double cpuMs = 0; // the wrapper process's CPU time: what the load does not inflate much
    std::shared_ptr<const ChartSpec> extracted; // the first PNG's extracted chart, validated
};

WrapperRun runWrapper(const QTemporaryDir& tmp, const QString& code, bool extraction, int index)
{
    const QString dir = tmp.filePath(QStringLiteral("run-%1").arg(index));
    QDir().mkpath(dir);
    const RuntimeProgram program = RuntimeProgram::build(
        RuntimeProgram::Input{Language::Python, code, QStringLiteral("bench.py"), dir, QStringLiteral("/usr/bin/python3"), {}});
    for (SandboxFile f : program.files) {
        if (!extraction && f.path.endsWith(QStringLiteral("/chart_extract.py")))
            continue; // the wrapper then saves PNGs only
        for (int pass = 0; pass < 2; ++pass) {
            QFile file(f.path);
            if (!file.open(QIODevice::WriteOnly))
                qFatal("cannot write %s", qPrintable(f.path));
            file.write(f.content);
            // A support module's bytecode beside it, as a sandbox has it (LocalSandbox), so that
            // no case pays for compiling chart_extract.py.
            const auto pyc = pass == 0 && f.path.endsWith(QStringLiteral(".py")) && !f.path.endsWith(QStringLiteral("/wrapper.py"))
                                 ? localsandbox::WrapperBytecode::lookup(QStringLiteral("/usr/bin/python3"), f.content, f.path)
                                 : std::nullopt;
            if (!pyc)
                break;
            f = SandboxFile{f.path + u'c', *pyc, f.mode};
        }
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("SANDPAD_RESULT_FD"));
    env.insert(QStringLiteral("MPLCONFIGDIR"), tmp.filePath(QStringLiteral("mpl")));
    for (auto it = program.command.env.cbegin(); it != program.command.env.cend(); ++it)
        env.insert(it.key(), it.value());
    QProcess p;
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(program.command.cwd);
    WrapperRun r;
    const double cpu0 = childCpuMs();
    r.ms = bench::timeMs([&] {
        p.start(program.command.argv.first(), program.command.argv.mid(1));
        p.waitForFinished(300000);
    });
    r.cpuMs = childCpuMs() - cpu0;
    QFile result(program.resultPath);
    if (!result.open(QIODevice::ReadOnly))
        qFatal("no result: %s", p.readAllStandardError().constData());
    QString problem;
    const auto parsed = WrapperResult::parse(result.readAll(), &problem);
    QFile columnsFile(program.outDir + QStringLiteral("/chart-columns"));
    const ChartColumns columns(columnsFile.open(QIODevice::ReadOnly) ? columnsFile.readAll() : QByteArray());
    if (parsed)
        for (const WrapperChartRef& ref : parsed->charts)
            if (ref.kind == WrapperChartRef::Kind::Png && !r.extracted && !ref.spec.isEmpty()) {
                ChartParseResult spec = ChartSpec::parse(ref.spec, &columns);
                if (spec.ok())
                    r.extracted = std::make_shared<const ChartSpec>(std::move(*spec.spec));
            }
    return r;
}

QString readResource(const QString& path)
{
    RuntimeProgram::wrapperSource(Language::Python); // registers the resources
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

double peakRssMiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

// This process's own peak RSS: VmHWM (ru_maxrss keeps the parent's high-water mark across exec).
double highWaterMiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (status.open(QIODevice::ReadOnly))
        for (const QByteArray& line : status.readAll().split('\n'))
            if (line.startsWith("VmHWM:"))
                return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    return peakRssMiB();
}

const QString kMillion = QStringLiteral(
    "import numpy as np\nx = np.arange(1_000_000, dtype=float)\ny = np.sin(x * 0.0005)\n");
const QString kMillionNumpy = kMillion + QStringLiteral(
    "chart = {'type': 'line', 'title': 'm', 'elements': [{'label': 's', 'points': np.column_stack([x, y])}]}\n");
const QString kMillionListsOnly = kMillion + QStringLiteral("pts = list(zip(x.tolist(), y.tolist()))\n");
const QString kMillionLists = kMillionListsOnly + QStringLiteral(
    "chart = {'type': 'line', 'title': 'm', 'elements': [{'label': 's', 'points': pts}]}\n");

// The same million points in JavaScript: built as an array of [x, y] pairs.
const QString kMillionJsListsOnly = QStringLiteral(
    "const pts = new Array(1000000);\nfor (let i = 0; i < pts.length; i++) pts[i] = [i, Math.sin(i * 0.0005)];\n");
const QString kMillionJsLists = kMillionJsListsOnly + QStringLiteral(
    "chart = {type: 'line', title: 'm', elements: [{label: 's', points: pts}]};\n");

// What the app does from Run to the first paint: the run (validated, kept as columns), the chart
// adapted, drawn and painted. ms, or -1 when the run failed or gave no chart.
double runToFirstPaint(Executor& executor, LocalProvider& provider, ChartViewer& viewer, const QString& code, bool expectChart,
                       Language language = Language::Python)
{
    provider.pool().waitUntilFull(120000); // the user reads the output between runs
    double ms = 0;
    bool ok = true;
    ms = bench::timeMs([&] {
        const ExecutionResult r = executor.run(ExecutionRequest::adHoc(language, code));
        ok = r.status == RunStatus::Success;
        if (!ok)
            std::fprintf(stderr, "run failed: %s %s\n", qPrintable(r.reason), qPrintable(r.error ? r.error->value : r.stderrText.left(300)));
        if (expectChart) {
            ok = ok && !r.charts.isEmpty() && r.charts[0].spec;
            if (ok) {
                viewer.showChart(ChartSpecAdapter::fromSpec(r.charts[0].spec));
                viewer.repaint();
            }
        }
    });
    viewer.clear();
    return ok ? ms : -1;
}

// The child of section 3: one pooled run of the snippet, its chart drawn; prints its peak RSS.
int rssChild(const QString& which)
{
    auto provider = std::make_shared<LocalProvider>();
    provider->setPoolSize(1);
    provider->startPool();
    Executor executor(provider, nullptr);
    ChartViewer viewer;
    viewer.resize(1200, 800);
    viewer.show();
    QCoreApplication::processEvents();
    provider->pool().waitUntilFull(120000);
    const double before = highWaterMiB();
    const bool chart = which != u"none";
    const double ms = runToFirstPaint(executor, *provider, viewer, which == u"numpy" ? kMillionNumpy : chart ? kMillionLists : kMillion, chart);
    std::printf("%.1f %.1f %.0f\n", highWaterMiB(), before, ms);
    return ms < 0 ? 1 : 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc > 2 && QByteArray(argv[1]) == "--rss-child")
        return rssChild(QString::fromLocal8Bit(argv[2]));
    QTemporaryDir tmp;
    const int repeats = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 5;
    int index = 0;

    const QString sine = readResource(QStringLiteral(":/sandpad/examples/sine_wave.py"));
    const QString& million = kMillion;
    struct Case {
        QString name, code;
        bool extraction;
    };
    const QList<Case> cases = {
        {QStringLiteral("sine wave, PNG only"), sine, false},
        {QStringLiteral("sine wave, PNG + extraction"), sine, true},
        {QStringLiteral("1,000,000 points: the arrays, no chart"), million, true},
        {QStringLiteral("1,000,000 points: the arrays and the lists of pairs, no chart"), kMillionListsOnly, true},
        {QStringLiteral("1,000,000 points: `chart` from lists"), kMillionLists, true},
        {QStringLiteral("1,000,000 points: `chart` from numpy arrays"), kMillionNumpy, true},
    };
    out << "Wrapper (`python3 wrapper.py`, no sandbox, a cold start each), wall ms and the wrapper process's CPU ms "
           "(user + system), median of " << repeats << " interleaved (a first round discarded):\n\n"
        << "| case | median ms | p95 ms | CPU median ms | CPU p95 ms |\n|---|---:|---:|---:|---:|\n";
    std::shared_ptr<const ChartSpec> sineChart;
    double pngOnly = 0, noChart = 0, noChartLists = 0;
    // Interleaved (case 1, 2, ..., 1, 2, ...): a load that comes and goes (other builds on the
    // machine) then weighs on every case alike.
    std::vector<std::vector<double>> times(size_t(cases.size())), cpuTimes(size_t(cases.size()));
    for (const Case& c : cases)
        runWrapper(tmp, c.code, c.extraction, ++index); // warms the page cache
    for (int i = 0; i < repeats; ++i)
        for (qsizetype k = 0; k < cases.size(); ++k) {
            const Case& c = cases[k];
            const WrapperRun r = runWrapper(tmp, c.code, c.extraction, ++index);
            times[size_t(k)].push_back(r.ms);
            cpuTimes[size_t(k)].push_back(r.cpuMs);
            if (c.extraction && c.code == sine)
                sineChart = r.extracted;
        }
    double pngOnlyCpu = 0;
    QStringList notes;
    const auto percent = [](double v, double base) {
        return QStringLiteral(" (%1%2 %)").arg(v >= base ? "+" : "").arg(100.0 * (v - base) / base, 0, 'f', 1);
    };
    for (qsizetype k = 0; k < cases.size(); ++k) {
        const Case& c = cases[k];
        const bench::Stats s = bench::stats(times[size_t(k)]);
        const bench::Stats cpu = bench::stats(cpuTimes[size_t(k)]);
        out << "| " << c.name << " | " << QString::number(s.median, 'f', 0);
        if (c.code == sine && !c.extraction) {
            pngOnly = s.median;
            pngOnlyCpu = cpu.median;
        }
        if (c.code == sine && c.extraction && pngOnly > 0)
            out << percent(s.median, pngOnly);
        out << " | " << QString::number(s.p95, 'f', 0) << " | " << QString::number(cpu.median, 'f', 0);
        if (c.code == sine && c.extraction && pngOnlyCpu > 0)
            out << percent(cpu.median, pngOnlyCpu) << " (goal < +10 %)";
        out << " | " << QString::number(cpu.p95, 'f', 0);
        out << " |\n";
        if (c.code == million)
            noChart = s.median;
        if (c.code == kMillionListsOnly)
            noChartLists = s.median;
        if (c.code == kMillionNumpy && noChart > 0)
            notes << QStringLiteral("the chart from numpy arrays adds %1 ms to the arrays").arg(s.median - noChart, 0, 'f', 0);
        if (c.code == kMillionLists && noChartLists > 0)
            notes << QStringLiteral("the chart from lists adds %1 ms to the lists").arg(s.median - noChartLists, 0, 'f', 0);
    }
    out << "\n";
    if (!notes.isEmpty())
        out << "Wall medians: " << notes.join(QStringLiteral("; ")) << " (goal < 500 ms).\n\n";
    out.flush();
    if (!sineChart) {
        out << "The sine wave's figure was not extracted.\n";
        return 1;
    }

    // The app side: an extracted chart from its validated columns to the first paint, then repaints.
    const std::shared_ptr<const ChartSpec> composite = runWrapper(tmp, QStringLiteral(
        "import matplotlib.pyplot as plt\nimport numpy as np\nfig, axs = plt.subplots(2, 2)\n"
        "x = np.linspace(0, 10, 2000)\naxs[0, 0].plot(x, np.sin(x))\naxs[0, 1].bar(['a', 'b', 'c'], [3, 1, 2])\n"
        "axs[1, 0].pie([1, 2, 3])\naxs[1, 1].boxplot([np.random.randn(500)])\n"), true, ++index).extracted;
    out << "ChartViewer (offscreen, 1200 x 800), ms, median of 20:\n\n"
        << "| chart | to first paint | repaint |\n|---|---:|---:|\n";
    for (const auto& [name, spec] : {std::pair{QStringLiteral("sine wave (extracted)"), sineChart},
                                     std::pair{QStringLiteral("2 x 2 composite (extracted)"), composite}}) {
        if (!spec) {
            out << "| " << name << " | not extracted | |\n";
            continue;
        }
        std::vector<double> first, repaint;
        for (int i = 0; i < 20; ++i) {
            ChartViewer viewer;
            viewer.resize(1200, 800);
            viewer.show();
            QCoreApplication::processEvents();
            first.push_back(bench::timeMs([&] {
                viewer.showChart(ChartSpecAdapter::fromSpec(spec));
                viewer.repaint();
            }));
            repaint.push_back(bench::timeMs([&] {
                if (viewer.children().isEmpty())
                    viewer.plot()->replot(QCustomPlot::rpImmediateRefresh);
                else
                    for (ChartViewer* child : viewer.children())
                        child->plot()->replot(QCustomPlot::rpImmediateRefresh);
                viewer.repaint();
            }));
        }
        out << "| " << name << " | " << QString::number(bench::stats(first).median, 'f', 1) << " | "
            << QString::number(bench::stats(repaint).median, 'f', 1) << " |\n";
    }
    out << "\n";
    out.flush();

    // 3: Run to first paint, pooled, interleaved; then the peak RSS of a child doing it once.
    {
        auto provider = std::make_shared<LocalProvider>();
        provider->setPoolSize(1);
        provider->startPool();
        Executor executor(provider, nullptr);
        ChartViewer viewer;
        viewer.resize(1200, 800);
        viewer.show();
        QCoreApplication::processEvents();
        struct PaintCase {
            QString name, code;
            bool chart;
            Language language = Language::Python;
            qsizetype without = -1; // the case of the same snippet without the chart
        };
        provider->pool().warmLanguage(Language::JavaScript);
        const QList<PaintCase> paintCases = {
            {QStringLiteral("the arrays, no chart (the run alone)"), kMillion, false},
            {QStringLiteral("the arrays and the lists of pairs, no chart"), kMillionListsOnly, false},
            {QStringLiteral("`chart` from numpy arrays"), kMillionNumpy, true, Language::Python, 0},
            {QStringLiteral("`chart` from lists"), kMillionLists, true, Language::Python, 1},
            {QStringLiteral("JavaScript: the array of pairs, no chart"), kMillionJsListsOnly, false, Language::JavaScript},
            {QStringLiteral("JavaScript: `chart` from the array of pairs"), kMillionJsLists, true, Language::JavaScript, 4},
        };
        std::vector<std::vector<double>> paintTimes(size_t(paintCases.size()));
        const auto measure = [&](const PaintCase& c, qsizetype k) {
            const double ms = runToFirstPaint(executor, *provider, viewer, c.code, c.chart, c.language);
            if (k >= 0)
                paintTimes[size_t(k)].push_back(ms);
        };
        for (const PaintCase& c : paintCases)
            measure(c, -1); // warm-up round
        for (int i = 0; i < repeats; ++i)
            for (qsizetype k = 0; k < paintCases.size(); ++k)
                measure(paintCases[k], k);
        out << "Run to first paint of 1,000,000 points, pooled local sandbox (Executor, then ChartViewer 1200 x 800 "
               "offscreen), ms, median of " << repeats << " interleaved:\n\n"
            << "| case | median ms | p95 ms | the chart adds (median ms; goal < 500) |\n"
            << "|---|---:|---:|---:|\n";
        for (qsizetype k = 0; k < paintCases.size(); ++k) {
            const PaintCase& c = paintCases[k];
            const bench::Stats st = bench::stats(paintTimes[size_t(k)]);
            out << "| " << c.name << " | " << QString::number(st.median, 'f', 0) << (c.chart ? " (goal < 1000)" : "") << " | "
                << QString::number(st.p95, 'f', 0) << " | ";
            if (c.without >= 0)
                out << QString::number(st.median - bench::stats(paintTimes[size_t(c.without)]).median, 'f', 0);
            out << " |\n";
        }
        out << "\n";
        // The 1,000,000-point chart drawn: its repaint (adaptive sampling), median of 20.
        {
            const ExecutionResult r = executor.run(ExecutionRequest::adHoc(Language::Python, kMillionNumpy));
            if (!r.charts.isEmpty() && r.charts[0].spec) {
                std::vector<double> first, repaint;
                for (int i = 0; i < 20; ++i) {
                    first.push_back(bench::timeMs([&] {
                        viewer.showChart(ChartSpecAdapter::fromSpec(r.charts[0].spec));
                        viewer.repaint();
                    }));
                    repaint.push_back(bench::timeMs([&] {
                        viewer.plot()->replot(QCustomPlot::rpImmediateRefresh);
                        viewer.repaint();
                    }));
                    viewer.clear();
                }
                out << "The 1,000,000-point chart in ChartViewer (1200 x 800 offscreen), median of 20: from its validated "
                       "columns to the first paint " << QString::number(bench::stats(first).median, 'f', 1)
                    << " ms, repaint " << QString::number(bench::stats(repaint).median, 'f', 1) << " ms.\n\n";
            }
        }
        out.flush();
    }
    {
        const auto child = [](const char* which) {
            QProcess p;
            p.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--rss-child"), QString::fromLatin1(which)});
            p.waitForFinished(300000);
            return QString::fromLocal8Bit(p.readAllStandardOutput()).trimmed().split(u' ');
        };
        const QStringList with = child("numpy"), lists = child("lists"), without = child("none");
        out << "Peak RSS of a process doing what the app does (pooled run, chart drawn), MiB:\n\n"
            << "| case | peak RSS | before the run |\n|---|---:|---:|\n"
            << "| 1,000,000-point chart from numpy arrays (goal < 300) | " << with.value(0) << " | " << with.value(1) << " |\n"
            << "| 1,000,000-point chart from lists (goal < 300) | " << lists.value(0) << " | " << lists.value(1) << " |\n"
            << "| the same snippet without the chart | " << without.value(0) << " | " << without.value(1) << " |\n\n";
    }

    // 4: the `--json` lists of a million points, built only when asked.
    {
        std::vector<double> xs(1'000'000), ys(1'000'000);
        for (size_t i = 0; i < xs.size(); ++i) {
            xs[i] = double(i);
            ys[i] = std::sin(double(i) * 0.0005);
        }
        ChartColumns columns;
        const QJsonObject chart{{"type", "line"}, {"title", "m"},
                                {"elements", QJsonArray{QJsonObject{{"label", "s"}, {"x", columns.add(xs)}, {"y", columns.add(ys)}}}}};
        std::shared_ptr<const ChartSpec> spec;
        const double parseMs = bench::timeMs([&] {
            ChartParseResult r = ChartSpec::parse(chart, &columns);
            spec = std::make_shared<const ChartSpec>(std::move(*r.spec));
        });
        qsizetype treeBytes = 0, textBytes = 0;
        const double textMs = bench::timeMs([&] { textBytes = spec->toJsonText().size(); });
        const double treeMs = bench::timeMs([&] { treeBytes = QJsonDocument(spec->toJson()).toJson(QJsonDocument::Compact).size(); });
        out << "1,000,000 points in the app: validating the binary columns " << QString::number(parseMs, 'f', 1)
            << " ms. The `--json` lists (only when asked): written from the series (`ChartSpec::toJsonText`, what `--json` "
               "does) " << QString::number(textMs, 'f', 0) << " ms, " << QString::number(double(textBytes) / 1e6, 'f', 1)
            << " MB; through a QJsonObject tree (before) " << QString::number(treeMs, 'f', 0) << " ms, "
            << QString::number(double(treeBytes) / 1e6, 'f', 1) << " MB" << (textBytes == treeBytes ? "" : " (SIZES DIFFER)")
            << " (ratio " << QString::number(treeMs / std::max(textMs, 0.001), 'f', 1) << "x)\n";
    }
    out << "\nPeak RSS of this process (all of the above): " << QString::number(peakRssMiB(), 'f', 0) << " MiB\n";
    return 0;
}
