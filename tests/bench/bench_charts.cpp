// Charts, side by side in one run (issue 15), printed as Markdown tables:
// 1. the wrapper (python3 wrapper.py, no sandbox) on the seed's sine wave with PNG only (no
//    chart_extract.py placed) and with PNG + extraction, and on a 1,000,000-point `chart` dict
//    built from lists, from numpy arrays, and the same snippet without the chart;
// 2. the app side: an extracted chart (the sine wave's, and a 4-axes composite) from its JSON to
//    the first paint, and its repaint, in ChartViewer offscreen; this process's peak RSS.
// Never a timed assertion: it prints figures. Run with QT_QPA_PLATFORM=offscreen.
#include "BenchStats.h"

#include "core/runtime/RuntimeProgram.h"
#include "core/runtime/WrapperResult.h"
#include "ui/charts/ChartViewer.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>
#include <sys/resource.h>

using namespace sandpad;

namespace {

QTextStream out(stdout);

struct WrapperRun {
    double ms = 0;
    QJsonObject extracted; // the first PNG's extracted chart
};

WrapperRun runWrapper(const QTemporaryDir& tmp, const QString& code, bool extraction, int index)
{
    const QString dir = tmp.filePath(QStringLiteral("run-%1").arg(index));
    QDir().mkpath(dir);
    const RuntimeProgram program = RuntimeProgram::build(
        RuntimeProgram::Input{Language::Python, code, QStringLiteral("bench.py"), dir, QStringLiteral("/usr/bin/python3"), {}});
    for (const SandboxFile& f : program.files) {
        if (!extraction && f.path.endsWith(QStringLiteral("/chart_extract.py")))
            continue; // the wrapper then saves PNGs only
        QFile file(f.path);
        if (!file.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(f.path));
        file.write(f.content);
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
    r.ms = bench::timeMs([&] {
        p.start(program.command.argv.first(), program.command.argv.mid(1));
        p.waitForFinished(300000);
    });
    QFile result(program.resultPath);
    if (!result.open(QIODevice::ReadOnly))
        qFatal("no result: %s", p.readAllStandardError().constData());
    QString problem;
    const auto parsed = WrapperResult::parse(result.readAll(), &problem);
    if (parsed)
        for (const WrapperChartRef& ref : parsed->charts)
            if (ref.kind == WrapperChartRef::Kind::Png && r.extracted.isEmpty())
                r.extracted = ref.spec;
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

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTemporaryDir tmp;
    const int repeats = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 5;
    int index = 0;

    const QString sine = readResource(QStringLiteral(":/sandpad/examples/sine_wave.py"));
    const QString million = QStringLiteral(
        "import numpy as np\nx = np.arange(1_000_000, dtype=float)\ny = np.sin(x * 0.0005)\n");
    struct Case {
        QString name, code;
        bool extraction;
    };
    const QList<Case> cases = {
        {QStringLiteral("sine wave, PNG only"), sine, false},
        {QStringLiteral("sine wave, PNG + extraction"), sine, true},
        {QStringLiteral("1,000,000 points: the arrays, no chart"), million, true},
        {QStringLiteral("1,000,000 points: `chart` from lists"),
         million + QStringLiteral("pts = list(zip(x.tolist(), y.tolist()))\n"
                                  "chart = {'type': 'line', 'title': 'm', 'elements': [{'label': 's', 'points': pts}]}\n"), true},
        {QStringLiteral("1,000,000 points: `chart` from numpy arrays"),
         million + QStringLiteral("chart = {'type': 'line', 'title': 'm', 'elements': [{'label': 's', 'points': np.column_stack([x, y])}]}\n"), true},
    };
    out << "Wrapper (`python3 wrapper.py`, no sandbox, a cold start each), wall ms, median of " << repeats
        << " interleaved (a first round discarded):\n\n"
        << "| case | median ms | p95 ms |\n|---|---:|---:|\n";
    QJsonObject sineChart;
    double pngOnly = 0;
    // Interleaved (case 1, 2, ..., 1, 2, ...): a load that comes and goes (other builds on the
    // machine) then weighs on every case alike.
    std::vector<std::vector<double>> times(size_t(cases.size()));
    for (const Case& c : cases)
        runWrapper(tmp, c.code, c.extraction, ++index); // warms the page cache
    for (int i = 0; i < repeats; ++i)
        for (qsizetype k = 0; k < cases.size(); ++k) {
            const Case& c = cases[k];
            const WrapperRun r = runWrapper(tmp, c.code, c.extraction, ++index);
            times[size_t(k)].push_back(r.ms);
            if (c.extraction && c.code == sine)
                sineChart = r.extracted;
        }
    for (qsizetype k = 0; k < cases.size(); ++k) {
        const Case& c = cases[k];
        const bench::Stats s = bench::stats(times[size_t(k)]);
        out << "| " << c.name << " | " << QString::number(s.median, 'f', 0) << " | " << QString::number(s.p95, 'f', 0);
        if (c.code == sine && !c.extraction)
            pngOnly = s.median;
        if (c.code == sine && c.extraction && pngOnly > 0)
            out << " (" << (s.median >= pngOnly ? "+" : "") << QString::number(100.0 * (s.median - pngOnly) / pngOnly, 'f', 1) << " %)";
        out << " |\n";
    }
    out << "\n";
    out.flush();
    if (sineChart.isEmpty()) {
        out << "The sine wave's figure was not extracted.\n";
        return 1;
    }

    // The app side: an extracted chart from JSON to the first paint, then repaints.
    const QJsonObject composite = runWrapper(tmp, QStringLiteral(
        "import matplotlib.pyplot as plt\nimport numpy as np\nfig, axs = plt.subplots(2, 2)\n"
        "x = np.linspace(0, 10, 2000)\naxs[0, 0].plot(x, np.sin(x))\naxs[0, 1].bar(['a', 'b', 'c'], [3, 1, 2])\n"
        "axs[1, 0].pie([1, 2, 3])\naxs[1, 1].boxplot([np.random.randn(500)])\n"), true, ++index).extracted;
    out << "ChartViewer (offscreen, 1200 x 800), ms, median of 20:\n\n"
        << "| chart | JSON to first paint | repaint |\n|---|---:|---:|\n";
    for (const auto& [name, spec] : {std::pair{QStringLiteral("sine wave (extracted)"), sineChart},
                                     std::pair{QStringLiteral("2 x 2 composite (extracted)"), composite}}) {
        if (spec.isEmpty()) {
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
                viewer.showSpec(spec);
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
    out << "\nPeak RSS of this process (the viewer, Qt, the charts above): "
        << QString::number(peakRssMiB(), 'f', 0) << " MiB\n";
    return 0;
}
