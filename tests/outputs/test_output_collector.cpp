// Rich outputs (RunOutput) from result.json's `outputs` through ResultCollector, against
// hand-made results (no sandbox): each kind, the limits of ResultLimits, malformed entries
// (each refused alone, with a notice in its place; the rest kept), --json, the text form, and
// the run history's round trip.
#include "OutDirSandbox.h"
#include "TempDatabase.h"
#include "TestImages.h"

#include "core/engine/ResultCollector.h"
#include "core/notebook/RunHistory.h"
#include "core/run/ExecutionResult.h"
#include "core/runtime/ResultLimits.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/sandbox/Sandbox.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace sandpad;

namespace {

QByteArray tableFile(int rows, int columns)
{
    QJsonArray names, dtypes, index, data;
    for (int c = 0; c < columns; ++c) {
        names.append(QStringLiteral("c%1").arg(c));
        dtypes.append(c == 0 ? QStringLiteral("int64") : QStringLiteral("object"));
    }
    for (int r = 0; r < rows; ++r) {
        index.append(QString::number(r));
        QJsonArray row;
        for (int c = 0; c < columns; ++c)
            row.append(QStringLiteral("%1").arg(r * 10 + c));
        data.append(row);
    }
    return QJsonDocument(QJsonObject{{"columns", names}, {"dtypes", dtypes}, {"index_name", "id"}, {"index", index},
                                     {"rows", data}, {"total_rows", rows}})
        .toJson(QJsonDocument::Compact);
}

QJsonObject tableRef(const QString& file, qint64 rows, qint64 columns, qint64 total = -1)
{
    return {{"type", "table"}, {"file", file}, {"rows", rows}, {"columns", columns}, {"total_rows", total < 0 ? rows : total}};
}

RuntimeProgram program()
{
    RuntimeProgram p;
    p.outDir = QStringLiteral("/w/out");
    p.resultPath = QStringLiteral("/w/out/result.json");
    return p;
}

// Collects a result.json with these outputs; the collector's message in *problem.
ExecutionResult collect(OutDirSandbox& sandbox, const QJsonArray& outputs, QString* problem = nullptr)
{
    sandbox.files.insert(QStringLiteral("result.json"),
                         QJsonDocument(QJsonObject{{"status", "success"}, {"result", QJsonValue::Null}, {"error", QJsonValue::Null},
                                                   {"charts", QJsonArray{}}, {"outputs", outputs}})
                             .toJson());
    ExecutionResult r;
    r.stdoutText = QStringLiteral("before\n");
    const QString message = ResultCollector::collect(program(), sandbox, r);
    if (problem)
        *problem = message;
    return r;
}

} // namespace

