#include "core/runtime/JsonShape.h"
#include "core/runtime/ResultFrames.h"
#include "core/runtime/ResultLimits.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/runtime/WrapperResult.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace sandpad;

class TestWrapperResult : public QObject {
    Q_OBJECT
private slots:
    void success()
    {
        const QByteArray json = R"({"status": "success", "result": "42", "error": null,
            "charts": [{"kind": "png", "file": "chart-1.png"},
                       {"kind": "interactive", "spec": {"type": "line", "elements": []}}],
            "chart_error": null})";
        QString problem;
        const auto r = WrapperResult::parse(json, &problem);
        QVERIFY2(r, qPrintable(problem));
        QVERIFY(r->success);
        QCOMPARE(r->result, std::optional<QString>(QStringLiteral("42")));
        QVERIFY(!r->error);
        QCOMPARE(r->charts.size(), 2);
        QCOMPARE(r->charts[0].kind, WrapperChartRef::Kind::Png);
        QCOMPARE(r->charts[0].file, QStringLiteral("chart-1.png"));
        QCOMPARE(r->charts[1].kind, WrapperChartRef::Kind::Interactive);
        QCOMPARE(r->charts[1].spec.value("type").toString(), QStringLiteral("line"));
        QVERIFY(!r->chartError);
    }
    void errorWithChartError()
    {
        const QByteArray json = R"({"status": "error", "result": null,
            "error": {"name": "ZeroDivisionError", "value": "division by zero", "traceback": "tb"},
            "charts": [], "chart_error": "Could not serialize the chart: x"})";
        const auto r = WrapperResult::parse(json);
        QVERIFY(r);
        QVERIFY(!r->success);
        QVERIFY(!r->result);
        QCOMPARE(r->error->name, QStringLiteral("ZeroDivisionError"));
        QCOMPARE(r->error->traceback, QStringLiteral("tb"));
        QCOMPARE(r->chartError, std::optional<QString>(QStringLiteral("Could not serialize the chart: x")));
    }
    void minimal()
    {
        const auto r = WrapperResult::parse(R"({"status": "success"})");
        QVERIFY(r);
        QVERIFY(r->charts.isEmpty());
    }
    void malformed_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray() << "offset";
        QTest::newRow("truncated") << QByteArray(R"({"status": "succ)") << "offset";
        QTest::newRow("array") << QByteArray("[]") << "not a JSON object";
        QTest::newRow("no status") << QByteArray(R"({"result": "1"})") << "\"status\" is missing";
        QTest::newRow("bad status") << QByteArray(R"({"status": "ok"})") << "\"status\" must be";
        QTest::newRow("result number") << QByteArray(R"({"status": "success", "result": 1})") << "\"result\" must be";
        QTest::newRow("error without error") << QByteArray(R"({"status": "error"})") << "\"error\" is missing";
        QTest::newRow("success with error") << QByteArray(R"({"status": "success", "error": {"name": "E", "value": ""}})") << "an error is given";
        QTest::newRow("error no name") << QByteArray(R"({"status": "error", "error": {"value": "x"}})") << "error.name";
        QTest::newRow("error value") << QByteArray(R"({"status": "error", "error": {"name": "E", "value": 3}})") << "error.value";
        QTest::newRow("charts object") << QByteArray(R"({"status": "success", "charts": {}})") << "\"charts\" must be a list";
        QTest::newRow("chart path") << QByteArray(R"({"status": "success", "charts": [{"kind": "png", "file": "../../etc/passwd"}]})") << "plain \"file\"";
        QTest::newRow("chart slash") << QByteArray(R"({"status": "success", "charts": [{"kind": "png", "file": "/etc/passwd"}]})") << "plain \"file\"";
        QTest::newRow("chart kind") << QByteArray(R"({"status": "success", "charts": [{"kind": "svg"}]})") << "unknown \"kind\"";
        QTest::newRow("spec") << QByteArray(R"({"status": "success", "charts": [{"kind": "interactive", "spec": 1}]})") << "\"spec\" object";
        QTest::newRow("chart_error") << QByteArray(R"({"status": "success", "chart_error": []})") << "chart_error";
    }
    void malformed()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        QString problem;
        QVERIFY(!WrapperResult::parse(json, &problem));
        QVERIFY2(problem.startsWith(QStringLiteral("Invalid result.json")), qPrintable(problem));
        QVERIFY2(problem.contains(expected), qPrintable(problem));
    }

    // A snippet can write its own result.json: what would cost far more to parse than its size
    // says is refused before it is parsed, with the limit and the size in the message.
    void limits_data()
    {
        using L = ResultLimits;
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        const QByteArray head = R"({"status": "success", "x": )";
        QTest::newRow("deep") << head + QByteArray(L::documentDepth, '[') + QByteArray(L::documentDepth, ']') + '}'
                              << "Invalid result.json from the runtime wrapper: it is nested more than 32 levels deep";
        // 3 bytes of text, ~150 bytes of memory each once parsed.
        QByteArray lists = "[]";
        lists = head + '[' + (lists + ',').repeated(L::documentContainers) + "[]]}";
        QTest::newRow("lists") << lists << "The result is too large: result.json has more than 1,050,000 lists and objects; "
                                           "charts may have 1,000,000 points per run, each a list";
        QByteArray objects = "{},";
        objects = head + '[' + objects.repeated(L::documentObjects) + "{}]}";
        QTest::newRow("objects") << objects << "The result is too large: result.json has more than 101,000 objects; "
                                               "charts may have 100,000 elements (bars, slices, boxes, series) per run, each an object";
        QByteArray zeros = "0,";
        zeros = head + '[' + zeros.repeated(L::documentValues) + "0]}";
        QTest::newRow("values") << zeros << "The result is too large: result.json has more than 3,050,000 values";
        QJsonArray charts;
        for (int i = 0; i <= L::chartsPerRun; ++i)
            charts.append(QJsonObject{{"kind", "png"}, {"file", "chart-1.png"}});
        QTest::newRow("charts") << QJsonDocument(QJsonObject{{"status", "success"}, {"charts", charts}}).toJson()
                                << "The result is too large: 101 charts; the limit is 100 per run";
        const QString longText(L::textChars + 1, u'x');
        QTest::newRow("result text") << QJsonDocument(QJsonObject{{"status", "success"}, {"result", longText}}).toJson()
                                     << "The result is too large: the result text has 4,000,001 characters; the limit is 4,000,000";
        const QJsonObject error{{"name", "E"}, {"value", "v"}, {"traceback", longText}};
        QTest::newRow("traceback") << QJsonDocument(QJsonObject{{"status", "error"}, {"error", error}}).toJson()
                                   << "The result is too large: the traceback has 4,000,001 characters; the limit is 4,000,000";
        QTest::newRow("size") << head + '"' + QByteArray(L::documentBytes, 'x') + "\"}"
                              << "The result is too large: result.json is 48.0 MiB (50,331,678 bytes); the limit is 48 MiB";
    }
    void limits()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        QString problem;
        QVERIFY(!WrapperResult::parse(json, &problem));
        QCOMPARE(problem, expected);
    }
    void atTheLimits()
    {
        using L = ResultLimits;
        QJsonArray charts;
        for (int i = 0; i < L::chartsPerRun; ++i)
            charts.append(QJsonObject{{"kind", "png"}, {"file", "chart-1.png"}});
        const QString text(L::textChars, u'x');
        QString problem;
        const auto r = WrapperResult::parse(QJsonDocument(QJsonObject{{"status", "success"}, {"result", text}, {"charts", charts}}).toJson(),
                                            &problem);
        QVERIFY2(r, qPrintable(problem));
        QCOMPARE(r->charts.size(), L::chartsPerRun);
        QCOMPARE(r->result->size(), L::textChars);
        const QByteArray deep = R"({"status": "success", "x": )" + QByteArray(L::documentDepth - 1, '[')
                                + QByteArray(L::documentDepth - 1, ']') + '}';
        QVERIFY2(WrapperResult::parse(deep, &problem), qPrintable(problem));
    }
    void jsonShape()
    {
        // Brackets, quotes and colons inside strings are text; keys are not values.
        const QByteArray json = "{\"a\": \"[[[\\\"{]]]\\\\\", \"b\" : [1, -2.5e3, true, null, {\"c\": \"d\"}], \"e\": []}";
        const JsonShape shape = JsonShape::scan(json, {100, 100, 100, 100});
        QCOMPARE(shape.containers, 4);
        QCOMPARE(shape.objects, 2);
        QCOMPARE(shape.values, 10); // 4 containers, 2 strings, 4 scalars
        QCOMPARE(shape.depth, 3);
        QVERIFY(WrapperResult::parse("{\"status\": \"success\", \"result\": \"[[[\\\"]]]\"}"));
        // It stops early once over a limit.
        QCOMPARE(JsonShape::scan("[[[[[[[[", {3, 100, 100, 100}).depth, 4);
        QCOMPARE(JsonShape::scan("[{},{},{},{},{}]", {10, 100, 2, 100}).objects, 3);
    }

    void frames()
    {
        const QByteArray png("\x89PNG\r\n\x1a\n\n{\"name\"", 17);
        const QByteArray stream = ResultFrames::frame("chart-1.png", png)
            + ResultFrames::frame("result.json", R"({"status": "success"})");
        const auto files = ResultFrames::parse(stream);
        QVERIFY(files);
        QCOMPARE(files->size(), 2);
        QCOMPARE(files->value("chart-1.png"), png);
        QCOMPARE(files->value("result.json"), QByteArray(R"({"status": "success"})"));
        QVERIFY(ResultFrames::parse(QByteArray())->isEmpty());
    }
    void badFrames()
    {
        QString problem;
        QVERIFY(!ResultFrames::parse(ResultFrames::frame("a", "12345").chopped(1), &problem));
        QVERIFY(problem.contains("truncated"));
        QVERIFY(!ResultFrames::parse("garbage\n", &problem));
        QVERIFY(!ResultFrames::parse(R"({"name": "../x", "size": 0})" "\n", &problem));
        QVERIFY(!ResultFrames::parse(R"({"name": "x", "size": -1})" "\n", &problem));
        QVERIFY(!ResultFrames::parse(R"({"name": "x", "size": 1})", &problem));
    }

    void pythonProgram()
    {
        const RuntimeProgram p = RuntimeProgram::build(RuntimeProgram::Input{
            Language::Python, QStringLiteral("!pip install requests numpy\nprint(1)\n"), QStringLiteral("My Notebook"),
            QStringLiteral("/sandpad/"), QStringLiteral("/usr/bin/python3"), {QStringLiteral("--no-index")}});
        QVERIFY2(p.ok(), qPrintable(p.error));
        QCOMPARE(p.files.size(), 9); // and session_complete.py, jedi_answers.py (a session's completion)
        // The run's files (cwd, stdin, artifacts) beside it too; the program's cwd is W/work.
        QCOMPARE(p.files[5].path, QStringLiteral("/sandpad/run_files.py"));
        QCOMPARE(p.files[6].path, QStringLiteral("/sandpad/variables.py")); // the variable listing
        QCOMPARE(p.cwd, QStringLiteral("/sandpad/work"));
        QCOMPARE(p.files[0].path, QStringLiteral("/sandpad/wrapper.py"));
        // The chart extraction module beside the wrapper (the pre-started path places the same).
        QCOMPARE(p.files[3].path, QStringLiteral("/sandpad/chart_extract.py"));
        QCOMPARE(p.files[3].content, RuntimeProgram::supportFiles(Language::Python, QStringLiteral("/sandpad")).value(0).content);
        QVERIFY(p.files[3].content.contains("def figure_chart"));
        QVERIFY(p.files[0].content.contains("SANDPAD_RESULT_FD"));
        QCOMPARE(p.files[1].path, QStringLiteral("/sandpad/main.py"));
        QCOMPARE(p.files[1].content, QByteArray("\nprint(1)\n"));
        QCOMPARE(p.command.argv, (QStringList{"/usr/bin/python3", "/sandpad/wrapper.py", "/sandpad/manifest.json"}));
        QCOMPARE(p.command.cwd, QStringLiteral("/sandpad"));
        QCOMPARE(p.packages, QStringList{"requests"});
        QCOMPARE(p.resultPath, QStringLiteral("/sandpad/out/result.json"));
        QCOMPARE(p.chartPath("chart-1.png"), QStringLiteral("/sandpad/out/chart-1.png"));
        const QJsonObject m = QJsonDocument::fromJson(p.files[2].content).object();
        QCOMPARE(p.files[2].path, QStringLiteral("/sandpad/manifest.json"));
        QCOMPARE(m.value("language").toString(), QStringLiteral("python"));
        QCOMPARE(m.value("title").toString(), QStringLiteral("My Notebook"));
        QCOMPARE(m.value("code_path").toString(), QStringLiteral("/sandpad/main.py"));
        QCOMPARE(m.value("out_dir").toString(), QStringLiteral("/sandpad/out"));
        QCOMPARE(m.value("packages").toArray(), QJsonArray{"requests"});
        QCOMPARE(m.value("pip_args").toArray(), QJsonArray{"--no-index"});
    }
    // Input files go read-only into W/work, stdin to W/stdin; the manifest names both.
    void programWithInput()
    {
        RuntimeProgram::Input in{Language::Python, QStringLiteral("print(1)"), QStringLiteral("t"), QStringLiteral("/w"),
                                 QStringLiteral("python3"), {}};
        RuntimeProgram p = RuntimeProgram::build(in);
        QJsonObject m = QJsonDocument::fromJson(p.files[2].content).object();
        QCOMPARE(m.value("cwd").toString(), QStringLiteral("/w/work"));
        QVERIFY(!m.contains("stdin_path")); // no input at all: input() says so
        QVERIFY(!m.contains("input_files"));
        in.runInput.files = {InputFile{QStringLiteral("a.csv"), QByteArray("1")}};
        in.runInput.stdinData = QByteArray("x\n");
        p = RuntimeProgram::build(in);
        m = QJsonDocument::fromJson(p.files[2].content).object();
        QCOMPARE(m.value("stdin_path").toString(), QStringLiteral("/w/stdin"));
        QCOMPARE(m.value("input_files").toArray(), QJsonArray{"a.csv"});
        QCOMPARE(m.value("artifact_limits").toObject().value("files").toInt(), ResultLimits::artifactsPerRun);
        const SandboxFile& input = p.files[p.files.size() - 2];
        QCOMPARE(input.path, QStringLiteral("/w/work/a.csv"));
        QCOMPARE(input.mode, 0444);
        QCOMPARE(p.files.last().path, QStringLiteral("/w/stdin"));
        QCOMPARE(p.files.last().content, QByteArray("x\n"));
    }

    void javaScriptProgram()
    {
        const RuntimeProgram p = RuntimeProgram::build(RuntimeProgram::Input{
            Language::JavaScript, QStringLiteral("!pip install x\nconsole.log(1)"), QStringLiteral("a.js"),
            QStringLiteral("/w"), QStringLiteral("node"), {}});
        QVERIFY(p.ok());
        QCOMPARE(p.files[0].path, QStringLiteral("/w/wrapper.mjs"));
        QVERIFY(p.files[0].content.contains("SANDPAD_RESULT_FD"));
        QCOMPARE(p.files[1].path, QStringLiteral("/w/main.mjs"));
        QCOMPARE(p.files[1].content, QByteArray("!pip install x\nconsole.log(1)")); // not Python: untouched
        QCOMPARE(p.command.argv, (QStringList{"node", "/w/wrapper.mjs", "/w/manifest.json"}));
        QVERIFY(p.packages.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWrapperResult)
#include "test_wrapper_result.moc"
