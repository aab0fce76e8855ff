// ChartViewer draws each kind of chart dictionary with the right plottables, axes and ranges.
#include "ui/charts/ChartViewer.h"

#include <qcustomplot.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace sandpad;

namespace {

QJsonObject parse(const char* json)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(json), &err);
    if (err.error != QJsonParseError::NoError)
        qFatal("bad test json: %s", qPrintable(err.errorString()));
    return doc.object();
}

QJsonObject bigLine(int n)
{
    QJsonArray points;
    for (int i = 0; i < n; ++i)
        points.append(QJsonArray{double(i), std::sin(i * 0.001)});
    return QJsonObject{{"type", "line"}, {"title", "big"},
                       {"elements", QJsonArray{QJsonObject{{"label", "sin"}, {"points", points}}}}};
}

} // namespace

class TestChartViewer : public QObject {
    Q_OBJECT
private slots:
    // The legend has its own row between the title and the plot: it never covers data, and a
    // chart without a legend gives that row back to the plot.
    void legendSitsAboveThePlot()
    {
        ChartViewer v;
        v.resize(600, 400);
        QVERIFY(v.showSpec(parse(R"({"type":"bar","title":"Stacked","elements":[
            {"label":"Q1","group":"a","value":3},{"label":"Q1","group":"b","value":2},
            {"label":"Q2","group":"a","value":4},{"label":"Q2","group":"b","value":5}]})")));
        QCustomPlot* p = v.plot();
        p->replot();
        QVERIFY(p->legend->visible());
        QCOMPARE(p->legend->itemCount(), 2);
        const QRect legend = p->legend->outerRect(), plotArea = p->axisRect()->rect();
        QVERIFY2(legend.bottom() <= plotArea.top(), "the legend is above the axes, not on them");
        QVERIFY(legend.left() > 0 && legend.right() < p->width() - 1); // centred, not full width
        const int heightWithLegend = plotArea.height();

        QVERIFY(v.showSpec(parse(R"({"type":"line","title":"One","elements":[{"label":"Series 1","points":[[0,1],[1,2]]}]})")));
        p->replot();
        QVERIFY(!p->legend->visible());
        QVERIFY(p->axisRect()->rect().height() > heightWithLegend);
    }

    void lineNumeric()
    {
        ChartViewer v;
        QVERIFY(v.showSpec(parse(R"({"type":"line","title":"Two lines","x_label":"t","y_label":"v",
            "elements":[{"label":"a","points":[[0,1],[1,2],[2,3],[3,2],[4,5]]},
                        {"label":"b","points":[[0,0],[2,1],[4,-1]]}]})")));
        QCustomPlot* p = v.plot();
        QVERIFY(v.errorText().isEmpty());
        QCOMPARE(p->graphCount(), 2);
        QCOMPARE(p->graph(0)->dataCount(), 5);
        QCOMPARE(p->graph(1)->dataCount(), 3);
        QCOMPARE(p->graph(0)->name(), QStringLiteral("a"));
        QCOMPARE(p->graph(0)->lineStyle(), QCPGraph::lsLine);
        QVERIFY(!p->xAxis->ticker().dynamicCast<QCPAxisTickerDateTime>());
        QVERIFY(!p->xAxis->ticker().dynamicCast<QCPAxisTickerText>());
        // All the data, with 2 % air each side so the end points are whole.
        QCOMPARE(p->xAxis->range().lower, 0.0 - 0.08);
        QCOMPARE(p->xAxis->range().upper, 4.0 + 0.08);
        QVERIFY(p->yAxis->range().lower < -1.0 && p->yAxis->range().upper > 5.0);
        QCOMPARE(p->xAxis->label(), QStringLiteral("t"));
        QCOMPARE(p->yAxis->label(), QStringLiteral("v"));
        QVERIFY(p->legend->visible());
        QCOMPARE(p->legend->itemCount(), 2);
        QVERIFY(p->interactions().testFlag(QCP::iRangeDrag));
        QVERIFY(p->interactions().testFlag(QCP::iRangeZoom));
        // The title element sits above the axis rect.
        auto* title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
        QVERIFY(title);
        QCOMPARE(title->text(), QStringLiteral("Two lines"));
    }

    void unsortedLineKeepsOrder()
    {
        ChartViewer v;
        QVERIFY(v.showSpec(parse(R"({"type":"line","elements":[{"label":"circle",
            "points":[[1,0],[0,1],[-1,0],[0,-1],[1,0]]}]})")));
        QCOMPARE(v.plot()->graphCount(), 0);
        QCOMPARE(v.plot()->plottableCount(), 1);
        auto* curve = qobject_cast<QCPCurve*>(v.plot()->plottable(0));
        QVERIFY(curve);
        QCOMPARE(curve->dataCount(), 5);
    }

