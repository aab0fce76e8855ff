// ChartSketch: the notebook's thumbnail of an interactive chart draws the chart's own data.
#include "core/charts/ChartSpec.h"
#include "ui/charts/ChartColors.h"
#include "ui/charts/ChartSketch.h"

#include <QApplication>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPainter>
#include <QtTest>
#include <cmath>

using namespace sandpad;

class TestChartSketch : public QObject {
    Q_OBJECT

    static ChartSpec spec(const char* json)
    {
        const ChartParseResult parsed = ChartSpec::parse(QJsonDocument::fromJson(json).object());
        if (!parsed.ok())
            qFatal("spec: %s", qPrintable(parsed.error));
        return *parsed.spec;
    }

    static QImage sketch(const ChartSpec& s, const QRectF& area = QRectF(0, 0, 200, 100))
    {
        QImage image(200, 100, QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        ChartSketch::draw(p, s, area, QApplication::palette());
        return image;
    }

    // Pixels close to `color` in the given rectangle of the image.
    static int count(const QImage& image, const QColor& color, const QRect& where)
    {
        int n = 0;
        for (int y = where.top(); y <= where.bottom(); ++y)
            for (int x = where.left(); x <= where.right(); ++x) {
                const QColor c = image.pixelColor(x, y);
                if (std::abs(c.red() - color.red()) + std::abs(c.green() - color.green()) +
                        std::abs(c.blue() - color.blue()) < 40)
                    ++n;
            }
        return n;
    }

private slots:
    void barsAreStackedAndProportional()
    {
        const ChartSpec s = spec(R"({"type": "bar", "elements": [
            {"label": "A", "group": "g", "value": 1}, {"label": "B", "group": "g", "value": 3},
            {"label": "A", "group": "h", "value": 1}]})");
        const QImage img = sketch(s);
        const int a = count(img, chartSeriesColor(0), QRect(0, 0, 100, 100));
        const int b = count(img, chartSeriesColor(0), QRect(100, 0, 100, 100));
        QVERIFY2(a > 0 && b > 0, "both categories have a bar of the first group");
        QVERIFY2(b > 2.5 * a && b < 3.5 * a, qPrintable(QStringLiteral("heights 1:3, pixels %1:%2").arg(a).arg(b)));
        // The second group sits on top of the first in category A, and is absent in B.
        QVERIFY(count(img, chartSeriesColor(1), QRect(0, 0, 100, 100)) > 0);
        QCOMPARE(count(img, chartSeriesColor(1), QRect(100, 0, 100, 100)), 0);
    }

    void lineFollowsItsPoints()
    {
        // y = x from the bottom left to the top right; a second, flat series along the bottom.
        const ChartSpec s = spec(R"({"type": "line", "elements": [
            {"label": "up", "points": [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]]},
            {"label": "flat", "points": [[0, 0], [4, 0]]}]})");
        const QImage img = sketch(s);
        const QColor up = chartSeriesColor(0);
        QVERIFY(count(img, up, QRect(0, 50, 100, 50)) > 0);   // bottom left
        QVERIFY(count(img, up, QRect(100, 0, 100, 50)) > 0);  // top right
        QCOMPARE(count(img, up, QRect(0, 0, 80, 40)), 0);     // never the top left
        QCOMPARE(count(img, chartSeriesColor(1), QRect(0, 0, 200, 80)), 0); // flat stays low
        QVERIFY(count(img, chartSeriesColor(1), QRect(0, 80, 200, 20)) > 0);
    }

    void scatterPieAndDegenerateData()
    {
        const QImage scatter = sketch(spec(R"({"type": "scatter", "elements": [
            {"label": "p", "points": [[1, 5], [2, 5]]}]})")); // flat: widened, still drawn
        QVERIFY(count(scatter, chartSeriesColor(0), scatter.rect()) > 0);
        const QImage pie = sketch(spec(R"({"type": "pie", "elements": [
            {"label": "a", "value": 1}, {"label": "b", "value": 1}]})"));
        const int a = count(pie, chartSeriesColor(0), pie.rect()), b = count(pie, chartSeriesColor(1), pie.rect());
        QVERIFY(a > 100 && b > 100);
        QVERIFY(std::abs(a - b) < (a + b) / 10); // halves
        // A single point and NaNs draw without trouble.
        sketch(spec(R"({"type": "line", "elements": [{"label": "one", "points": [[1, 1]]}]})"));
        const QJsonObject nan{{"type", "line"}, {"elements", QJsonArray{QJsonObject{
            {"label", "n"}, {"points", QJsonArray{QJsonArray{0, qQNaN()}, QJsonArray{1, 2}, QJsonArray{2, 1}}}}}}};
        const ChartParseResult parsed = ChartSpec::parse(nan);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        QVERIFY(count(sketch(*parsed.spec), chartSeriesColor(0), QRect(0, 0, 200, 100)) > 0);
    }

    void manyPointsStayCheap()
    {
        QJsonArray points;
        for (int i = 0; i < 200000; ++i)
            points.append(QJsonArray{i, std::sin(i / 1000.0)});
        QJsonObject o{{"type", "line"}, {"elements", QJsonArray{QJsonObject{{"label", "s"}, {"points", points}}}}};
        const ChartParseResult parsed = ChartSpec::parse(o);
        QVERIFY(parsed.ok());
        QElapsedTimer t;
        t.start();
        const QImage img = sketch(*parsed.spec);
        qInfo("200,000-point sketch: %lld ms", t.elapsed());
        QVERIFY(count(img, chartSeriesColor(0), img.rect()) > 100);
    }
};

QTEST_MAIN(TestChartSketch)
#include "test_chart_sketch.moc"
