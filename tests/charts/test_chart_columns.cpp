// Binary chart columns (docs/runtime-protocol.md, "Binary columns"): ChartSpec reads line and
// scatter series from packed float64/int64 arrays named by {"offset", "length", "dtype"}. The
// snippet writes those bytes and references, so each lie is a clear error naming the field:
// wrong lengths, references past the end, lengths and offsets that would overflow, NaN or
// infinity where a number must be finite, mixed kinds of x, more values than a run may send.
#include "core/charts/ChartColumns.h"
#include "core/charts/ChartSpec.h"
#include "core/runtime/ResultLimits.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>
#include <cmath>
#include <cstring>
#include <limits>

using namespace sandpad;

namespace {

QByteArray float64s(const std::vector<double>& values)
{
    QByteArray bytes(qsizetype(values.size() * 8), Qt::Uninitialized);
    for (size_t i = 0; i < values.size(); ++i) {
        quint64 bits;
        std::memcpy(&bits, &values[i], 8);
        qToLittleEndian(bits, bytes.data() + i * 8);
    }
    return bytes;
}

QByteArray int64s(const std::vector<qint64>& values)
{
    QByteArray bytes(qsizetype(values.size() * 8), Qt::Uninitialized);
    for (size_t i = 0; i < values.size(); ++i)
        qToLittleEndian(values[i], bytes.data() + i * 8);
    return bytes;
}

QJsonObject ref(double offset, double length, const QString& dtype = QStringLiteral("float64"))
{
    return QJsonObject{{"offset", offset}, {"length", length}, {"dtype", dtype}};
}

QJsonObject lineOf(const QJsonObject& element, const QString& type = QStringLiteral("line"))
{
    return QJsonObject{{"type", type}, {"title", "t"}, {"elements", QJsonArray{element}}};
}

QJsonObject columnsElement(const QJsonValue& x, const QJsonValue& y)
{
    return QJsonObject{{"label", "s"}, {"x", x}, {"y", y}};
}

QString errorOf(const QJsonObject& chart, const ChartColumns* columns)
{
    const ChartParseResult r = ChartSpec::parse(chart, columns);
    return r.ok() ? QStringLiteral("(parsed)") : r.error;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

} // namespace

class TestChartColumns : public QObject {
    Q_OBJECT

private slots:
    void readsFloat64AndInt64Columns()
    {
        const ChartColumns columns(float64s({0.5, 1.5, 2.5}) + int64s({10, -20, 30}) + float64s({1, kNaN, 3}));
        const ChartParseResult r = ChartSpec::parse(
            QJsonObject{{"type", "scatter"},
                        {"elements", QJsonArray{columnsElement(ref(0, 3), ref(48, 3)),
                                                columnsElement(ref(24, 3, "int64"), ref(0, 3))}}},
            &columns);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.spec->series().size(), 2);
        QCOMPARE(r.spec->series()[0].xs, (std::vector<double>{0.5, 1.5, 2.5}));
        QCOMPARE(r.spec->series()[0].ys[0], 1.0);
        QVERIFY(std::isnan(r.spec->series()[0].ys[1])); // NaN in y is a gap
        QCOMPARE(r.spec->series()[1].xs, (std::vector<double>{10, -20, 30}));
        QCOMPARE(r.spec->valueTotal(), 6);
        // --json prints the documented lists (NaN as null), built only when asked.
        const QJsonArray points = r.spec->toJson()["elements"].toArray()[0].toObject()["points"].toArray();
        QCOMPARE(points.size(), 3);
        QCOMPARE(points[2].toArray()[0].toDouble(), 2.5);
        QVERIFY(points[1].toArray()[1].isNull());
    }

    // Datetime x as int64 epoch milliseconds (numpy datetime64 from the wrapper); NaT refused.
    void datetimeColumns()
    {
        const qint64 day = 86'400'000;
        ChartColumns columns(int64s({1'700'000'000'000, 1'700'000'000'000 + day}) + float64s({1, 2}));
        QJsonObject chart = lineOf(columnsElement(ref(0, 2, "int64"), ref(16, 2)));
        chart["x_scale"] = "datetime";
        const ChartParseResult r = ChartSpec::parse(chart, &columns);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.spec->datetimeX());
        QCOMPARE(r.spec->series()[0].xs[1], double(1'700'000'000'000 + day));

