#include "core/charts/ChartSpec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>
#include <cmath>

using namespace sandpad;

static QJsonObject obj(const char* json)
{
    QJsonParseError e;
    const QJsonDocument d = QJsonDocument::fromJson(QByteArray(json), &e);
    if (e.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s", qPrintable(e.errorString()));
    return d.object();
}

class TestChartSpec : public QObject {
    Q_OBJECT
private slots:
    void line()
    {
        const auto r = ChartSpec::parse(obj(R"({"type": "line", "title": "Sine", "x_label": "x", "y_label": "y",
            "elements": [{"label": "a", "points": [[0, 1], [1.5, 2], [3, null]]}, {"label": "b", "points": [[0, "4.5"]]}]})"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const ChartSpec& s = *r.spec;
        QCOMPARE(s.type(), ChartType::Line);
        QCOMPARE(s.title(), QStringLiteral("Sine"));
        QCOMPARE(s.xLabel(), QStringLiteral("x"));
        QCOMPARE(s.yLabel(), QStringLiteral("y"));
        QVERIFY(!s.datetimeX());
        QVERIFY(!s.categoryX());
        QCOMPARE(s.series().size(), 2);
        QCOMPARE(s.series()[0].xs, (std::vector<double>{0, 1.5, 3}));
        QCOMPARE(s.series()[0].ys[1], 2.0);
        QVERIFY(std::isnan(s.series()[0].ys[2]));
        QCOMPARE(s.series()[1].ys[0], 4.5);
        QVERIFY(!s.isEmpty());
    }
    void scatterWithCategories()
    {
        const auto r = ChartSpec::parse(obj(R"({"type": "scatter", "title": "t",
            "elements": [{"label": "a", "points": [["mon", 1], ["tue", 2]]}, {"points": [["wed", 3], ["mon", 4]]}]})"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.spec->type(), ChartType::Scatter);
        QVERIFY(r.spec->categoryX());
        QCOMPARE(r.spec->xCategories(), (QStringList{"mon", "tue", "wed"}));
        QCOMPARE(r.spec->series()[1].xs, (std::vector<double>{2, 0}));
        QCOMPARE(r.spec->series()[1].label, QStringLiteral("Series 2"));
    }
    void datetime()
    {
        const auto r = ChartSpec::parse(obj(R"({"type": "line", "title": "t", "x_scale": "datetime",
            "elements": [{"label": "a", "points": [["2024-01-01", 1], ["2024-01-01T00:00:01", 2],
                ["2024-01-01 00:00:00.250000", 3], ["2024-01-01T02:00:00+02:00", 4], ["2024-01-01T00:00:00Z", 5],
                [1704067200000, 6]]}]})"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.spec->datetimeX());
        const double base = 1704067200000.0; // 2024-01-01T00:00:00Z
        QCOMPARE(r.spec->series()[0].xs, (std::vector<double>{base, base + 1000, base + 250, base, base, base}));
        const QJsonObject normalized = r.spec->toJson();
        QCOMPARE(normalized.value("x_scale").toString(), QStringLiteral("datetime"));
        QCOMPARE(normalized["elements"].toArray()[0].toObject()["points"].toArray()[1].toArray()[0].toDouble(), base + 1000);
    }
    void badDatetime()
    {
        const auto r = ChartSpec::parse(obj(R"({"type": "line", "title": "t", "x_scale": "datetime",
            "elements": [{"label": "a", "points": [["2024-01-01", 1], ["yesterday", 2]]}]})"));
        QVERIFY(!r.ok());
        QCOMPARE(r.error, QStringLiteral("chart.elements[0].points[1]: x must be an ISO-8601 date/time or epoch milliseconds, got \"yesterday\""));
    }
    void barWithStringValues()
    {
        const auto r = ChartSpec::parse(obj(R"({"type": "bar", "title": "Sales", "elements": [
            {"label": "Q1", "group": "north", "value": "10.5"}, {"label": "Q2", "group": "north", "value": 20},
            {"label": "Q1", "group": "south", "value": 5}, {"label": "Q1", "group": "north", "value": 1}]})"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const ChartBars& b = r.spec->bars();
        QCOMPARE(b.categories, (QStringList{"Q1", "Q2"}));
        QCOMPARE(b.groups, (QStringList{"north", "south"}));
        QCOMPARE(b.values[0], (std::vector<double>{11.5, 20}));
        QCOMPARE(b.values[1][0], 5.0);
        QVERIFY(std::isnan(b.values[1][1]));
        const QJsonArray elements = r.spec->toJson()["elements"].toArray();
        QCOMPARE(elements.size(), 3);
        QCOMPARE(elements[0].toObject()["value"].toDouble(), 11.5);
    }
    void pieAndBox()
    {
        const auto pie = ChartSpec::parse(obj(R"({"type": "pie", "title": "p", "elements": [{"label": "a", "angle": 90}, {"label": "b", "value": "270"}]})"));
        QVERIFY2(pie.ok(), qPrintable(pie.error));
        QCOMPARE(pie.spec->slices().size(), 2);
        QCOMPARE(pie.spec->slices()[1].value, 270.0);
        const auto box = ChartSpec::parse(obj(R"({"type": "box_and_whisker", "title": "b", "elements": [
            {"label": "a", "min": 1, "first_quartile": 2, "median": 3, "third_quartile": 4, "max": 5, "outliers": [9, 10]}]})"));
        QVERIFY2(box.ok(), qPrintable(box.error));
        QCOMPARE(box.spec->boxes()[0].median, 3.0);
        QCOMPARE(box.spec->boxes()[0].outliers, (std::vector<double>{9, 10}));
        const auto bad = ChartSpec::parse(obj(R"({"type": "box_and_whisker", "elements": [{"label": "a", "min": 1, "first_quartile": 2, "median": 3, "max": 5}]})"));
        QCOMPARE(bad.error, QStringLiteral("chart.elements[0]: missing \"third_quartile\""));
    }
    void emptyElementsAllowed()
    {
        const auto r = ChartSpec::parse(obj(R"({"type": "line", "title": "nothing yet", "elements": []})"));
        QVERIFY(r.ok());
        QVERIFY(r.spec->isEmpty());
    }
    void roundTrip()
    {
        const QJsonObject in = obj(R"({"type": "scatter", "title": "t", "x_label": "a", "extra": 1,
            "elements": [{"label": "s", "points": [["x", 1], ["y", null]]}]})");
        const auto r = ChartSpec::parse(in);
        QVERIFY(r.ok());
        const QJsonObject normalized = r.spec->toJson();
        QVERIFY(!normalized.contains("extra"));
        const auto again = ChartSpec::parse(normalized);
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(again.spec->toJson(), normalized);
        QVERIFY(normalized["elements"].toArray()[0].toObject()["points"].toArray()[1].toArray()[1].isNull());
    }
    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("no type") << QByteArray(R"({"elements": []})") << R"(chart: missing "type" (line, scatter, bar, pie or box_and_whisker))";
        QTest::newRow("type number") << QByteArray(R"({"type": 3, "elements": []})") << "chart.type: must be a string, got 3";
        QTest::newRow("unknown type") << QByteArray(R"({"type": "heatmap", "elements": []})") << R"(chart.type: must be one of line, scatter, bar, pie, box_and_whisker, got "heatmap")";
        QTest::newRow("composite") << QByteArray(R"({"type": "composite_chart", "elements": []})") << "chart.type: composite charts are not supported; return one chart";
        QTest::newRow("title") << QByteArray(R"({"type": "line", "title": 5, "elements": []})") << "chart.title: must be a string, got 5";
        QTest::newRow("x_label") << QByteArray(R"({"type": "line", "x_label": [], "elements": []})") << "chart.x_label: must be a string, got an array";
        QTest::newRow("no elements") << QByteArray(R"({"type": "line", "title": "t"})") << R"(chart: missing "elements" (a list))";
        QTest::newRow("elements object") << QByteArray(R"({"type": "line", "elements": {}})") << "chart.elements: must be a list, got an object";
        QTest::newRow("x_scale") << QByteArray(R"({"type": "line", "x_scale": "log", "elements": []})") << R"(chart.x_scale: must be "datetime" or null, got "log")";
        QTest::newRow("x_scale bar") << QByteArray(R"({"type": "bar", "x_scale": "datetime", "elements": []})") << R"(chart.x_scale: "datetime" is only for line and scatter charts)";
        QTest::newRow("element") << QByteArray(R"({"type": "line", "elements": [1]})") << R"(chart.elements[0]: must be an object with "label" and "points", got 1)";
        QTest::newRow("label") << QByteArray(R"({"type": "line", "elements": [{"label": 1, "points": []}]})") << "chart.elements[0].label: must be a string, got 1";
        QTest::newRow("no points") << QByteArray(R"({"type": "line", "elements": [{"label": "a"}]})") << R"(chart.elements[0]: missing "points" (a list))";
        QTest::newRow("point") << QByteArray(R"({"type": "line", "elements": [{"label": "a", "points": [[1, 2], [1, 2, 3]]}]})") << "chart.elements[0].points[1]: must be a pair [x, y], got an array of 3 values";
        QTest::newRow("y") << QByteArray(R"({"type": "line", "elements": [{"label": "a", "points": [[1, 2]]}, {"label": "b", "points": [[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, "abc"]]}, {"label": "c", "points": [[0, 0]]}]})")
                           << R"(chart.elements[1].points[5]: y must be a number, got "abc")";
        QTest::newRow("x null") << QByteArray(R"({"type": "scatter", "elements": [{"label": "a", "points": [[null, 2]]}]})") << "chart.elements[0].points[0]: x must be a number or a string, got null";
        QTest::newRow("x mixed") << QByteArray(R"({"type": "scatter", "elements": [{"label": "a", "points": [[1, 2], ["b", 3]]}]})") << R"(chart.elements[0].points[1]: x must be a number like the x values before it, got "b")";
        QTest::newRow("bar label") << QByteArray(R"({"type": "bar", "elements": [{"group": "g", "value": 1}]})") << "chart.elements[0].label: must be a string, got nothing";
        QTest::newRow("bar value") << QByteArray(R"({"type": "bar", "elements": [{"label": "a", "group": "g", "value": "ten"}]})") << R"(chart.elements[0].value: the value must be a number, got "ten")";
        QTest::newRow("bar no value") << QByteArray(R"({"type": "bar", "elements": [{"label": "a", "group": "g"}]})") << R"(chart.elements[0]: missing "value")";
        QTest::newRow("bar group") << QByteArray(R"({"type": "bar", "elements": [{"label": "a", "group": 2, "value": 1}]})") << "chart.elements[0].group: must be a string, got 2";
        QTest::newRow("pie negative") << QByteArray(R"({"type": "pie", "elements": [{"label": "a", "angle": -1}]})") << "chart.elements[0].angle: must not be negative, got -1";
        QTest::newRow("box order") << QByteArray(R"({"type": "box_and_whisker", "elements": [{"label": "a", "min": 5, "first_quartile": 2, "median": 3, "third_quartile": 4, "max": 5}]})") << "chart.elements[0]: needs min <= first_quartile <= median <= third_quartile <= max";
    }
    void errors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        const auto r = ChartSpec::parse(obj(json.constData()));
        QVERIFY(!r.ok());
        QCOMPARE(r.error, error);
    }
    void sizeCap()
    {
        // One series over the cap, built directly (the cap is on values, not on JSON size).
        QJsonArray points;
        const QJsonArray point{1, 2};
        for (qsizetype i = 0; i < ChartSpec::maxValues + 1; ++i)
            points.append(point);
        QJsonObject chart{{"type", "line"}, {"title", "big"},
                          {"elements", QJsonArray{QJsonObject{{"label", "a"}, {"points", points}}}}};
        const auto r = ChartSpec::parse(chart);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains("more than 1,000,000 values"), qPrintable(r.error));
    }
    void barCellsCap()
    {
        // A bar chart holds a value per (group, label): 1,001 bars that each have their own label
        // and group are 1,002,001 of them (50,000 such bars were 2.5 billion doubles: 20 GB).
        QJsonArray bars;
        for (int i = 0; i < 1001; ++i)
            bars.append(QJsonObject{{"label", QString::number(i)}, {"group", QString::number(i)}, {"value", 1}});
        const auto r = ChartSpec::parse(QJsonObject{{"type", "bar"}, {"elements", bars}});
        QVERIFY(!r.ok());
        QCOMPARE(r.error, QStringLiteral("chart.elements: 1,001 groups times 1,001 labels is more than 1,000,000 bars"));
        bars.removeLast();
        QVERIFY(ChartSpec::parse(QJsonObject{{"type", "bar"}, {"elements", bars}}).ok());
    }
    void elementsCap()
    {
        QJsonArray bars;
        for (qsizetype i = 0; i <= ChartSpec::maxElements; ++i)
            bars.append(QJsonObject{{"label", "a"}, {"value", 1}});
        const auto r = ChartSpec::parse(QJsonObject{{"type", "bar"}, {"elements", bars}});
        QCOMPARE(r.error, QStringLiteral("chart.elements: has 100,001 elements; the limit is 100,000"));
        bars.removeLast();
        QVERIFY(ChartSpec::parse(QJsonObject{{"type", "bar"}, {"elements", bars}}).ok());
    }
    void textCap_data()
    {
        QTest::addColumn<QJsonObject>("chart");
        QTest::addColumn<QString>("error");
        const QString longText(1001, u'x');
        const QJsonArray points{QJsonArray{1, 2}};
        QTest::newRow("title") << QJsonObject{{"type", "line"}, {"title", longText}, {"elements", QJsonArray()}}
                               << "chart.title: has 1,001 characters; the limit is 1,000";
        QTest::newRow("series") << QJsonObject{{"type", "line"}, {"elements", QJsonArray{QJsonObject{{"label", longText}, {"points", points}}}}}
                                << "chart.elements[0].label: has 1,001 characters; the limit is 1,000";
        QTest::newRow("category") << QJsonObject{{"type", "line"}, {"elements", QJsonArray{QJsonObject{{"points", QJsonArray{QJsonArray{longText, 2}}}}}}}
                                  << "chart.elements[0].points[0]: has 1,001 characters; the limit is 1,000";
        QTest::newRow("bar") << QJsonObject{{"type", "bar"}, {"elements", QJsonArray{QJsonObject{{"label", longText}, {"value", 1}}}}}
                             << "chart.elements[0].label: has 1,001 characters; the limit is 1,000";
        QTest::newRow("date") << QJsonObject{{"type", "line"}, {"x_scale", "datetime"},
                                             {"elements", QJsonArray{QJsonObject{{"points", QJsonArray{QJsonArray{"2024-01-01" + longText, 2}}}}}}}
                              << "chart.elements[0].points[0]: x must be an ISO-8601 date/time or epoch milliseconds, got \"2024-01-01xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\"";
    }
    void textCap()
    {
        QFETCH(QJsonObject, chart);
        QFETCH(QString, error);
        const auto r = ChartSpec::parse(chart);
        QVERIFY(!r.ok());
        QCOMPARE(r.error, error);
        chart["title"] = QString(1000, u't');
        QVERIFY(!ChartSpec::parse(chart).error.startsWith(QStringLiteral("chart.title")));
    }
    // toJson(std::move(source)) shares the point lists that are already normal: the same
    // dictionary as toJson() in every case, whether a list could be shared or not.
    void toJsonFromSource_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<qsizetype>("values");
        QTest::newRow("numbers") << QByteArray(R"({"type": "line", "title": "t", "extra": 1, "elements": [{"label": "a", "points": [[0, 1], [1.5, null]]}, {"points": [[2, 3]]}]})") << qsizetype(3);
        QTest::newRow("numeric strings") << QByteArray(R"({"type": "line", "elements": [{"label": "a", "points": [[0, "1.5"]]}, {"label": "b", "points": [[1, 2]]}]})") << qsizetype(2);
        QTest::newRow("categories") << QByteArray(R"({"type": "scatter", "elements": [{"label": "a", "points": [["x", 1], ["y", 2], ["x", 3]]}]})") << qsizetype(3);
        QTest::newRow("dates") << QByteArray(R"({"type": "line", "x_scale": "datetime", "elements": [{"label": "a", "points": [["2024-01-31", 1], [1706745600000, 2]]}]})") << qsizetype(2);
        QTest::newRow("bar") << QByteArray(R"({"type": "bar", "elements": [{"label": "a", "group": "g", "value": "2"}, {"label": "a", "group": "g", "value": 3}]})") << qsizetype(2);
        QTest::newRow("box") << QByteArray(R"({"type": "box_and_whisker", "elements": [{"label": "a", "min": 1, "first_quartile": 2, "median": 3, "third_quartile": 4, "max": 5, "outliers": [9, 10]}]})") << qsizetype(7);
    }
    void toJsonFromSource()
    {
        QFETCH(QByteArray, json);
        QFETCH(qsizetype, values);
        QJsonObject source = obj(json.constData());
        QCOMPARE(ChartSpec::valueCount(source), values);
        const auto r = ChartSpec::parse(source);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.spec->toJson(std::move(source)), r.spec->toJson());
        // Given a dictionary that does not fit (it must be the one parsed), nothing of it is taken.
        QCOMPARE(r.spec->toJson(obj(R"({"type": "line", "elements": [{"points": [[7, 7], [8, 8], [9, 9], [10, 10]]}]})")), r.spec->toJson());
    }
};

QTEST_GUILESS_MAIN(TestChartSpec)
#include "test_chart_spec.moc"
