// ChartPane lists a run's charts as thumbnails and shows the selected one in the right viewer;
// PngView loads, zooms, saves.
#include "TestImages.h"

#include "ui/charts/ChartPane.h"
#include "ui/charts/ChartViewer.h"
#include "ui/charts/PngView.h"

#include <qcustomplot.h>

#include <QJsonArray>
#include <QListWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace sandpad;

namespace {

QByteArray makePng(int w, int h)
{
    QImage image(w, h, QImage::Format_RGB32);
    image.fill(Qt::white);
    for (int x = 0; x < w; ++x)
        image.setPixel(x, h / 2, qRgb(255, 0, 0));
    return pngBytes(image);
}

RunChart pngChart(int w, int h)
{
    RunChart c;
    c.kind = RunChart::Kind::Png;
    c.png = makePng(w, h);
    return c;
}

RunChart specChart(const QJsonObject& spec)
{
    RunChart c;
    c.kind = RunChart::Kind::Interactive;
    c.setSpec(spec); // an invalid one leaves no chart: the pane says so
    return c;
}

QJsonObject lineSpec()
{
    return QJsonObject{{"type", "line"}, {"title", "Line"},
                       {"elements", QJsonArray{QJsonObject{{"label", "a"},
                                                           {"points", QJsonArray{QJsonArray{0, 1}, QJsonArray{1, 3}}}}}}};
}

} // namespace

class TestChartPane : public QObject {
    Q_OBJECT
private slots:
    void pngViewLoadsZoomsSaves()
    {
        PngView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.setPng(makePng(1000, 800)));
        QCOMPARE(view.image().size(), QSize(1000, 800));
        QVERIFY(view.fitMode());
        QVERIFY(view.zoom() < 1.0); // fit shrinks a big figure into the pane
        QVERIFY(view.displayedSize().width() <= 400);
        view.actualSize();
        QCOMPARE(view.zoom(), 1.0);
        const qreal dpr = view.devicePixelRatioF();
        QCOMPARE(view.displayedSize(), QSize(qRound(1000 / dpr), qRound(800 / dpr)));
        view.zoomIn();
        QCOMPARE(view.zoom(), 1.25);
        view.zoomOut();
        QCOMPARE(view.zoom(), 1.0);
        // Ctrl+wheel zooms; a plain wheel scrolls.
        QWidget* viewport = view.findChild<QScrollArea*>()->viewport();
        QWheelEvent wheel(QPointF(50, 50), viewport->mapToGlobal(QPointF(50, 50)), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(viewport, &wheel);
        QCOMPARE(view.zoom(), 1.25);
        view.fitToPane();
        QVERIFY(view.fitMode());
        // A small figure is not blown up by fit.
        QVERIFY(view.setPng(makePng(100, 50)));
        QCOMPARE(view.zoom(), 1.0);

        QTemporaryDir dir;
        QVERIFY(view.save(dir.filePath("out.png")));
        QCOMPARE(QImage(dir.filePath("out.png")).size(), QSize(100, 50));
        QVERIFY(!view.setPng("not a png"));
        QVERIFY(!view.hasImage());
    }

    void paneListsAndSelects()
    {
        ChartPane pane;
        pane.resize(700, 500);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QCOMPARE(pane.count(), 0);
        QJsonObject invalid{{"type", "line"}, {"elements", QJsonArray{QJsonObject{{"label", "x"}, {"points", 3}}}}};
        pane.setCharts({pngChart(640, 480), specChart(lineSpec()), specChart(invalid)});
        QCOMPARE(pane.count(), 3);
        QCOMPARE(pane.thumbnailStrip()->count(), 3);
        QCOMPARE(pane.thumbnailStrip()->item(1)->text(), QStringLiteral("Line"));
        QVERIFY(!pane.thumbnailStrip()->item(1)->icon().isNull());
        QCOMPARE(pane.currentIndex(), 0);
        QCOMPARE(pane.currentView(), pane.pngView());
        QCOMPARE(pane.pngView()->image().size(), QSize(640, 480));

        QSignalSpy spy(&pane, &ChartPane::currentChartChanged);
        pane.selectChart(1);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(pane.currentView(), pane.chartViewer());
        QCOMPARE(pane.chartViewer()->plot()->graphCount(), 1);
        QCOMPARE(pane.chartViewer()->plot()->graph(0)->dataCount(), 2);

        // Clicking a thumbnail selects it; a chart without a valid spec says so, no crash.
        pane.thumbnailStrip()->setCurrentRow(2);
        QCOMPARE(pane.currentIndex(), 2);
        QVERIFY(pane.chartViewer()->errorText().contains("could not be read"));

        pane.selectChart(0);
        QCOMPARE(pane.currentView(), pane.pngView());
        pane.selectChart(7); // out of range: ignored
        QCOMPARE(pane.currentIndex(), 0);

        pane.setCharts({});
        QCOMPARE(pane.count(), 0);
        QVERIFY(pane.currentView() != pane.chartViewer() && pane.currentView() != pane.pngView());
    }
};

QTEST_MAIN(TestChartPane)
#include "test_chart_pane.moc"