        columns = ChartColumns(int64s({1, std::numeric_limits<qint64>::min()}) + float64s({1, 2}));
        QCOMPARE(errorOf(chart, &columns), QStringLiteral("chart.elements[0].x[1]: x is missing (the int64 missing value, NaT)"));
    }

    void refusesNonFiniteNumbers_data()
    {
        QTest::addColumn<std::vector<double>>("xs");
        QTest::addColumn<std::vector<double>>("ys");
        QTest::addColumn<QString>("error");
        QTest::newRow("NaN x") << std::vector<double>{1, kNaN} << std::vector<double>{1, 2}
                               << "chart.elements[0].x[1]: x must be a finite number, got NaN";
        QTest::newRow("inf x") << std::vector<double>{kInf, 1} << std::vector<double>{1, 2}
                               << "chart.elements[0].x[0]: x must be a finite number, got inf";
        QTest::newRow("-inf y") << std::vector<double>{1, 2} << std::vector<double>{1, -kInf}
                                << "chart.elements[0].y[1]: y must be a number or NaN (a gap), got -inf";
    }

    void refusesNonFiniteNumbers()
    {
        QFETCH(std::vector<double>, xs);
        QFETCH(std::vector<double>, ys);
        QFETCH(QString, error);
        const ChartColumns columns(float64s(xs) + float64s(ys));
        QCOMPARE(errorOf(lineOf(columnsElement(ref(0, 2), ref(16, 2))), &columns), error);
    }

    void refusesBadReferences_data()
    {
        QTest::addColumn<QJsonObject>("element");
        QTest::addColumn<QString>("error");
        // The columns: 4 float64 values, 32 bytes.
        QTest::newRow("lengths differ") << columnsElement(ref(0, 2), ref(8, 3))
            << "chart.elements[0]: x has 2 values and y has 3: they must be as many";
        QTest::newRow("truncated") << columnsElement(ref(16, 3), ref(0, 3))
            << "chart.elements[0].x: the column runs past the end of the columns: 3 float64 values from byte 16 end at byte 40; there are 32 bytes";
        QTest::newRow("length overflows") << columnsElement(ref(0, 9.3e18), ref(0, 9.3e18))
            << "chart.elements[0].x.length: must be a whole number from 0 to 1,000,000, got 9.3e+18";
        QTest::newRow("length 2^64") << columnsElement(ref(0, 18446744073709551616.0), ref(0, 1))
            << "chart.elements[0].x.length: must be a whole number from 0 to 1,000,000, got 1.8446744073709552e+19";
        QTest::newRow("negative length") << columnsElement(ref(0, -1), ref(0, 1))
            << "chart.elements[0].x.length: must be a whole number from 0 to 1,000,000, got -1";
        QTest::newRow("fractional length") << columnsElement(ref(0, 1.5), ref(0, 1))
            << "chart.elements[0].x.length: must be a whole number from 0 to 1,000,000, got 1.5";
        QTest::newRow("length over the limit") << columnsElement(ref(0, 1'000'001), ref(0, 1'000'001))
            << "chart.elements[0].x.length: must be a whole number from 0 to 1,000,000, got 1000001";
        QTest::newRow("offset overflows") << columnsElement(ref(9.2e18, 1), ref(0, 1))
            << "chart.elements[0].x.offset: must be a whole multiple of 8 from 0 to 16,000,000, got 9.2e+18";
        QTest::newRow("unaligned offset") << columnsElement(ref(4, 1), ref(0, 1))
            << "chart.elements[0].x.offset: must be a whole multiple of 8 from 0 to 16,000,000, got 4";
        QTest::newRow("offset as text") << columnsElement(QJsonObject{{"offset", "0"}, {"length", 1}, {"dtype", "float64"}}, ref(0, 1))
            << "chart.elements[0].x.offset: must be a whole multiple of 8 from 0 to 16,000,000, got \"0\"";
        QTest::newRow("float32") << columnsElement(ref(0, 1, "float32"), ref(0, 1))
            << "chart.elements[0].x.dtype: must be \"float64\" or \"int64\", got \"float32\"";
        QTest::newRow("no dtype") << columnsElement(QJsonObject{{"offset", 0}, {"length", 1}}, ref(0, 1))
            << "chart.elements[0].x.dtype: must be \"float64\" or \"int64\", got nothing";
        QTest::newRow("x as a list") << columnsElement(QJsonArray{1, 2}, ref(0, 2))
            << "chart.elements[0].x: must be a column {\"offset\", \"length\", \"dtype\"}, got an array";
        QTest::newRow("no y") << QJsonObject{{"label", "s"}, {"x", ref(0, 1)}}
            << "chart.elements[0]: missing \"y\" (a column, with \"x\")";
        QTest::newRow("points and columns")
            << QJsonObject{{"x", ref(0, 1)}, {"y", ref(8, 1)}, {"points", QJsonArray{QJsonArray{1, 2}}}}
            << "chart.elements[0]: has both \"points\" and \"x\"/\"y\" columns: give one of them";
    }

    void refusesBadReferences()
    {
        QFETCH(QJsonObject, element);
        QFETCH(QString, error);
        const ChartColumns columns(float64s({1, 2, 3, 4}));
        QCOMPARE(errorOf(lineOf(element), &columns), error);
    }

    // A series of numeric columns after one of category (string) x values, and the reverse.
    void refusesMixedKindsOfX()
    {
        const ChartColumns columns(float64s({1, 2}));
        const QJsonObject categories{{"label", "c"}, {"points", QJsonArray{QJsonArray{"mon", 1}}}};
        QCOMPARE(errorOf(QJsonObject{{"type", "line"}, {"elements", QJsonArray{categories, columnsElement(ref(0, 1), ref(8, 1))}}}, &columns),
                 QStringLiteral("chart.elements[1].x: x must be strings like the x values before it, got a number column"));
        QCOMPARE(errorOf(QJsonObject{{"type", "line"}, {"elements", QJsonArray{columnsElement(ref(0, 1), ref(8, 1)), categories}}}, &columns),
                 QStringLiteral("chart.elements[1].points[0]: x must be a number like the x values before it, got \"mon\""));
    }

    void refusesColumnsThatWereNotSent()
    {
        QCOMPARE(errorOf(lineOf(columnsElement(ref(0, 1), ref(8, 1))), nullptr),
                 QStringLiteral("chart.elements[0].x: the chart's columns were not sent (no chart-columns file)"));
    }

    // Columns count towards the chart's values like points, by their declared length, before a
    // byte is read: two series of 600,000 are too many, in one chart or in a composite.
    void countsDeclaredLengths()
    {
        const QJsonObject big = columnsElement(ref(0, 600'000), ref(0, 600'000));
        const QJsonObject chart{{"type", "line"}, {"elements", QJsonArray{big, big}}};
        QCOMPARE(ChartSpec::valueCount(chart), 1'200'000);
        QVERIFY(ChartColumns::isReferencedBy(chart));
        const ChartColumns columns(QByteArray(600'000 * 8, '\0'));
        QCOMPARE(errorOf(chart, &columns), QStringLiteral("chart.elements[1].x: the chart has more than 1,000,000 values"));
        const QJsonObject composite{{"type", "composite_chart"}, {"elements", QJsonArray{chart}}};
        QCOMPARE(ChartSpec::valueCount(composite), 1'200'000);
        QVERIFY(ChartColumns::isReferencedBy(composite));
        QVERIFY(!ChartColumns::isReferencedBy(lineOf(QJsonObject{{"points", QJsonArray{}}})));
    }

    // The history's form: the dictionary with references, the columns beside it.
    void packsAndReadsBack()
    {
        QJsonArray points;
        for (int i = 0; i < 100; ++i)
            points.append(QJsonArray{i * 0.5, i % 7 == 0 ? QJsonValue() : QJsonValue(std::sin(i))});
        const QJsonObject composite{{"type", "composite_chart"},
                                    {"elements", QJsonArray{lineOf(QJsonObject{{"label", "a"}, {"points", points}, {"color", "#ff0000"}}),
                                                            lineOf(QJsonObject{{"points", QJsonArray{QJsonArray{"x", 1}}}}, "scatter")}}};
        const ChartParseResult r = ChartSpec::parse(composite);
        QVERIFY2(r.ok(), qPrintable(r.error));
        ChartColumns columns;
        const QJsonObject packed = r.spec->toPacked(columns);
        QCOMPARE(columns.bytes().size(), 2 * 100 * 8);
        const QByteArray text = QJsonDocument(packed).toJson(QJsonDocument::Compact);
        QVERIFY(!text.contains("points\":[[0")); // the numbers are in the columns
        QVERIFY(text.contains("[[\"x\",1]]"));   // categories stay points
        const ChartParseResult again = ChartSpec::parse(packed, &columns);
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(again.spec->toJson(), r.spec->toJson());
    }
};

QTEST_GUILESS_MAIN(TestChartColumns)
#include "test_chart_columns.moc"