class TestOutputCollector : public QObject {
    Q_OBJECT

private slots:
    void everyKind()
    {
        OutDirSandbox s;
        s.files.insert("output-1.json", tableFile(3, 2));
        s.files.insert("output-2.png", redPng(20, 10));
        s.files.insert("output-3.png", redPng(4, 4));
        QString problem;
        const ExecutionResult r = collect(s, QJsonArray{
            QJsonObject{{"type", "text"}, {"text", "plain"}, {"stdout_offset", 7}},
            tableRef("output-1.json", 3, 2, 250000),
            QJsonObject{{"type", "math"}, {"latex", "x^{2}"}, {"text", "x**2"}, {"file", "output-2.png"}},
            QJsonObject{{"type", "image"}, {"file", "output-3.png"}, {"text", "<Figure>"}},
            QJsonObject{{"type", "svg"}, {"text", "<svg xmlns='http://www.w3.org/2000/svg'/>"}},
            QJsonObject{{"type", "markdown"}, {"text", "# T"}},
        }, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(r.status, RunStatus::Success);
        QCOMPARE(r.outputs.size(), 6);
        QCOMPARE(r.outputs[0].type, RunOutput::Type::Text);
        QCOMPARE(r.outputs[0].stdoutBytes, 7);
        const RunOutput& t = r.outputs[1];
        QCOMPARE(t.type, RunOutput::Type::Table);
        QCOMPARE(t.columns, (QStringList{"c0", "c1"}));
        QCOMPARE(t.dtypes, (QStringList{"int64", "object"}));
        QCOMPARE(t.indexName, QStringLiteral("id"));
        QCOMPARE(t.rows.size(), 3);
        QCOMPARE(t.rows[2], (QStringList{"20", "21"}));
        QCOMPARE(t.totalRows, 250000);
        QCOMPARE(r.outputs[2].type, RunOutput::Type::Math);
        QCOMPARE(r.outputs[2].text, QStringLiteral("x^{2}"));
        QCOMPARE(r.outputs[2].plain, QStringLiteral("x**2"));
        QCOMPARE(QImage::fromData(r.outputs[2].png).size(), QSize(20, 10));
        QCOMPARE(r.outputs[3].type, RunOutput::Type::Image);
        QCOMPARE(r.outputs[4].type, RunOutput::Type::Svg);
        QCOMPARE(r.outputs[5].type, RunOutput::Type::Markdown);

        // --json: every kind, PNGs as base64, the table's parts.
        const QJsonArray json = r.toJson().value("outputs").toArray();
        QCOMPARE(json.size(), 6);
        QCOMPARE(json[0].toObject().value("stdout_offset").toInt(), 7);
        QCOMPARE(json[1].toObject().value("type").toString(), QStringLiteral("table"));
        QCOMPARE(json[1].toObject().value("total_rows").toInt(), 250000);
        QCOMPARE(json[1].toObject().value("rows").toArray()[1].toArray()[0].toString(), QStringLiteral("10"));
        QCOMPARE(json[2].toObject().value("latex").toString(), QStringLiteral("x^{2}"));
        QVERIFY(!json[2].toObject().value("png_base64").toString().isEmpty());
        QCOMPARE(QByteArray::fromBase64(json[3].toObject().value("base64").toString().toLatin1()), s.files["output-3.png"]);
    }

    void malformedEntriesAreNoticesInTheirPlace_data()
    {
        QTest::addColumn<QJsonValue>("entry");
        QTest::addColumn<QString>("notice");
        QTest::newRow("not an object") << QJsonValue(3) << "Output 2 is not shown: it is not an object.";
        QTest::newRow("type not text") << QJsonValue(QJsonObject{{"type", 5}}) << "\"type\" must be a string";
        QTest::newRow("unknown type") << QJsonValue(QJsonObject{{"type", "video"}}) << "unknown type \"video\"";
        QTest::newRow("offset a string") << QJsonValue(QJsonObject{{"type", "text"}, {"text", "x"}, {"stdout_offset", "3"}})
                                         << "\"stdout_offset\" must be a number of bytes";
        QTest::newRow("markdown without text") << QJsonValue(QJsonObject{{"type", "markdown"}}) << "\"text\" is missing";
        QTest::newRow("text a list") << QJsonValue(QJsonObject{{"type", "svg"}, {"text", QJsonArray{}}}) << "\"text\" must be a string";
        QTest::newRow("path as a file") << QJsonValue(QJsonObject{{"type", "image"}, {"file", "../etc/passwd"}})
                                        << "it needs a plain \"file\" name";
        QTest::newRow("table rows not a count") << QJsonValue(QJsonObject{{"type", "table"}, {"file", "t.json"}, {"rows", 1.5}, {"columns", 1}, {"total_rows", 1}})
                                                << "\"rows\" must be a count";
        QTest::newRow("missing table file") << QJsonValue(tableRef("nothere.json", 1, 1)) << "its file nothere.json is missing";
        QTest::newRow("bad PNG") << QJsonValue(QJsonObject{{"type", "image"}, {"file", "bad.png"}}) << "bad.png is not a valid PNG";
        QTest::newRow("table file not JSON") << QJsonValue(tableRef("garbage.json", 1, 1)) << "its file is not a JSON object";
        QTest::newRow("table file of strings") << QJsonValue(tableRef("numbers.json", 1, 1)) << "its file is not a table";
        QTest::newRow("table smaller than declared") << QJsonValue(tableRef("small.json", 5, 2)) << "not the 5 x 2 it declares";
        QTest::newRow("table larger than declared") << QJsonValue(tableRef("large.json", 2, 2)) << "more than the 2 rows x 2 columns it declares";
        QTest::newRow("too many columns") << QJsonValue(tableRef("t.json", 1, ResultLimits::tableColumns + 1)) << "columns; the limit is 10,000";
        QTest::newRow("too many rows") << QJsonValue(tableRef("t.json", ResultLimits::tableRows + 1, 1)) << "it sends 100,001 rows; the limit is 100,000";
        QTest::newRow("too many cells") << QJsonValue(tableRef("t.json", 100000, 11)) << "it has 1,100,000 cells and the run's tables may have 1,000,000";
    }

    void malformedEntriesAreNoticesInTheirPlace()
    {
        QFETCH(QJsonValue, entry);
        QFETCH(QString, notice);
        OutDirSandbox s;
        s.files.insert("bad.png", QByteArray("\x89PNG\r\n\x1a\nnot really", 18));
        s.files.insert("garbage.json", "{not json");
        s.files.insert("numbers.json", R"({"columns": [1], "dtypes": ["int64"], "index": ["0"], "rows": [[1]]})");
        s.files.insert("small.json", tableFile(3, 2));
        s.files.insert("large.json", tableFile(40, 2));
        QString problem;
        const ExecutionResult r = collect(s, QJsonArray{QJsonObject{{"type", "text"}, {"text", "kept"}}, entry,
                                                        QJsonObject{{"type", "markdown"}, {"text", "also kept"}}},
                                          &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem)); // the run's result is kept
        QCOMPARE(r.status, RunStatus::Success);
        QCOMPARE(r.outputs.size(), 3);
        QCOMPARE(r.outputs[0].text, QStringLiteral("kept"));
        QCOMPARE(r.outputs[1].type, RunOutput::Type::Text);
        QVERIFY2(r.outputs[1].text.contains(notice), qPrintable(r.outputs[1].text));
        QVERIFY2(r.outputs[1].text.contains(QStringLiteral("not shown")), qPrintable(r.outputs[1].text));
        QCOMPARE(r.outputs[2].text, QStringLiteral("also kept"));
        // A table over a limit is refused on what it declares: its file is never read.
        if (notice.contains(QStringLiteral("limit")) || notice.contains(QStringLiteral("may have")))
            QVERIFY2(!s.reads.contains(QStringLiteral("t.json")), qPrintable(s.reads.join(',')));
    }

