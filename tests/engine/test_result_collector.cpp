// ResultCollector on what a snippet can put on the result channel (it runs in the wrapper's
// process, so any bytes): results over the limits of ResultLimits and broken PNGs are refused
// with a message that names the limit and the size; a 1,000,000-point line chart still works.
#include "OutDirSandbox.h"
#include "TestImages.h"

#include "core/charts/ChartSpec.h"
#include "core/engine/ResultCollector.h"
#include "core/run/ExecutionResult.h"
#include "core/runtime/ResultLimits.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/sandbox/Sandbox.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QtTest>
#include <cstring>

using namespace sandpad;

namespace {

quint32 crc32(const QByteArray& data)
{
    quint32 crc = 0xffffffffu;
    for (const char ch : data) {
        crc ^= quint8(ch);
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

QByteArray bigEndian(quint32 v)
{
    const char bytes[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    return QByteArray(bytes, 4);
}

QByteArray chunk(const QByteArray& type, const QByteArray& data)
{
    return bigEndian(quint32(data.size())) + type + data + bigEndian(crc32(type + data));
}

// A grey PNG built by hand, so that its header can say anything: `raw` is the image data before
// compression (one filter byte and the pixels per row, when honest).
QByteArray handMadePng(quint32 width, quint32 height, int bitDepth, const QByteArray& raw)
{
    const char rest[5] = {char(bitDepth), 0, 0, 0, 0}; // grey; deflate; filter 0; not interlaced
    const QByteArray ihdr = bigEndian(width) + bigEndian(height) + QByteArray(rest, 5);
    return QByteArray("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("IDAT", qCompress(raw).mid(4))
         + chunk("IEND", {});
}

// An honest 1-bit grey PNG of that size, all black: tiny, but `width * height` pixels to decode.
QByteArray blackPng(quint32 width, quint32 height)
{
    return handMadePng(width, height, 1, QByteArray(qsizetype(height) * (1 + (width + 7) / 8), '\0'));
}

QByteArray qtPng(int width, int height, bool noise = false)
{
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(Qt::darkCyan);
    if (noise) { // does not compress: as many bytes as pixels
        auto* rng = QRandomGenerator::global();
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                image.setPixel(x, y, rng->generate());
    }
    return pngBytes(image);
}

QByteArray resultJson(const QJsonArray& charts, const QJsonObject& extra = {})
{
    QJsonObject o{{"status", "success"}, {"result", "42"}, {"charts", charts}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o.insert(it.key(), it.value());
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QJsonArray pngRefs(int n, const QString& file = QStringLiteral("chart-1.png"))
{
    QJsonArray refs;
    for (int i = 0; i < n; ++i)
        refs.append(QJsonObject{{"kind", "png"}, {"file", file}});
    return refs;
}

// A line chart as result.json text, written directly (QJson would take seconds for a million points).
QByteArray lineChartJson(qsizetype points)
{
    QByteArray text = R"({"status":"success","result":null,"charts":[{"kind":"interactive","spec":)"
                      R"({"type":"line","title":"big","elements":[{"label":"s","points":[)";
    text.reserve(points * 24 + 200);
    for (qsizetype i = 0; i < points; ++i) {
        if (i)
            text += ',';
        text += '[' + QByteArray::number(i) + ',' + QByteArray::number(double(i % 1000) / 7.0, 'g', 17) + ']';
    }
    return text + "]}]}}]}";
}

// A line chart of `points` points as binary columns (x then y, float64) and result.json naming
// them: {"chart_columns": {"file": "chart-columns", "size": N}}.
QByteArray columnsFile(qsizetype points)
{
    QByteArray bytes(points * 16, Qt::Uninitialized);
    for (qsizetype i = 0; i < points; ++i) {
        const double x = double(i), y = double(i % 1000) / 7.0;
        quint64 bits;
        std::memcpy(&bits, &x, 8);
        qToLittleEndian(bits, bytes.data() + i * 8);
        std::memcpy(&bits, &y, 8);
        qToLittleEndian(bits, bytes.data() + (points + i) * 8);
    }
    return bytes;
}

QJsonObject columnsChart(qsizetype points)
{
    const auto ref = [](qsizetype offset, qsizetype n) {
        return QJsonObject{{"offset", double(offset)}, {"length", double(n)}, {"dtype", "float64"}};
    };
    return QJsonObject{{"type", "line"}, {"title", "columns"},
                       {"elements", QJsonArray{QJsonObject{{"label", "s"}, {"x", ref(0, points)}, {"y", ref(points * 8, points)}}}}};
}

} // namespace

class TestResultCollector : public QObject {
    Q_OBJECT

    RuntimeProgram m_program = RuntimeProgram::build(RuntimeProgram::Input{
        Language::Python, QStringLiteral("pass"), QStringLiteral("t.py"), QStringLiteral("/w"), QStringLiteral("python3"), {}});

    // The problem collect() reports, and that nothing of a refused result was kept.
    QString refused(OutDirSandbox& sandbox)
    {
        ExecutionResult result;
        const QString problem = ResultCollector::collect(m_program, sandbox, result);
        if (!problem.isEmpty() && (result.result || !result.charts.isEmpty() || result.status != RunStatus::InfrastructureError))
            return QStringLiteral("a refused result was partly kept: ") + problem;
        return problem;
    }

private slots:
    void acceptsAValidResult()
    {
        OutDirSandbox sandbox;
        sandbox.files["chart-1.png"] = qtPng(64, 48);
        QJsonArray charts = pngRefs(1);
        charts.append(QJsonObject{{"kind", "interactive"},
                                  {"spec", QJsonObject{{"type", "bar"}, {"elements", QJsonArray{QJsonObject{{"label", "a"}, {"value", 1}}}}}}});
        sandbox.files["result.json"] = resultJson(charts);
        ExecutionResult result;
        const QString problem = ResultCollector::collect(m_program, sandbox, result);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(result.status, RunStatus::Success);
        QCOMPARE(result.result, std::optional<QString>(QStringLiteral("42")));
        QCOMPARE(result.charts.size(), 2);
        QCOMPARE(result.charts[0].png, sandbox.files["chart-1.png"]);
        QCOMPARE(result.charts[1].specJson()["type"].toString(), QStringLiteral("bar"));
    }

    // A figure's extracted chart rides on its PNG; one that does not validate or does not fit the
    // run's chart budget is dropped (the figure stays a picture), never an error.
    void extractedChartsOnPngs()
    {
        OutDirSandbox sandbox;
        sandbox.files["chart-1.png"] = qtPng(64, 48);
        const QJsonObject line{{"type", "line"}, {"elements", QJsonArray{QJsonObject{{"label", "a"}, {"points", QJsonArray{QJsonArray{1, 2}}}}}}};
        const QJsonObject bad{{"type", "line"}, {"elements", QJsonArray{QJsonObject{{"label", "a"}, {"points", QJsonArray{QJsonArray{1, "x"}}}}}}};
        // 550,000 + 455,000 points: the second does not fit (result.json stays within its own limits).
        const auto scatter = [](int n) {
            QJsonArray points;
            for (int i = 0; i < n; ++i)
                points.append(QJsonArray{i, 1});
            return QJsonObject{{"type", "scatter"}, {"elements", QJsonArray{QJsonObject{{"points", points}}}}};
        };
        QJsonArray charts;
        for (const QJsonObject& spec : {line, bad, scatter(550'000), scatter(455'000)})
            charts.append(QJsonObject{{"kind", "png"}, {"file", "chart-1.png"}, {"spec", spec}});
        sandbox.files["result.json"] = resultJson(charts);
        ExecutionResult result;
        const QString problem = ResultCollector::collect(m_program, sandbox, result);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(result.status, RunStatus::Success);
        QVERIFY(!result.error);
        QCOMPARE(result.charts.size(), 4);
        QCOMPARE(result.charts[0].kind, RunChart::Kind::Png);
        QCOMPARE(result.charts[0].specJson()["type"].toString(), QStringLiteral("line"));
        QVERIFY((result.charts[1].spec == nullptr)); // invalid: dropped
        QCOMPARE(result.charts[2].specJson()["type"].toString(), QStringLiteral("scatter"));
        QVERIFY((result.charts[3].spec == nullptr)); // over what is left of the 1,000,000 values
        for (const RunChart& c : result.charts)
            QCOMPARE(c.png, sandbox.files["chart-1.png"]);
    }

    void keepsAMillionPointLineChart()
    {
        OutDirSandbox sandbox;
        sandbox.files["result.json"] = lineChartJson(ResultLimits::chartValuesPerRun);
        QVERIFY(sandbox.files["result.json"].size() < ResultLimits::documentBytes);
        ExecutionResult result;
        const QString problem = ResultCollector::collect(m_program, sandbox, result);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(result.charts.size(), 1);
        const QJsonArray points = result.charts[0].specJson()["elements"].toArray()[0].toObject()["points"].toArray();
        QCOMPARE(points.size(), ResultLimits::chartValuesPerRun);
        QCOMPARE(points[999'999].toArray()[0].toDouble(), 999'999.0);
        QCOMPARE(points[999'999].toArray()[1].toDouble(), 999.0 / 7.0);
        QCOMPARE(result.charts[0].specJson()["x_scale"], QJsonValue(QJsonValue::Null)); // normalized
    }

    // Binary columns: a million points travel as one chart-columns file (16 MB) and are kept
    // parsed; --json's lists are built only when asked.
    void readsAMillionPointsOfBinaryColumns()
    {
        OutDirSandbox sandbox;
        const qsizetype n = ResultLimits::chartValuesPerRun;
        sandbox.files["chart-columns"] = columnsFile(n);
        sandbox.files["result.json"] = resultJson(QJsonArray{QJsonObject{{"kind", "interactive"}, {"spec", columnsChart(n)}}},
                                                  QJsonObject{{"chart_columns", QJsonObject{{"file", "chart-columns"}, {"size", double(n * 16)}}}});
        QVERIFY(sandbox.files["result.json"].size() < 1000);
        ExecutionResult result;
        const QString problem = ResultCollector::collect(m_program, sandbox, result);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(result.status, RunStatus::Success);
        QCOMPARE(result.charts.size(), 1);
        const ChartSeries& s = result.charts[0].spec->series()[0];
        QCOMPARE(qsizetype(s.xs.size()), n);
        QCOMPARE(s.xs[999'999], 999'999.0);
        QCOMPARE(s.ys[999'999], 999.0 / 7.0);
        // Extracted charts read the same file.
        sandbox.files["chart-1.png"] = qtPng(8, 8);
        sandbox.files["chart-columns"] = columnsFile(10);
        sandbox.files["result.json"] = resultJson(QJsonArray{QJsonObject{{"kind", "png"}, {"file", "chart-1.png"}, {"spec", columnsChart(10)}}},
                                                  QJsonObject{{"chart_columns", QJsonObject{{"file", "chart-columns"}, {"size", 160}}}});
        ExecutionResult extracted;
        QVERIFY(ResultCollector::collect(m_program, sandbox, extracted).isEmpty());
        QVERIFY(extracted.charts[0].spec);
        QCOMPARE(extracted.charts[0].spec->series()[0].xs.size(), size_t(10));
    }

    // What a snippet can lie about: each a ChartError naming why; the result text is kept.
    void binaryColumnProblemsAreChartErrors_data()
    {
        QTest::addColumn<QByteArray>("file");    // chart-columns, or "-" for none
        QTest::addColumn<QJsonValue>("declared"); // chart_columns
        QTest::addColumn<qsizetype>("points");
        QTest::addColumn<QString>("error");
        const QJsonObject ok{{"file", "chart-columns"}, {"size", 160}};
        QTest::newRow("truncated file") << columnsFile(10).left(150) << QJsonValue(QJsonObject{{"file", "chart-columns"}, {"size", 160}})
            << qsizetype(10) << "the chart-columns file has 150 bytes, not the 160 result.json declares";
        QTest::newRow("declared short") << columnsFile(10).left(80) << QJsonValue(QJsonObject{{"file", "chart-columns"}, {"size", 80}})
            << qsizetype(10) << "chart.elements[0].y: the column runs past the end of the columns: 10 float64 values from byte 80 end at byte 160; there are 80 bytes";
        QTest::newRow("missing file") << QByteArray("-") << QJsonValue(ok) << qsizetype(10)
            << "the chart-columns file named in result.json is missing";
        QTest::newRow("not declared") << columnsFile(10) << QJsonValue() << qsizetype(10)
            << "result.json names no chart-columns file of a whole number of bytes";
        QTest::newRow("another file") << columnsFile(10) << QJsonValue(QJsonObject{{"file", "../result.json"}, {"size", 160}})
            << qsizetype(10) << "result.json names no chart-columns file of a whole number of bytes";
        QTest::newRow("over the limit") << QByteArray("-") << QJsonValue(QJsonObject{{"file", "chart-columns"}, {"size", 1e300}})
            << qsizetype(10) << "the chart columns are 9,000,000,000,000,000,000 bytes; the limit is 16,000,000 bytes per run";
    }

    void binaryColumnProblemsAreChartErrors()
    {
        QFETCH(QByteArray, file);
        QFETCH(QJsonValue, declared);
        QFETCH(qsizetype, points);
        QFETCH(QString, error);
        OutDirSandbox sandbox;
        if (file != "-")
            sandbox.files["chart-columns"] = file;
        QJsonObject extra;
        if (!declared.isUndefined() && !declared.isNull())
            extra.insert("chart_columns", declared);
        sandbox.files["chart-1.png"] = qtPng(8, 8);
        QJsonArray charts = pngRefs(1);
        charts.append(QJsonObject{{"kind", "interactive"}, {"spec", columnsChart(points)}});
        sandbox.files["result.json"] = resultJson(charts, extra);
        ExecutionResult result;
        const QString problem = ResultCollector::collect(m_program, sandbox, result);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(result.status, RunStatus::Error);
        QVERIFY(result.error);
        QCOMPARE(result.error->name, QStringLiteral("ChartError"));
        QVERIFY2(result.error->value.contains(error), qPrintable(result.error->value));
        QCOMPARE(result.result, std::optional<QString>(QStringLiteral("42"))); // the rest is kept
        QCOMPARE(result.charts.size(), 1);                                      // the PNG too
    }

    // Declared lengths count against the run's values before the columns are read.
    void refusesTooManyColumnValues()
    {
        OutDirSandbox sandbox;
        sandbox.files["result.json"] = resultJson(QJsonArray{QJsonObject{{"kind", "interactive"}, {"spec", columnsChart(600'000)}},
                                                             QJsonObject{{"kind", "interactive"}, {"spec", columnsChart(600'000)}}},
                                                  QJsonObject{{"chart_columns", QJsonObject{{"file", "chart-columns"}, {"size", 9'600'000}}}});
        QCOMPARE(refused(sandbox), QStringLiteral("The result is too large: the charts have 1,200,000 values; the limit is 1,000,000 per run"));
    }

    void refusesTooManyChartValues()
    {
        OutDirSandbox sandbox;
        sandbox.files["result.json"] = lineChartJson(ResultLimits::chartValuesPerRun + 1);
        QCOMPARE(refused(sandbox), QStringLiteral("The result is too large: the charts have 1,000,001 values; the limit is 1,000,000 per run"));

        // Across charts: each one alone is within the limit (and result.json within its own).
        QJsonArray points;
        for (int i = 0; i < 505'000; ++i)
            points.append(QJsonArray{i, 1});
        const QJsonObject spec{{"type", "scatter"}, {"elements", QJsonArray{QJsonObject{{"points", points}}}}};
        const QJsonObject chart{{"kind", "interactive"}, {"spec", spec}};
        sandbox.files["result.json"] = resultJson(QJsonArray{chart, chart});
        QCOMPARE(refused(sandbox), QStringLiteral("The result is too large: the charts have 1,010,000 values; the limit is 1,000,000 per run"));
    }

    void refusesTooManyChartElements()
    {
        // Two bar charts of 50,200 bars: each is within the limit, result.json within its own.
        QJsonArray bars;
        for (int i = 0; i < 50'200; ++i)
            bars.append(QJsonObject{{"label", QString::number(i)}, {"value", i}});
        const QJsonObject chart{{"kind", "interactive"}, {"spec", QJsonObject{{"type", "bar"}, {"elements", bars}}}};
        OutDirSandbox sandbox;
        sandbox.files["result.json"] = resultJson(QJsonArray{chart, chart});
        QCOMPARE(refused(sandbox), QStringLiteral("The result is too large: the charts have 100,400 elements (bars, slices, boxes, series); "
                                                  "the limit is 100,000 per run"));
    }

    void refusesTooManyCharts()
    {
        // The CLI would have written a file for each of them.
        OutDirSandbox sandbox;
        sandbox.files["chart-1.png"] = qtPng(8, 8);
        sandbox.files["result.json"] = resultJson(pngRefs(20'000));
        QCOMPARE(refused(sandbox), QStringLiteral("The result is too large: 20,000 charts; the limit is 100 per run"));
        sandbox.files["result.json"] = resultJson(pngRefs(ResultLimits::chartsPerRun));
        ExecutionResult result;
        QCOMPARE(ResultCollector::collect(m_program, sandbox, result), QString());
        QCOMPARE(result.charts.size(), ResultLimits::chartsPerRun);
    }

    void refusesTooManyPngBytes()
    {
        // One PNG of ~1 MB named 70 times: counted each time it is named.
        OutDirSandbox sandbox;
        sandbox.files["chart-1.png"] = qtPng(600, 600, true);
        QVERIFY(sandbox.files["chart-1.png"].size() > 1'000'000);
        sandbox.files["result.json"] = resultJson(pngRefs(70));
        QCOMPARE(refused(sandbox), QStringLiteral("The result is too large: the PNG charts are more than 64 MiB; the limit is 64 MiB per run"));
    }

    void refusesOversizedPngs_data()
    {
        QTest::addColumn<QByteArray>("png");
        QTest::addColumn<QString>("problem");
        // A few hundred bytes that declare 900 million pixels: refused from the header alone.
        QTest::newRow("bomb") << handMadePng(30'000, 30'000, 8, QByteArray(1000, '\0'))
                              << "The result is too large: the chart chart-1.png is 30000 x 30000 pixels; the limit is 16,384 pixels on a side";
        QTest::newRow("pixels") << blackPng(8'000, 8'000)
                                << "The result is too large: the chart chart-1.png is 8000 x 8000 pixels (64,000,000 pixels); the limit is 33,554,432 pixels per image";
    }
    void refusesOversizedPngs()
    {
        QFETCH(QByteArray, png);
        QFETCH(QString, problem);
        OutDirSandbox sandbox;
        sandbox.files["chart-1.png"] = png;
        sandbox.files["result.json"] = resultJson(pngRefs(1));
        QCOMPARE(refused(sandbox), problem);
    }

    void refusesTooManyPngPixelsPerRun()
    {
        // Three 25-megapixel PNGs of 3 KB each: each one is within the limit, not all three.
        OutDirSandbox sandbox;
        sandbox.files["chart-1.png"] = blackPng(5'000, 5'000);
        QVERIFY(sandbox.files["chart-1.png"].size() < 10'000);
        sandbox.files["result.json"] = resultJson(pngRefs(2));
        ExecutionResult result;
        QCOMPARE(ResultCollector::collect(m_program, sandbox, result), QString());
        sandbox.files["result.json"] = resultJson(pngRefs(3));
        QCOMPARE(refused(sandbox), QStringLiteral("The result is too large: the PNG charts have more than 67,108,864 pixels; the limit is 67,108,864 per run"));
    }

    void refusesBrokenPngs_data()
    {
        QTest::addColumn<QByteArray>("png");
        QTest::addColumn<QString>("problem");
        const QByteArray good = qtPng(300, 200, true);
        QByteArray flipped = good;
        flipped[good.indexOf("IDAT") + 100] = char(flipped[good.indexOf("IDAT") + 100] ^ 0x55);
        QTest::newRow("crc") << flipped << "IDAT: CRC error";
        QTest::newRow("truncated") << good.left(good.size() / 2) << "the file ends before the image does";
        QTest::newRow("not png") << QByteArray("GIF89a......") << "it does not start with the PNG signature";
        // The image data inflates to more than the header says (a 2-pixel image with 1 MB of data).
        QTest::newRow("extra data") << handMadePng(1, 2, 8, QByteArray(1 << 20, '\0')) << "data";
        QTest::newRow("too little data") << handMadePng(100, 100, 8, QByteArray(10, '\0')) << "Not enough image data";
    }
    void refusesBrokenPngs()
    {
        QFETCH(QByteArray, png);
        QFETCH(QString, problem);
        OutDirSandbox sandbox;
        sandbox.files["chart-1.png"] = png;
        sandbox.files["result.json"] = resultJson(pngRefs(1));
        const QString got = refused(sandbox);
        QVERIFY2(got.startsWith(QStringLiteral("the chart file chart-1.png is not a valid PNG: ")), qPrintable(got));
        QVERIFY2(got.contains(problem), qPrintable(got));
    }

    void refusesALargeDocument()
    {
        OutDirSandbox sandbox;
        sandbox.files["result.json"] = resultJson({}, {{"result", QString(60 << 20, u'x')}});
        const QString problem = refused(sandbox);
        QVERIFY2(problem.startsWith(QStringLiteral("The result is too large: result.json is 60.0 MiB (62,914,")), qPrintable(problem));
        QVERIFY2(problem.endsWith(QStringLiteral(" bytes); the limit is 48 MiB")), qPrintable(problem));
    }

    void refusesALongResultText()
    {
        OutDirSandbox sandbox;
        sandbox.files["result.json"] = resultJson({}, {{"result", QString(ResultLimits::textChars + 1, u'x')}});
        QCOMPARE(refused(sandbox), QStringLiteral("The result is too large: the result text has 4,000,001 characters; the limit is 4,000,000"));
    }

    void reportsAMissingResult()
    {
        OutDirSandbox sandbox;
        ExecutionResult result;
        // How it ended (exit code, signal, a dropped or malformed channel) is added by the Executor
        // from the sandbox's outcome.
        result.exitCode = 1;
        QCOMPARE(ResultCollector::collect(m_program, sandbox, result), QStringLiteral("the program ended without a result"));
    }
};

QTEST_GUILESS_MAIN(TestResultCollector)
#include "test_result_collector.moc"