    void lineCategorical()
    {
        ChartViewer v;
        QVERIFY(v.showSpec(parse(R"({"type":"line","elements":[
            {"label":"x","points":[["mon",1],["tue",3],["wed",2]]},
            {"label":"y","points":[["tue",1],["thu",4]]}]})")));
        auto ticker = v.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().size(), 4);
        QCOMPARE(ticker->ticks().value(0), QStringLiteral("mon"));
        QCOMPARE(ticker->ticks().value(3), QStringLiteral("thu"));
        QCOMPARE(v.plot()->graph(1)->data()->at(0)->key, 1.0); // "tue" is category 1
        QCOMPARE(v.plot()->graph(1)->data()->at(1)->key, 3.0);
        QCOMPARE(v.plot()->xAxis->range().lower, -0.5);
        QCOMPARE(v.plot()->xAxis->range().upper, 3.5);
    }

    void lineDatetime()
    {
        ChartViewer v;
        QVERIFY(v.showSpec(parse(R"({"type":"line","x_scale":"datetime","elements":[
            {"label":"price","points":[["2024-01-01",10],["2024-01-02T12:00:00Z",11],[1704326400000,12]]}]})")));
        auto ticker = v.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerDateTime>();
        QVERIFY(ticker);
        QCPGraph* g = v.plot()->graph(0);
        QCOMPARE(g->dataCount(), 3);
        QCOMPARE(g->data()->at(0)->key, 1704067200.0);          // seconds since the epoch, UTC
        QCOMPARE(g->data()->at(1)->key, 1704067200.0 + 86400 + 43200);
        QCOMPARE(g->data()->at(2)->key, 1704326400.0);
        const double air = (1704326400.0 - 1704067200.0) * 0.02;
        QCOMPARE(v.plot()->xAxis->range().lower, 1704067200.0 - air);
        QCOMPARE(v.plot()->xAxis->range().upper, 1704326400.0 + air);
        const QString tip = v.pointDescription(g, 0);
        QVERIFY2(tip.contains("2024-01-01") && tip.contains("price") && tip.contains("10"), qPrintable(tip));
    }

    void scatterSmallAndLarge()
    {
        ChartViewer v;
        QVERIFY(v.showSpec(parse(R"({"type":"scatter","elements":[{"label":"s","points":[[3,1],[1,2],[2,0.5]]}]})")));
        QCPGraph* g = v.plot()->graph(0);
        QCOMPARE(g->lineStyle(), QCPGraph::lsNone);
        QCOMPARE(g->scatterStyle().shape(), QCPScatterStyle::ssDisc);
        QCOMPARE(g->dataCount(), 3);
        QCOMPARE(g->data()->at(0)->key, 1.0); // sorted for QCPGraph
        QVERIFY(v.plot()->xAxis->range().lower < 1.0 && v.plot()->xAxis->range().upper > 3.0);

        QJsonArray points;
        for (int i = 0; i < 50000; ++i)
            points.append(QJsonArray{std::fmod(i * 7.31, 100.0), double(i % 97)});
        QVERIFY(v.showSpec(QJsonObject{{"type", "scatter"},
                                       {"elements", QJsonArray{QJsonObject{{"label", "many"}, {"points", points}}}}}));
        QCOMPARE(v.plot()->graph(0)->dataCount(), 50000);
        QCOMPARE(v.plot()->graph(0)->scatterStyle().shape(), QCPScatterStyle::ssDot);
        QCOMPARE(v.plot()->graph(0)->lineStyle(), QCPGraph::lsNone);
    }

    void stackedBars()
    {
        ChartViewer v;
        QVERIFY(v.showSpec(parse(R"({"type":"bar","title":"Sales","elements":[
            {"label":"Q1","group":"north","value":10},{"label":"Q2","group":"north","value":20},
            {"label":"Q1","group":"south","value":5},{"label":"Q3","group":"south","value":7},
            {"label":"Q3","group":"north","value":1}]})")));
        QCustomPlot* p = v.plot();
        QCOMPARE(p->plottableCount(), 2);
        auto* north = qobject_cast<QCPBars*>(p->plottable(0));
        auto* south = qobject_cast<QCPBars*>(p->plottable(1));
        QVERIFY(north && south);
        QCOMPARE(north->name(), QStringLiteral("north"));
        QCOMPARE(north->dataCount(), 3);
        QCOMPARE(south->dataCount(), 2);
        QCOMPARE(south->barBelow(), north); // stacked, not side by side
        QCOMPARE(north->barAbove(), south);
        auto ticker = p->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(2), QStringLiteral("Q3"));
        QCOMPARE(p->yAxis->range().lower, 0.0);
        QVERIFY(p->yAxis->range().upper >= 20.0); // the tallest stack: Q2 = 20, Q1 = 15
        QCOMPARE(p->xAxis->range().lower, -0.5);
        QCOMPARE(p->xAxis->range().upper, 2.5);
    }

    void pieAndBox()
    {
        ChartViewer v;
        QVERIFY2(v.showSpec(parse(R"({"type":"pie","title":"Share","elements":[
            {"label":"a","angle":1},{"label":"b","angle":3}]})")), qPrintable(v.errorText()));
        QCOMPARE(v.plot()->plottableCount(), 2);
        QVERIFY(!v.plot()->xAxis->visible());
        QVERIFY(v.pointDescription(v.plot()->plottable(1), 0).contains("75.0%"));
        QVERIFY2(v.showSpec(parse(R"({"type":"box_and_whisker","elements":[
            {"label":"g1","min":0,"first_quartile":1,"median":2,"third_quartile":3,"max":4,"outliers":[9]},
            {"label":"g2","min":1,"first_quartile":2,"median":3,"third_quartile":4,"max":5,"outliers":[]}]})")),
                 qPrintable(v.errorText()));
        QVERIFY(v.plot()->xAxis->visible());
        auto* box = qobject_cast<QCPStatisticalBox*>(v.plot()->plottable(0));
        QVERIFY(box);
        QCOMPARE(box->dataCount(), 2);
        QVERIFY(v.plot()->yAxis->range().upper >= 9.0);
    }

    void invalidSpecShowsError_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("mention");
        QTest::newRow("no type") << QByteArray(R"({"elements":[]})") << "type";
        QTest::newRow("unknown type") << QByteArray(R"({"type":"radar","elements":[]})") << "radar";
        QTest::newRow("elements not list") << QByteArray(R"({"type":"line","elements":5})") << "elements";
        QTest::newRow("y not number") << QByteArray(R"({"type":"line","elements":[{"label":"a","points":[[1,"x"]]}]})") << "points[0]";
        QTest::newRow("bad pair") << QByteArray(R"({"type":"scatter","elements":[{"label":"a","points":[[1,2,3]]}]})") << "points[0]";
        QTest::newRow("bad date") << QByteArray(R"({"type":"line","x_scale":"datetime","elements":[{"label":"a","points":[["yesterday",1]]}]})") << "points[0]";
        QTest::newRow("bar value") << QByteArray(R"({"type":"bar","elements":[{"label":"a","group":"g","value":"high"}]})") << "value";
    }

    void invalidSpecShowsError()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, mention);
        ChartViewer v;
        QVERIFY(v.showSpec(parse(R"({"type":"line","elements":[{"label":"a","points":[[0,1],[1,2]]}]})")));
        QVERIFY(!v.showSpec(parse(json.constData())));
        QVERIFY(!v.errorText().isEmpty());
        QVERIFY2(v.errorText().contains(mention), qPrintable(v.errorText()));
        QVERIFY(!v.hasChart());
        QCOMPARE(v.plot()->plottableCount(), 0);
        auto* stack = v.findChild<QStackedWidget*>();
        QVERIFY(stack);
        auto* label = qobject_cast<QLabel*>(stack->currentWidget());
        QVERIFY(label);
        QCOMPARE(label->text(), v.errorText());
        // A valid chart afterwards draws again.
        QVERIFY(v.showSpec(parse(R"({"type":"line","elements":[{"label":"a","points":[[0,1]]}]})")));
        QVERIFY(v.errorText().isEmpty());
        QCOMPARE(stack->currentWidget(), v.plot());
    }

    void legendClickTogglesSeries()
    {
        ChartViewer v;
        v.resize(800, 600);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QVERIFY(v.showSpec(parse(R"({"type":"line","elements":[
            {"label":"first","points":[[0,1],[1,2]]},{"label":"second","points":[[0,2],[1,1]]}]})")));
        QCustomPlot* p = v.plot();
        p->replot();
        QCPAbstractLegendItem* item = p->legend->itemWithPlottable(p->graph(1));
        QVERIFY(item);
        const QPoint center = item->rect().center();
        QSignalSpy spy(&v, &ChartViewer::seriesVisibilityChanged);
        QTest::mouseClick(p, Qt::LeftButton, Qt::NoModifier, center);
        QCOMPARE(spy.count(), 1);
        QVERIFY(!p->graph(1)->visible());
        QVERIFY(p->graph(0)->visible());
        QVERIFY(item->font().strikeOut());
        QTest::mouseClick(p, Qt::LeftButton, Qt::NoModifier, center);
        QVERIFY(p->graph(1)->visible());
        QVERIFY(!item->font().strikeOut());
    }

    void hoverTooltipAndPanZoomReset()
    {
        ChartViewer v;
        v.resize(800, 600);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QVERIFY(v.showSpec(parse(R"({"type":"line","x_label":"day","elements":[
            {"label":"temp","points":[[0,0],[10,10],[20,5]]}]})")));
        QCustomPlot* p = v.plot();
        p->replot();
        const QPointF at(p->xAxis->coordToPixel(10), p->yAxis->coordToPixel(10));
        const QString tip = v.toolTipAt(at + QPointF(2, 1));
        QVERIFY2(tip.contains("temp") && tip.contains("day: 10") && tip.contains("y: 10"), qPrintable(tip));
        QVERIFY(v.toolTipAt(QPointF(p->xAxis->coordToPixel(1), p->yAxis->coordToPixel(9))).isEmpty());

        // Drag pans, wheel zooms, reset view restores.
        const QCPRange before = p->xAxis->range();
        const QPoint start = p->axisRect()->rect().center();
        QTest::mousePress(p, Qt::LeftButton, Qt::NoModifier, start);
        QMouseEvent move(QEvent::MouseMove, QPointF(start + QPoint(100, 0)), p->mapToGlobal(QPointF(start + QPoint(100, 0))),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(p, &move);
        QTest::mouseRelease(p, Qt::LeftButton, Qt::NoModifier, start + QPoint(100, 0));
        QVERIFY(p->xAxis->range().lower < before.lower);
        QWheelEvent wheel(QPointF(start), p->mapToGlobal(QPointF(start)), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(p, &wheel);
        QVERIFY(p->xAxis->range().size() < before.size());
        v.resetView();
        QCOMPARE(p->xAxis->range().lower, before.lower);
        QCOMPARE(p->xAxis->range().upper, before.upper);
    }

    void exportPngAndPdf()
    {
        QTemporaryDir dir;
        ChartViewer v;
        QVERIFY(v.showSpec(parse(R"({"type":"bar","title":"Export","elements":[{"label":"a","group":"g","value":3}]})")));
        const QString png = dir.filePath("chart.png");
        QVERIFY(v.exportPng(png, 400, 300, 192));
        QImage image(png);
        QCOMPARE(image.size(), QSize(800, 600)); // 400x300 logical at 2x (192 dpi)
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 192);
        const QString pdf = dir.filePath("chart.pdf");
        QVERIFY(v.exportPdf(pdf, 400, 300));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
        QVERIFY(f.size() > 1000);
        QVERIFY(!v.exportPng(dir.filePath("bad.png"), 0, 300, 96));
    }

    void paletteFollowsDarkMode()
    {
        ChartViewer v;
        QPalette dark;
        dark.setColor(QPalette::Base, QColor(30, 30, 30));
        dark.setColor(QPalette::Text, QColor(230, 230, 230));
        dark.setColor(QPalette::WindowText, QColor(220, 220, 220));
        v.setPalette(dark);
        QVERIFY(v.showSpec(parse(R"({"type":"line","title":"t","elements":[{"label":"a","points":[[0,1],[1,2]]}]})")));
        QCOMPARE(v.plot()->xAxis->tickLabelColor(), QColor(230, 230, 230));
        QCOMPARE(v.plot()->xAxis->basePen().color(), QColor(220, 220, 220));
        const QImage img = v.renderImage(200, 150);
        QCOMPARE(img.pixelColor(2, 2).rgb(), QColor(30, 30, 30).rgb());
    }

    void largeLineUsesPlainSortedGraph()
    {
        ChartViewer v;
        QVERIFY(v.showSpec(bigLine(200000)));
        QCPGraph* g = v.plot()->graph(0);
        QCOMPARE(g->dataCount(), 200000);
        QCOMPARE(g->scatterStyle().shape(), QCPScatterStyle::ssNone);
        QVERIFY(g->adaptiveSampling());
        QCOMPARE(v.plot()->xAxis->range().upper, 199999.0 + 199999.0 * 0.02);
    }
};

QTEST_MAIN(TestChartViewer)
#include "test_chart_viewer.moc"