    void outputsNotAListIsAnInvalidResult()
    {
        OutDirSandbox s;
        s.files.insert("result.json", R"({"status": "success", "result": null, "error": null, "charts": [], "outputs": {"type": "text"}})");
        ExecutionResult r;
        const QString problem = ResultCollector::collect(program(), s, r);
        QCOMPARE(problem, QStringLiteral("Invalid result.json from the runtime wrapper: \"outputs\" must be a list"));
    }

    void countLimit()
    {
        OutDirSandbox s;
        QJsonArray many;
        for (int i = 0; i < ResultLimits::outputsPerRun + 20; ++i)
            many.append(QJsonObject{{"type", "text"}, {"text", QString::number(i)}, {"stdout_offset", i}});
        const ExecutionResult r = collect(s, many);
        QCOMPARE(r.outputs.size(), ResultLimits::outputsPerRun + 1);
        QCOMPARE(r.outputs[99].text, QStringLiteral("99"));
        QCOMPARE(r.outputs.last().text, QStringLiteral("20 more outputs are not shown: a run shows at most 100."));
    }

    void cellsAreCountedPerRun()
    {
        // Two tables of 600,000 cells: the second is over what is left of the run's 1,000,000.
        OutDirSandbox s;
        s.files.insert("a.json", tableFile(60000, 10));
        s.files.insert("b.json", tableFile(60000, 10));
        const ExecutionResult r = collect(s, QJsonArray{tableRef("a.json", 60000, 10), tableRef("b.json", 60000, 10)});
        QCOMPARE(r.outputs.size(), 2);
        QCOMPARE(r.outputs[0].type, RunOutput::Type::Table);
        QCOMPARE(r.outputs[0].cellCount(), 600000);
        QCOMPARE(r.outputs[1].type, RunOutput::Type::Text);
        QVERIFY2(r.outputs[1].text.contains(QStringLiteral("(400,000 left)")), qPrintable(r.outputs[1].text));
        QVERIFY(!s.reads.contains(QStringLiteral("b.json")));
    }

