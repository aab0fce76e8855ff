// Chart viewer benchmark: a 1,000,000-point line chart in ChartViewer (QCustomPlot), offscreen.
// Measures building the plot from the chart dictionary, the first paint, repaints (replot) and
// pans (range move + replot); prints a Markdown table. Run with QT_QPA_PLATFORM=offscreen.
#include "ui/charts/ChartViewer.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QTextStream>
#include <algorithm>
#include <cmath>
#include <vector>

using namespace sandpad;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double msSince(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int n = argc > 1 ? std::max(1000, QString::fromLocal8Bit(argv[1]).toInt()) : 1000000;
    const int repeats = 20;

    QElapsedTimer t;
    t.start();
    QJsonArray points;
    for (int i = 0; i < n; ++i)
        points.append(QJsonArray{double(i), std::sin(i * 0.0005) + 0.1 * std::sin(i * 0.05)});
    const QJsonObject spec{{"type", "line"}, {"title", "1M points"},
                           {"elements", QJsonArray{QJsonObject{{"label", "signal"}, {"points", points}}}}};
    const double buildJson = msSince(t);

    ChartViewer viewer;
    viewer.resize(1200, 800);
    viewer.show();
    QCoreApplication::processEvents();

    t.restart();
    if (!viewer.showSpec(spec)) {
        QTextStream(stderr) << viewer.errorText() << "\n";
        return 1;
    }
    const double showSpec = msSince(t); // parse + setData + one replot
    QCustomPlot* plot = viewer.plot();

    // First paint of the widget (the replot above filled the buffer; this is what the screen pays).
    t.restart();
    viewer.repaint();
    const double firstPaint = msSince(t);

    std::vector<double> replots, pans, zooms;
    for (int i = 0; i < repeats; ++i) {
        t.restart();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        replots.push_back(msSince(t));
    }
    for (int i = 0; i < repeats; ++i) {
        t.restart();
        plot->xAxis->moveRange(plot->xAxis->range().size() * 0.01);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        pans.push_back(msSince(t));
    }
    for (int i = 0; i < repeats; ++i) {
        t.restart();
        plot->xAxis->scaleRange(i % 2 ? 1.0 / 0.85 : 0.85, plot->xAxis->range().center());
        plot->replot(QCustomPlot::rpImmediateRefresh);
        zooms.push_back(msSince(t));
    }
    viewer.resetView();
    // Zoomed far in: few points visible, the cost is finding them.
    std::vector<double> zoomedIn;
    plot->xAxis->setRange(n / 2.0, n / 2.0 + 2000);
    for (int i = 0; i < repeats; ++i) {
        t.restart();
        plot->xAxis->moveRange(50);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        zoomedIn.push_back(msSince(t));
    }

    QTextStream out(stdout);
    out << "### Chart viewer: " << n << "-point line chart (QCustomPlot, 1200x800, offscreen)\n\n";
    out << "| step | time (ms) |\n|---|---:|\n";
    auto row = [&out](const char* name, double ms) { out << "| " << name << " | " << QString::number(ms, 'f', 2) << " |\n"; };
    row("build the chart dict (QJsonArray, not the viewer)", buildJson);
    row("showSpec: validate + setData + first replot", showSpec);
    row("first paint (widget repaint)", firstPaint);
    row("repaint (replot), median of 20", median(replots));
    row("pan 1% (moveRange + replot), median of 20", median(pans));
    row("wheel-zoom step (scaleRange + replot), median of 20", median(zooms));
    row("pan while zoomed in (2000 points visible), median of 20", median(zoomedIn));
    out << "\nData points drawn: " << plot->graph(0)->dataCount() << "; adaptive sampling: "
        << (plot->graph(0)->adaptiveSampling() ? "on" : "off") << "\n";
    return 0;
}
