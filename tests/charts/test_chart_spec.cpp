#include "core/charts/ChartSpec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QtTest>
#include <cmath>
#include <cstring>

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
    // What the wrapper extracts from matplotlib figures (docs/runtime-protocol.md). Colours are
    // written "\u0023rrggbb" in the raw strings below: a '#' in a raw string of several lines makes
    // moc (Qt 6.4) skip the whole file.
    void extractedFields()
    {
        const auto r = ChartSpec::parse(obj(R"({"type": "line", "title": "t", "x_scale": "log", "y_scale": "symlog",
            "y_linthresh": 2, "x_lim": [1, 100], "x_ticks": [1, 10, 100], "x_tick_labels": ["1", "10", "100"],
            "x_unit": "s", "y2_label": "right", "y2_scale": "log",
            "elements": [{"label": "a", "points": [[1, 1], [10, 2]], "color": "\u0023ff0000", "mode": "lines+markers",
                          "error_y": [0.5, [0.25, 1]]},
                         {"label": "b", "points": [[1, 5]], "y_axis": "right", "mode": "markers", "error_x": [null]}]})"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const ChartSpec& s = *r.spec;
        QCOMPARE(s.xAxis().scale, ChartScale::Log);
        QCOMPARE(s.yAxis().scale, ChartScale::Symlog);
        QCOMPARE(s.yAxis().linthresh, 2.0);
        QCOMPARE(s.xAxis().limits->second, 100.0);
        QCOMPARE(s.xAxis().ticks, (std::vector<double>{1, 10, 100}));
        QCOMPARE(s.xAxis().tickLabels, (QStringList{"1", "10", "100"}));
        QCOMPARE(s.xAxis().unit, QStringLiteral("s"));
        QVERIFY(s.hasRightAxis());
        QCOMPARE(s.y2Axis().scale, ChartScale::Log);
        QCOMPARE(s.y2Label(), QStringLiteral("right"));
        QCOMPARE(s.series()[0].color, QStringLiteral("#ff0000"));
        QCOMPARE(s.series()[0].mode, ChartSeries::Mode::LinesAndMarkers);
        QCOMPARE(s.series()[0].errorY.minus, (std::vector<double>{0.5, 0.25}));
        QCOMPARE(s.series()[0].errorY.plus, (std::vector<double>{0.5, 1}));
        QVERIFY(std::isnan(s.series()[1].errorX.minus[0]));
        QVERIFY(s.series()[1].rightAxis);
        QCOMPARE(ChartSpec::valueCount(s.toJson()), 6); // 3 points, 3 error bars
        const auto again = ChartSpec::parse(s.toJson());
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(again.spec->toJson(), s.toJson());
    }
    void barsHorizontalGroupedWithErrors()
    {
        const auto r = ChartSpec::parse(obj(R"({"type": "bar", "orientation": "horizontal", "bar_mode": "grouped",
            "x_scale": "log", "y_scale": "categorical",
            "elements": [{"label": "a", "group": "g", "value": 2, "color": "\u002300ff00", "error": 0.5},
                         {"label": "b", "group": "g", "value": 2},
                         {"label": "a", "group": "h", "value": 3, "error": [1, 2]}]})"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const ChartBars& b = r.spec->bars();
        QVERIFY(b.horizontal);
        QVERIFY(b.grouped);
        QCOMPARE(b.colors, (QStringList{"#00ff00", ""}));
        QCOMPARE(b.values[0], (std::vector<double>{2, 2})); // equal bars are two bars
        QCOMPARE(b.errors[0].minus[0], 0.5);
        QVERIFY(std::isnan(b.errors[0].minus[1]));
        QCOMPARE(b.errors[1].plus[0], 2.0);
        QCOMPARE(r.spec->xAxis().scale, ChartScale::Log);
        const auto again = ChartSpec::parse(r.spec->toJson());
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(again.spec->toJson(), r.spec->toJson());
    }
    void composite()
    {
        const QJsonObject in = obj(R"({"type": "composite_chart", "title": "Two", "rows": 2, "columns": 2, "elements": [
            {"type": "line", "elements": [{"label": "a", "points": [[0, 1], [1, 2]]}], "layout": {"row": 0, "column": 0, "column_span": 2}},
            {"type": "pie", "elements": [{"label": "x", "angle": 90, "radius": 1, "color": "\u0023123456"}], "layout": {"row": 1, "column": 1}}]})");
        const auto r = ChartSpec::parse(in);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.spec->type(), ChartType::Composite);
        QCOMPARE(r.spec->rows(), 2);
        QCOMPARE(r.spec->children().size(), 2);
        QCOMPARE(r.spec->children()[1].slices()[0].color, QStringLiteral("#123456"));
        QCOMPARE(r.spec->cells()[0].columnSpan, 2);
        QCOMPARE(r.spec->cells()[1].row, 1);
        QCOMPARE(ChartSpec::valueCount(in), 3);
        QCOMPARE(ChartSpec::elementCount(in), 4);
        const auto again = ChartSpec::parse(r.spec->toJson());
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(again.spec->toJson(), r.spec->toJson());
        // E2B's name, without a layout: laid out in a grid by order.
        const auto e2b = ChartSpec::parse(obj(R"({"type": "superchart", "elements": [
            {"type": "line", "elements": []}, {"type": "bar", "elements": []}, {"type": "scatter", "elements": []}]})"));
        QVERIFY2(e2b.ok(), qPrintable(e2b.error));
        QCOMPARE(e2b.spec->columns(), 2);
        QCOMPARE(e2b.spec->rows(), 2);
        QCOMPARE(e2b.spec->cells()[2].row, 1);
    }
    void compositeCountsAgainstTheLimit()
    {
        // Two children of 600,000 points each: over the per-chart limit together.
        QJsonArray points;
        for (int i = 0; i < 600000; ++i)
            points.append(QJsonArray{i, i});
        const QJsonObject line{{"type", "line"}, {"elements", QJsonArray{QJsonObject{{"label", "a"}, {"points", points}}}}};
        const auto r = ChartSpec::parse(QJsonObject{{"type", "composite_chart"}, {"elements", QJsonArray{line, line}}});
        QVERIFY(!r.ok());
        QCOMPARE(r.error, QStringLiteral("chart.elements[1].elements[0].points: the chart has more than 1,000,000 values"));
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
        QTest::newRow("no type") << QByteArray(R"({"elements": []})") << R"(chart: missing "type" (line, scatter, bar, pie, box_and_whisker or composite_chart))";
        QTest::newRow("type number") << QByteArray(R"({"type": 3, "elements": []})") << "chart.type: must be a string, got 3";
        QTest::newRow("unknown type") << QByteArray(R"({"type": "heatmap", "elements": []})") << R"(chart.type: must be one of line, scatter, bar, pie, box_and_whisker, composite_chart, got "heatmap")";
        QTest::newRow("composite in composite") << QByteArray(R"({"type": "composite_chart", "elements": [{"type": "superchart", "elements": []}]})") << "chart.elements[0].type: a composite chart cannot hold another";
        QTest::newRow("composite child") << QByteArray(R"({"type": "composite_chart", "elements": [{"type": "line", "elements": []}, {"type": "bar", "elements": [{"label": "a", "value": "x"}]}]})") << R"(chart.elements[1].elements[0].value: the value must be a number, got "x")";
        QTest::newRow("composite cell") << QByteArray(R"({"type": "composite_chart", "rows": 1, "columns": 2, "elements": [{"type": "line", "elements": [], "layout": {"row": 1, "column": 0}}]})") << "chart.elements[0].layout: does not fit the 1 x 2 grid";
        QTest::newRow("composite rows") << QByteArray(R"({"type": "composite_chart", "rows": 0, "elements": []})") << "chart.rows: must be a whole number from 1 to 20, got 0";
        QTest::newRow("y_scale") << QByteArray(R"({"type": "line", "y_scale": "logit", "elements": []})") << R"(chart.y_scale: must be "linear", "log" or "symlog", got "logit")";
        QTest::newRow("x_scale log bar") << QByteArray(R"({"type": "bar", "x_scale": "log", "elements": []})") << R"(chart.x_scale: "log" is only for line and scatter charts and horizontal bars)";
        QTest::newRow("x_lim") << QByteArray(R"({"type": "line", "x_lim": [2, 1], "elements": []})") << "chart.x_lim: needs low < high";
        QTest::newRow("tick label") << QByteArray(R"({"type": "line", "x_tick_labels": ["a", 2], "elements": []})") << "chart.x_tick_labels[1]: must be a string, got 2";
        QTest::newRow("color") << QByteArray(R"({"type": "line", "elements": [{"label": "a", "points": [], "color": "red"}]})") << R"(chart.elements[0].color: must be a colour like "#1f77b4", got "red")";
        QTest::newRow("mode") << QByteArray(R"({"type": "line", "elements": [{"label": "a", "points": [], "mode": "dots"}]})") << R"(chart.elements[0].mode: must be "lines", "markers" or "lines+markers", got "dots")";
        QTest::newRow("error_y length") << QByteArray(R"({"type": "line", "elements": [{"label": "a", "points": [[1, 2], [2, 3]], "error_y": [0.1]}]})") << "chart.elements[0].error_y: has 1 values for 2 points";
        QTest::newRow("error_y negative") << QByteArray(R"({"type": "line", "elements": [{"label": "a", "points": [[1, 2]], "error_y": [[-1, 1]]}]})") << "chart.elements[0].error_y[0]: an error bar must not be negative";
        QTest::newRow("bar error") << QByteArray(R"({"type": "bar", "elements": [{"label": "a", "value": 1, "error": [1, 2, 3]}]})") << "chart.elements[0].error: must be a number or a pair [below, above], got an array of 3 values";
        QTest::newRow("right axis bar") << QByteArray(R"({"type": "bar", "bar_mode": "side", "elements": []})") << R"(chart.bar_mode: must be "stacked" or "grouped", got "side")";
        QTest::newRow("orientation") << QByteArray(R"({"type": "bar", "orientation": "diagonal", "elements": []})") << R"(chart.orientation: must be "vertical" or "horizontal", got "diagonal")";
        QTest::newRow("title") << QByteArray(R"({"type": "line", "title": 5, "elements": []})") << "chart.title: must be a string, got 5";
        QTest::newRow("x_label") << QByteArray(R"({"type": "line", "x_label": [], "elements": []})") << "chart.x_label: must be a string, got an array";
        QTest::newRow("no elements") << QByteArray(R"({"type": "line", "title": "t"})") << R"(chart: missing "elements" (a list))";
        QTest::newRow("elements object") << QByteArray(R"({"type": "line", "elements": {}})") << "chart.elements: must be a list, got an object";
        QTest::newRow("x_scale") << QByteArray(R"({"type": "line", "x_scale": "logit", "elements": []})") << R"(chart.x_scale: must be "linear", "log", "symlog", "datetime", "categorical" or null, got "logit")";
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
    // toJsonText() writes the point lists itself: byte for byte what QJsonDocument writes of
    // toJson(), for numbers of every kind (whole, huge, tiny, negative zero, gaps), categories
    // that need escaping, dates, composites and the charts without point lists.
    void toJsonText_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("numbers") << QByteArray(R"({"type": "line", "title": "t \u0022q\u0022", "x_label": "é", "elements": [
            {"label": "a", "points": [[0, 1], [1.5, null], [-0.0, -2.5e-7], [1e15, 1e16], [9007199254740992, 9007199254740994],
             [1e17, 1.5e17], [-1e300, 1e-300], [123456789.125, 0.1], [3, 0.30000000000000004], [-7, 2.2250738585072014e-308],
             [1.7976931348623157e308, -4.9e-324], [1e21, 1e22], [0.001, 0.0001], [0.00001, 123456.0]]},
            {"label": "b\u0001\n", "color": "\u0023112233", "mode": "markers", "y_axis": "right", "points": [[2, 3]]},
            {"label": "empty", "points": []}]})");
        QTest::newRow("errors") << QByteArray(R"({"type": "scatter", "title": "e", "x_scale": "log", "y_lim": [0.5, 10], "elements": [
            {"label": "a", "points": [[1, 2], [3, 4]], "error_y": [[0.5, 0.25], null], "error_x": [[1, 1], [2, 2]]}]})");
        QTest::newRow("categories") << QByteArray(R"({"type": "scatter", "elements": [{"label": "a", "points": [["x \u0022quoted\u0022", 1], ["tab\t", 2], ["\u00e9\u4e2d\ud83d\ude00", 3], ["x \u0022quoted\u0022", null]]}, {"points": [["tab\t", 5]]}]})");
        QTest::newRow("dates") << QByteArray(R"({"type": "line", "x_scale": "datetime", "x_ticks": [1706745600000], "elements": [{"label": "a", "points": [["2024-01-31", 1], [1706745600000, 2], ["2024-02-01T00:00:00.125Z", -1]]}]})");
        QTest::newRow("composite") << QByteArray(R"({"type": "composite_chart", "title": "c", "rows": 1, "columns": 3, "elements": [
            {"type": "line", "elements": [{"label": "a", "points": [[0, 1], [1, 2.5]]}, {"label": "b", "points": [[4, 5]]}]},
            {"type": "bar", "elements": [{"label": "x", "group": "g", "value": 2}]},
            {"type": "scatter", "elements": [{"label": "c", "points": [["u", 0.5]]}]}]})");
        QTest::newRow("bar") << QByteArray(R"({"type": "bar", "orientation": "horizontal", "elements": [{"label": "a", "group": "g", "value": 2.5, "error": [0.5, 1]}]})");
        QTest::newRow("pie") << QByteArray(R"({"type": "pie", "elements": [{"label": "a", "angle": 120.5, "radius": 0.75}]})");
        QTest::newRow("box") << QByteArray(R"({"type": "box_and_whisker", "elements": [{"label": "a", "min": 1, "first_quartile": 2, "median": 3, "third_quartile": 4, "max": 5, "outliers": [9, 10.5]}]})");
        QTest::newRow("no elements") << QByteArray(R"({"type": "line", "title": "nothing", "elements": []})");
    }
    void toJsonText()
    {
        QFETCH(QByteArray, json);
        const auto r = ChartSpec::parse(obj(json.constData()));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.spec->toJsonText(), QJsonDocument(r.spec->toJson()).toJson(QJsonDocument::Compact));
    }
    // The same for random doubles of every magnitude, and whole numbers around 2^53 and 2^63.
    void toJsonTextNumbers()
    {
        QRandomGenerator random(15);
        QJsonArray points;
        for (int i = 0; i < 20000; ++i) {
            quint64 bits = random.generate64();
            double x;
            std::memcpy(&x, &bits, sizeof x);
            const double whole = std::ldexp(double(random.bounded(1 << 20)), random.bounded(0, 70)) * (i % 2 ? -1 : 1);
            points.append(QJsonArray{std::isfinite(x) ? x : double(i), whole});
        }
        const auto r = ChartSpec::parse(QJsonObject{{"type", "line"}, {"elements", QJsonArray{QJsonObject{{"label", "r"}, {"points", points}}}}});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.spec->toJsonText(), QJsonDocument(r.spec->toJson()).toJson(QJsonDocument::Compact));
    }
};

QTEST_GUILESS_MAIN(TestChartSpec)
#include "test_chart_spec.moc"
