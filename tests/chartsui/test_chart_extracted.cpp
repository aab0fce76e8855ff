// Figures with an extracted chart: the pane shows them interactive by default with a
// Picture/Interactive toggle (the PNG kept), the thumbnail says which, both export; the viewer
// draws what extraction adds (composite grids, horizontal and grouped bars, twin axes, log scales,
// error bars, colours, custom tick labels).
#include "TestImages.h"

#include "core/charts/ChartColumns.h"
#include "core/charts/ChartSpec.h"
#include "core/run/ExecutionResult.h"
#include "ui/charts/ChartPane.h"
#include "ui/charts/ChartSpecAdapter.h"
#include "ui/charts/ChartViewer.h"
#include "ui/charts/PngView.h"
#include "ui/charts/SymlogScale.h"

#include <qcustomplot.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QListWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace sandpad;

namespace {

QByteArray makePng()
{
    QImage image(64, 48, QImage::Format_RGB32);
    image.fill(Qt::white);
    return pngBytes(image);
}

QJsonObject obj(const char* json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

RunChart figure(const QJsonObject& extracted)
{
    RunChart c;
    c.kind = RunChart::Kind::Png;
    c.png = makePng();
    if (!extracted.isEmpty() && !c.setSpec(extracted))
        qFatal("the extracted chart does not parse");
    return c;
}

// "\u0023" is a "#": moc (Qt 6.4) skips a file with a "#" in a raw string of several lines.
const char* const kLine = R"({"type": "line", "title": "Sine", "x_lim": [0, 10], "y_scale": "log",
    "elements": [{"label": "a", "points": [[1, 1], [2, 10], [3, 100]], "color": "\u0023d62728", "mode": "lines",
                  "error_y": [0.5, 1, [2, 3]]}]})";

} // namespace

class TestChartExtracted : public QObject {
    Q_OBJECT
private slots:
    void extractedFigureShowsInteractiveWithToggle()
    {
        ChartPane pane;
        pane.resize(700, 500);
        pane.setCharts({figure(obj(kLine)), figure(QJsonObject())});
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        // Interactive by default, the toggle offered.
        QVERIFY(pane.showsInteractive());
        QCOMPARE(pane.currentView(), pane.chartViewer());
        QVERIFY(pane.interactiveButton()->isVisible());
        QVERIFY(pane.interactiveButton()->isChecked());
        // The thumbnails say which is which.
        QVERIFY(pane.thumbnailStrip()->item(0)->text().contains(QStringLiteral("interactive")));
        QVERIFY(pane.thumbnailStrip()->item(1)->text().contains(QStringLiteral("picture")));
        // What was extracted is drawn: the colour, the log scale, the view, the error bars.
        QCustomPlot* plot = pane.chartViewer()->plot();
        QCOMPARE(plot->graph(0)->pen().color(), QColor("#d62728"));
        QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(plot->xAxis->range().lower, 0.0);
        QCOMPARE(plot->xAxis->range().upper, 10.0);
        QCPErrorBars* errors = nullptr;
        for (int i = 0; i < plot->plottableCount(); ++i)
            errors = errors ? errors : qobject_cast<QCPErrorBars*>(plot->plottable(i));
        QVERIFY(errors);
        QCOMPARE(errors->data()->at(2).errorMinus, 2.0);
        QCOMPARE(errors->data()->at(2).errorPlus, 3.0);

        // Picture: the PNG the run made, then back.
        QTest::mouseClick(pane.pictureButton(), Qt::LeftButton);
        QVERIFY(!pane.showsInteractive());
        QCOMPARE(pane.currentView(), pane.pngView());
        QVERIFY(pane.pngView()->hasImage());
        QTemporaryDir dir;
        QVERIFY(pane.pngView()->save(dir.filePath("picture.png")));
        QTest::mouseClick(pane.interactiveButton(), Qt::LeftButton);
        QVERIFY(pane.showsInteractive());
        QCOMPARE(pane.currentView(), pane.chartViewer());
        QVERIFY(pane.chartViewer()->exportPng(dir.filePath("chart.png"), 400, 300));
        QVERIFY(pane.chartViewer()->exportPdf(dir.filePath("chart.pdf"), 400, 300));
        QVERIFY(QImage(dir.filePath("chart.png")).width() == 400);

        // A figure without an extracted chart is a picture, no toggle.
        pane.selectChart(1);
        QCOMPARE(pane.currentView(), pane.pngView());
        QVERIFY(!pane.interactiveButton()->isVisible());
        QVERIFY(!pane.showsInteractive());
        // The choice is kept per figure while the pane shows the run.
        pane.selectChart(0);
        QVERIFY(pane.showsInteractive());
    }