    void refusedMathKeepsItsText()
    {
        OutDirSandbox s;
        s.files.insert("m.png", "not a png");
        const ExecutionResult r = collect(s, QJsonArray{QJsonObject{{"type", "math"}, {"latex", "\\frac{1}{2}"}, {"text", "1/2"}, {"file", "m.png"}}});
        QCOMPARE(r.outputs.size(), 1);
        QCOMPARE(r.outputs[0].type, RunOutput::Type::Math);
        QVERIFY(r.outputs[0].png.isEmpty());
        QCOMPARE(r.outputs[0].textForm(), QStringLiteral("1/2\n"));
    }

    void textPositionCountsUtf8Bytes()
    {
        const QString text = QStringLiteral("é🎉a\nb");
        RunOutput o;
        QCOMPARE(o.textPosition(text), 0);
        o.stdoutBytes = 2; // é
        QCOMPARE(o.textPosition(text), 1);
        o.stdoutBytes = 6; // é + the emoji (two UTF-16 units)
        QCOMPARE(o.textPosition(text), 3);
        o.stdoutBytes = 1000;
        QCOMPARE(o.textPosition(text), text.size());
    }

    void tableTextForm()
    {
        RunOutput t;
        t.type = RunOutput::Type::Table;
        t.columns = {"name", "n"};
        t.dtypes = {"object", "int64"};
        t.indexName = "id";
        t.index = {"1", "2"};
        t.rows = {{"apple", "5"}, {"kiwi", "120"}};
        t.totalRows = 10;
        QCOMPARE(t.textForm(), QStringLiteral("id  name     n\n"
                                              "1   apple    5\n"
                                              "2   kiwi   120\n"
                                              "… 8 more rows (10 rows × 2 columns)\n"));
    }

    void historyRoundTrip()
    {
        TempDatabase db;
        QVERIFY2(db.open(), qPrintable(db.error()));
        RunHistory history(db.db());
        OutDirSandbox s;
        s.files.insert("t.json", tableFile(4, 3));
        s.files.insert("p.png", redPng(8, 8));
        ExecutionResult r = collect(s, QJsonArray{
            tableRef("t.json", 4, 3, 9),
            QJsonObject{{"type", "math"}, {"latex", "x"}, {"text", "x"}, {"file", "p.png"}, {"stdout_offset", 3}},
            QJsonObject{{"type", "image"}, {"file", "p.png"}},
            QJsonObject{{"type", "svg"}, {"text", "<svg/>"}},
            QJsonObject{{"type", "markdown"}, {"text", "*m*"}},
            QJsonObject{{"type", "text"}, {"text", ""}},
        });
        r.runId = QStringLiteral("11111111-2222-3333-4444-555555555555");
        r.title = QStringLiteral("t");
        QCOMPARE(r.outputs.size(), 6);
        QVERIFY2(history.save(r), qPrintable(history.lastError()));
        const auto back = history.find(r.runId);
        QVERIFY(back);
        QCOMPARE(back->outputs.size(), r.outputs.size());
        for (qsizetype i = 0; i < r.outputs.size(); ++i)
            QCOMPARE(back->outputs[i].toJson(), r.outputs[i].toJson());
        const auto previews = history.recentPreviews(10);
        QCOMPARE(previews.size(), 1);
        QCOMPARE(previews[0].run.outputs.size(), 6);
        // A preview (the notebook at start) holds a table's first 1,000 rows, and says how many it had.
        OutDirSandbox big;
        big.files.insert("t.json", tableFile(1500, 2));
        ExecutionResult large = collect(big, QJsonArray{tableRef("t.json", 1500, 2)});
        large.runId = QStringLiteral("22222222-2222-3333-4444-555555555555");
        QVERIFY(history.save(large));
        const auto largePreview = history.recentPreviews(10).last().run;
        QCOMPARE(largePreview.runId, large.runId);
        QCOMPARE(largePreview.outputs[0].rows.size(), 1000);
        QCOMPARE(largePreview.outputs[0].totalRows, 1500);
        QCOMPARE(history.find(large.runId)->outputs[0].rows.size(), 1500);
        QVERIFY(history.remove(large.runId));

        // Saved again, the outputs are replaced, not added; removed with the run.
        QVERIFY(history.save(r));
        QCOMPARE(db.rowCount(QStringLiteral("run_outputs")), 6);
        QVERIFY(history.remove(r.runId));
        QCOMPARE(db.rowCount(QStringLiteral("run_outputs")), 0);
    }
};

QTEST_GUILESS_MAIN(TestOutputCollector)
#include "test_output_collector.moc"