    void compositeIsAGridOfCharts()
    {
        ChartViewer viewer;
        viewer.resize(800, 600);
        viewer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&viewer));
        QVERIFY(viewer.showSpec(obj(R"({"type": "composite_chart", "title": "Four", "rows": 2, "columns": 2, "elements": [
            {"type": "line", "elements": [{"label": "a", "points": [[0, 1], [1, 2]]}], "layout": {"row": 0, "column": 0, "column_span": 2}},
            {"type": "pie", "elements": [{"label": "x", "angle": 90}, {"label": "y", "angle": 270}], "layout": {"row": 1, "column": 0}},
            {"type": "box_and_whisker", "elements": [{"label": "b", "min": 1, "first_quartile": 2, "median": 3, "third_quartile": 4, "max": 5}],
             "layout": {"row": 1, "column": 1}}]})")));
        QCOMPARE(viewer.children().size(), 3);
        QCOMPARE(viewer.children()[1]->chart().type, ChartData::Type::Pie);
        // The first spans the top row: as wide as the two below together.
        QTRY_VERIFY(viewer.children()[0]->width() > viewer.children()[1]->width() * 3 / 2);
        const QImage image = viewer.renderImage(600, 400);
        QCOMPARE(image.size(), QSize(600, 400));
        QTemporaryDir dir;
        QVERIFY(viewer.exportPng(dir.filePath("c.png"), 600, 400));
        QVERIFY(viewer.exportPdf(dir.filePath("c.pdf"), 600, 400));
        QVERIFY(QFileInfo(dir.filePath("c.pdf")).size() > 0);
        viewer.clear();
        QVERIFY(viewer.children().isEmpty());
    }

    void horizontalGroupedBarsAndTwinAxes()
    {
        ChartViewer viewer;
        QVERIFY(viewer.showSpec(obj(R"({"type": "bar", "orientation": "horizontal", "bar_mode": "grouped",
            "elements": [{"label": "a", "group": "g", "value": 2}, {"label": "b", "group": "g", "value": 2},
                         {"label": "a", "group": "h", "value": 5}]})")));
        auto* bars = qobject_cast<QCPBars*>(viewer.plot()->plottable(0));
        QVERIFY(bars);
        QCOMPARE(bars->keyAxis(), viewer.plot()->yAxis); // categories up the side
        QVERIFY(bars->barsGroup());                       // side by side, not stacked
        QVERIFY(!bars->barAbove());
        QCOMPARE(bars->data()->size(), 2);                // two equal bars are two bars
        QVERIFY(viewer.plot()->xAxis->range().upper >= 5);

        QVERIFY(viewer.showSpec(obj(R"({"type": "line", "y2_label": "feet", "elements": [
            {"label": "m", "points": [[1, 1], [2, 2]]},
            {"label": "ft", "points": [[1, 300], [2, 100]], "y_axis": "right", "mode": "markers"}]})")));
        QCPGraph* right = viewer.plot()->graph(1);
        QCOMPARE(right->valueAxis(), viewer.plot()->yAxis2);
        QVERIFY(viewer.plot()->yAxis2->visible());
        QCOMPARE(viewer.plot()->yAxis2->label(), QStringLiteral("feet"));
        QCOMPARE(right->lineStyle(), QCPGraph::lsNone);
        QVERIFY(viewer.plot()->yAxis2->range().upper >= 300);
        // Cleared for the next chart.
        QVERIFY(viewer.showSpec(obj(R"({"type": "line", "elements": [{"label": "m", "points": [[1, 1]]}]})")));
        QVERIFY(!viewer.plot()->yAxis2->visible());
    }

    // symlog is drawn as symlog: linear within ±linthresh, a decade per unit outside; the axis
    // and the tooltips name the real values.
    void symlogIsDrawnAsSymlog()
    {
        ChartViewer viewer;
        viewer.resize(600, 400);
        QVERIFY(viewer.showSpec(obj(R"({"type": "line", "y_scale": "symlog", "y_linthresh": 10,
            "elements": [{"label": "s", "points": [[0, -1000], [1, -10], [2, 0], [3, 5], [4, 10], [5, 100], [6, 1000]],
                          "error_y": [null, null, null, null, null, [0, 900], null]}]})")));
        QCustomPlot* plot = viewer.plot();
        QCPGraph* graph = plot->graph(0);
        const std::vector<double> drawn{-3, -1, 0, 0.5, 1, 2, 3};
        for (int i = 0; i < 7; ++i)
            QCOMPARE(graph->data()->at(i)->value, drawn[size_t(i)]);
        QVERIFY(qSharedPointerDynamicCast<SymlogTicker>(plot->yAxis->ticker()));
        plot->replot();
        const QVector<QString> labels = plot->yAxis->tickVectorLabels();
        QVERIFY2(labels.contains("1000") && labels.contains("-1000") && labels.contains("0") && labels.contains("10"),
                 qPrintable(QStringList(labels.cbegin(), labels.cend()).join(", ")));
        QVERIFY(viewer.pointDescription(graph, 6).contains(QStringLiteral("y: 1000")));
        QVERIFY(viewer.pointDescription(graph, 3).contains(QStringLiteral("y: 5")));
        // The error bar from 100 up to 1000 ends at the drawn 1000.
        QCPErrorBars* errors = nullptr;
        for (int i = 0; i < plot->plottableCount(); ++i)
            errors = errors ? errors : qobject_cast<QCPErrorBars*>(plot->plottable(i));
        QVERIFY(errors);
        QCOMPARE(errors->data()->at(5).errorPlus, 1.0);
        QCOMPARE(errors->data()->at(5).errorMinus, 0.0);
        // Symlog x and symlog horizontal bars alike; the scale's own round trip.
        QVERIFY(viewer.showSpec(obj(R"({"type": "bar", "orientation": "horizontal", "x_scale": "symlog",
            "elements": [{"label": "a", "value": 100}, {"label": "b", "value": -0.5}]})")));
        QCPBars* bars = qobject_cast<QCPBars*>(viewer.plot()->plottable(0));
        QVERIFY(bars);
        QCOMPARE(bars->data()->at(0)->value, 3.0);
        QVERIFY(viewer.pointDescription(bars, 0).contains(QStringLiteral(": 100")));
        const SymlogScale scale{2};
        for (double v : {-5000.0, -2.0, -0.25, 0.0, 1.5, 2.0, 3.0, 1e9})
            QCOMPARE(scale.inverse(scale.forward(v)), v);
    }

    // A run's chart is drawn from the columns it was validated into, shared with the run: the
    // graph gets them once, nothing is copied on the way.
    void drawsTheRunsColumnsWithoutCopies()
    {
        std::vector<double> xs(5000), ys(5000);
        for (size_t i = 0; i < xs.size(); ++i) {
            xs[i] = double(i);
            ys[i] = double(i % 17);
        }
        ChartColumns columns;
        const QJsonObject chart{{"type", "line"}, {"title", "cols"},
                                {"elements", QJsonArray{QJsonObject{{"label", "s"}, {"x", columns.add(xs)}, {"y", columns.add(ys)}}}}};
        RunChart run;
        run.kind = RunChart::Kind::Interactive;
        QString error;
        QVERIFY2(run.setSpec(chart, &columns, &error), qPrintable(error));
        const ChartData data = ChartSpecAdapter::fromSpec(run.spec);
        QCOMPARE(data.series[0].xs, &run.spec->series()[0].xs); // shared, not copied
        QVERIFY(data.series[0].keys.isEmpty());
        ChartPane pane;
        pane.setCharts({run});
        pane.selectChart(0);
        QCPGraph* graph = pane.chartViewer()->plot()->graph(0);
        QCOMPARE(graph->dataCount(), 5000);
        QCOMPARE(graph->data()->at(4999)->value, double(4999 % 17));
        QVERIFY(graph->adaptiveSampling());
    }

    void customTickLabels()
    {
        ChartViewer viewer;
        QVERIFY(viewer.showSpec(obj(R"({"type": "line", "x_ticks": [0, 5, 10], "x_tick_labels": ["low", "mid", "high"],
            "y_ticks": [0, 1], "y_tick_labels": ["0", "1"],
            "elements": [{"label": "a", "points": [[0, 0], [10, 1]]}]})")));
        auto ticker = viewer.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(5.0), QStringLiteral("mid"));
        // Plain numbers are left to the viewer's own ticks (they follow zooming).
        QVERIFY(!viewer.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>());
    }
};

QTEST_MAIN(TestChartExtracted)
#include "test_chart_extracted.moc"
