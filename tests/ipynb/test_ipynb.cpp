// core/ipynb: .ipynb read into a tab's percent text and written back as nbformat 4.5, with every
// malformed input refused in a sentence; a run's result as outputs; the HTML report. Every
// notebook written here is checked by nbformat's own validator (python3-nbformat).
#include "NotebookChecks.h"
#include "core/ipynb/CellOutputs.h"
#include "core/ipynb/HtmlReport.h"
#include "core/ipynb/IpynbReader.h"
#include "core/ipynb/IpynbWriter.h"
#include "core/ipynb/MarkdownHtml.h"
#include "core/ipynb/PercentFormat.h"
#include "core/ipynb/SafeTableHtml.h"

#include <QJsonDocument>
#include <QSet>
#include <QTest>

using namespace sandpad;
using sandpad::test::nbformatProblems;

namespace {

QByteArray json(const QJsonObject& o) { return QJsonDocument(o).toJson(); }

QJsonObject notebookJson(const QJsonArray& cells, const QJsonObject& metadata = {}, int format = 4)
{
    return {{"cells", cells}, {"metadata", metadata}, {"nbformat", format}, {"nbformat_minor", 4}};
}

QJsonObject codeCell(const QJsonValue& source, const QJsonArray& outputs = {})
{
    return {{"cell_type", "code"}, {"metadata", QJsonObject{}}, {"source", source},
            {"outputs", outputs}, {"execution_count", QJsonValue()}};
}

QJsonObject textCell(const QString& type, const QJsonValue& source)
{
    return {{"cell_type", type}, {"metadata", QJsonObject{}}, {"source", source}};
}

NotebookCell cell(NotebookCell::Type type, const QString& source)
{
    NotebookCell c;
    c.type = type;
    c.source = source;
    return c;
}

QString sources(const QList<NotebookCell>& cells)
{
    QStringList out;
    for (const NotebookCell& c : cells)
        out << notebookCellTypeName(c.type) + QStringLiteral(":") + c.source;
    return out.join(QStringLiteral("|"));
}

const QByteArray kPng = QByteArray::fromHex("89504e470d0a1a0a") + QByteArray("not really a picture");

} // namespace

class TestIpynb : public QObject {
    Q_OBJECT
private slots:
    void readsCellsAsPercentText()
    {
        const QJsonArray cells{
            textCell("markdown", QJsonArray{"# Title\n", "\n", "Some *text*."}),
            codeCell("x = 1\nprint(x)"),
            codeCell(QJsonArray{"def f():\n", "    return 2\n"}),
            textCell("raw", "raw text\nline 2"),
        };
        const QJsonObject meta{{"kernelspec", QJsonObject{{"name", "python3"}, {"language", "python"}}}};
        QString error;
        const auto nb = IpynbReader::read(json(notebookJson(cells, meta)), &error);
        QVERIFY2(nb, qPrintable(error));
        QCOMPARE(nb->language, Language::Python);
        QCOMPARE(nb->cells.size(), 4);
        QCOMPARE(nb->cells.at(2).source, QStringLiteral("def f():\n    return 2\n"));
        const QString text = PercentFormat::toText(nb->cells, nb->language);
        QCOMPARE(text, QStringLiteral("# %% [markdown]\n# # Title\n#\n# Some *text*.\n\n"
                                      "# %%\nx = 1\nprint(x)\n\n"
                                      "# %%\ndef f():\n    return 2\n\n\n"
                                      "# %% [raw]\n# raw text\n# line 2\n"));
        QCOMPARE(sources(PercentFormat::fromText(text, Language::Python)), sources(nb->cells));
    }

    void percentTextRoundTrips_data()
    {
        QTest::addColumn<int>("language");
        QTest::addColumn<QStringList>("cells"); // "c:", "m:", "r:" then the source
        QTest::newRow("plain") << 0 << QStringList{"c:a = 1", "c:print(a)"};
        QTest::newRow("empty cells") << 0 << QStringList{"c:", "m:", "c:", "r:"};
        QTest::newRow("blank lines kept") << 0 << QStringList{"c:\n\na\n\n\nb\n\n", "m:\n\ntext\n\n", "c:x\n"};
        QTest::newRow("markdown with hashes") << 0 << QStringList{"m:# H1\n## H2\n#not a heading\n  indented", "c:1"};
        QTest::newRow("javascript") << 1 << QStringList{"m:# Notes\n\n- a", "c:const a = 1;\nconsole.log(a)", "r:raw // x"};
        QTest::newRow("one cell") << 0 << QStringList{"c:only"};
        QTest::newRow("none") << 0 << QStringList{};
    }
    void percentTextRoundTrips()
    {
        QFETCH(int, language);
        QFETCH(QStringList, cells);
        const Language lang = language ? Language::JavaScript : Language::Python;
        QList<NotebookCell> in;
        for (const QString& c : cells)
            in << cell(c.startsWith('m') ? NotebookCell::Type::Markdown
                       : c.startsWith('r') ? NotebookCell::Type::Raw : NotebookCell::Type::Code,
                       c.mid(2));
        const QString text = PercentFormat::toText(in, lang);
        QCOMPARE(sources(PercentFormat::fromText(text, lang)), sources(in));
        // The editor's own separator test sees the same cells.
        int separators = 0;
        for (const QString& line : text.split('\n'))
            separators += PercentFormat::isSeparator(line, lang);
        QCOMPARE(separators, int(in.size()));
    }

    void textBeforeTheFirstSeparatorIsACell()
    {
        const auto cells = PercentFormat::fromText(QStringLiteral("import os\n\n# %%\nx\n"), Language::Python);
        QCOMPARE(sources(cells), QStringLiteral("code:import os|code:x"));
        QCOMPARE(cells.at(0).line, 1); // where a run of the cell starts (CodeEditor::currentCell)
        QCOMPARE(cells.at(1).line, 4);
        QCOMPARE(PercentFormat::fromText(QStringLiteral("\n\n# %% [md]\n# hi\n"), Language::Python).size(), 1);
        QCOMPARE(PercentFormat::fromText(QStringLiteral("no cells at all\nprint(1)"), Language::Python).size(), 1);
        // Jupytext's header with a title and attributes is still a markdown cell.
        QCOMPARE(PercentFormat::fromText(QStringLiteral("# %% Intro [markdown] tags=[\"x\"]\n# hi\n"), Language::Python)
                     .value(0).type, NotebookCell::Type::Markdown);
    }

    void malformedNotebooksAreRefusedWithAReason_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{\n  \"cells\": [\n  oops\n]}") << "not valid JSON";
        QTest::newRow("json line") << QByteArray("{\n  \"cells\": [\n  oops\n]}") << "at line 3";
        QTest::newRow("empty file") << QByteArray() << "not valid JSON";
        QTest::newRow("array") << QByteArray("[1, 2]") << "not an object";
        QTest::newRow("no nbformat") << json({{"cells", QJsonArray{}}}) << "no nbformat version";
        QTest::newRow("nbformat 3") << json(notebookJson({}, {}, 3)) << "nbformat 3, an old format";
        QTest::newRow("nbformat 5") << json(notebookJson({}, {}, 5)) << "nbformat 5; Sandpad reads nbformat 4";
        QTest::newRow("no cells") << json({{"nbformat", 4}, {"nbformat_minor", 5}, {"metadata", QJsonObject{}}})
                                  << "no list of cells";
        QTest::newRow("unknown type") << json(notebookJson({codeCell("1"), textCell("heading", "x")}))
                                      << "Cell 2 has an unknown type \"heading\"";
        QTest::newRow("no type") << json(notebookJson({QJsonObject{{"source", "x"}}})) << "Cell 1 has no cell_type";
        QTest::newRow("no source") << json(notebookJson({QJsonObject{{"cell_type", "code"}, {"metadata", QJsonObject{}}}}))
                                   << "Cell 1 (code) has no source";
        QTest::newRow("source number") << json(notebookJson({codeCell(42)})) << "neither text nor a list of text";
        QTest::newRow("source list of numbers") << json(notebookJson({codeCell(QJsonArray{"a", 1})}))
                                                << "neither text nor a list of text";
        QTest::newRow("cell not object") << json(notebookJson({QJsonValue("x")})) << "Cell 1 is not a JSON object";
        QTest::newRow("outputs not list")
            << json(notebookJson({QJsonObject{{"cell_type", "code"}, {"source", "1"}, {"outputs", 3}}}))
            << "outputs are not a list";
        QTest::newRow("R kernel") << json(notebookJson({codeCell("1")}, {{"kernelspec", QJsonObject{{"name", "ir"}, {"language", "R"}, {"display_name", "R 4.2"}}}}))
                                  << "kernel is R 4.2 (R): Sandpad runs Python and JavaScript";
    }
    void malformedNotebooksAreRefusedWithAReason()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        QString error;
        QVERIFY(!IpynbReader::read(bytes, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void kernelLanguagePicksTheTabsLanguage()
    {
        QString error;
        auto nb = IpynbReader::read(json(notebookJson({}, {{"kernelspec", QJsonObject{{"name", "javascript"}, {"language", "javascript"}}}})), &error);
        QVERIFY2(nb, qPrintable(error));
        QCOMPARE(nb->language, Language::JavaScript);
        nb = IpynbReader::read(json(notebookJson({}, {{"language_info", QJsonObject{{"name", "javascript"}}}})), &error);
        QVERIFY(nb);
        QCOMPARE(nb->language, Language::JavaScript);
        nb = IpynbReader::read(json(notebookJson({})), &error); // no kernel named: Jupyter's default
        QVERIFY(nb);
        QCOMPARE(nb->language, Language::Python);
    }

    void outputsOfARun()
    {
        ExecutionResult r;
        r.status = RunStatus::Error;
        r.stdoutText = QStringLiteral("one\ntwo\n");
        r.stderrText = QStringLiteral("warn\n");
        r.result = QStringLiteral("42");
        r.executionCount = 3;
        r.charts.append(RunChart{RunChart::Kind::Png, kPng, {}});
        RunChart interactive;
        interactive.kind = RunChart::Kind::Interactive;
        QVERIFY(interactive.setSpec(QJsonObject{{"type", "bar"}, {"title", "Sales"}, {"elements", QJsonArray{}}}));
        r.charts.append(interactive);
        r.error = RunError{QStringLiteral("ZeroDivisionError"), QStringLiteral("division by zero"),
                           QStringLiteral("Traceback (most recent call last):\n  File \"a.py\", line 2\nZeroDivisionError: division by zero\n")};
        const QJsonArray outputs = CellOutputs::fromResult(r);
        QStringList types;
        for (const QJsonValue& o : outputs)
            types << o["output_type"].toString();
        QCOMPARE(types, (QStringList{"stream", "stream", "display_data", "display_data", "execute_result", "error"}));
        QCOMPARE(outputs[0]["text"].toArray(), (QJsonArray{"one\n", "two\n"}));
        QCOMPARE(outputs[1]["name"].toString(), QStringLiteral("stderr"));
        QCOMPARE(QByteArray::fromBase64(outputs[2]["data"]["image/png"].toString().toLatin1()), kPng);
        QVERIFY(outputs[3]["data"]["text/plain"].toArray()[0].toString().contains("Sales"));
        QCOMPARE(outputs[4]["execution_count"].toInt(), 3);
        QCOMPARE(outputs[5]["ename"].toString(), QStringLiteral("ZeroDivisionError"));
        QCOMPARE(outputs[5]["traceback"].toArray().size(), 3);

        ExecutionResult timeout;
        timeout.status = RunStatus::Timeout;
        const QJsonArray t = CellOutputs::fromResult(timeout);
        QCOMPARE(t.size(), 1);
        QVERIFY(t[0]["text"].toArray()[0].toString().contains("timed out"));

        // A notebook holding every kind is valid to nbformat.
        Notebook nb;
        NotebookCell c = cell(NotebookCell::Type::Code, "1/0");
        c.outputs = outputs;
        c.executionCount = 3;
        nb.cells << c;
        NotebookCell c2 = cell(NotebookCell::Type::Code, "sleep()");
        c2.outputs = t;
        nb.cells << c2;
        const QString problems = nbformatProblems(IpynbWriter::write(nb));
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    // display() and rich results become display_data between the pieces of stdout, with the
    // MIME types Jupyter uses (a table as HTML and text, math as LaTeX, SVG, Markdown).
    void richOutputsOfARun()
    {
        ExecutionResult r;
        r.status = RunStatus::Success;
        r.stdoutText = QStringLiteral("before\nafter\n");
        RunOutput table;
        table.type = RunOutput::Type::Table;
        table.stdoutBytes = 7; // after "before\n"
        table.columns = {QStringLiteral("a"), QStringLiteral("<b>")};
        table.dtypes = {QStringLiteral("int64"), QStringLiteral("object")};
        table.index = {QStringLiteral("0")};
        table.rows = {{QStringLiteral("1"), QStringLiteral("<script>")}};
        table.totalRows = 1;
        RunOutput math;
        math.type = RunOutput::Type::Math;
        math.stdoutBytes = 13;
        math.text = QStringLiteral("x^{2}");
        math.plain = QStringLiteral("x**2");
        math.png = kPng;
        RunOutput markdown;
        markdown.type = RunOutput::Type::Markdown;
        markdown.stdoutBytes = 13;
        markdown.text = QStringLiteral("# Hi");
        RunOutput svg;
        svg.type = RunOutput::Type::Svg;
        svg.stdoutBytes = 13;
        svg.text = QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
        r.outputs = {table, math, markdown, svg};
        const QJsonArray outputs = CellOutputs::fromResult(r);
        QStringList types;
        for (const QJsonValue& o : outputs)
            types << o["output_type"].toString();
        QCOMPARE(types, (QStringList{"stream", "display_data", "stream", "display_data", "display_data", "display_data"}));
        QCOMPARE(outputs[0]["text"].toArray(), (QJsonArray{"before\n"}));
        QCOMPARE(outputs[2]["text"].toArray(), (QJsonArray{"after\n"}));
        const QString allHtml = [&] { QString t; for (const QJsonValue& l : outputs[1]["data"]["text/html"].toArray()) t += l.toString(); return t; }();
        QVERIFY2(allHtml.contains(QStringLiteral("&lt;script&gt;")) && !allHtml.contains(QStringLiteral("<script>")), qPrintable(allHtml));
        QVERIFY(outputs[1]["data"].toObject().contains("text/plain"));
        QCOMPARE(outputs[3]["data"]["text/latex"].toArray()[0].toString(), QStringLiteral("$x^{2}$"));
        QCOMPARE(QByteArray::fromBase64(outputs[3]["data"]["image/png"].toString().toLatin1()), kPng);
        QCOMPARE(outputs[4]["data"]["text/markdown"].toArray()[0].toString(), QStringLiteral("# Hi"));
        QVERIFY(outputs[5]["data"].toObject().contains("image/svg+xml"));
        Notebook nb;
        NotebookCell c = cell(NotebookCell::Type::Code, "display(df)");
        c.outputs = outputs;
        nb.cells << c;
        const QString problems = nbformatProblems(IpynbWriter::write(nb));
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    void writtenNotebooksAreValidAndKeepWhatWasRead()
    {
        const QJsonArray cells{
            QJsonObject{{"cell_type", "markdown"}, {"id", "intro"}, {"metadata", QJsonObject{{"tags", QJsonArray{"keep"}}}},
                        {"source", "# Hi"}, {"attachments", QJsonObject{{"a.png", QJsonObject{{"image/png", "AAAA"}}}}}},
            QJsonObject{{"cell_type", "code"}, {"id", "intro"}, {"metadata", QJsonObject{}}, {"source", "print(1)"},
                        {"outputs", QJsonArray{QJsonObject{{"output_type", "stream"}, {"name", "stdout"}, {"text", "1\n"}}}},
                        {"execution_count", 7}},
            QJsonObject{{"cell_type", "code"}, {"id", "bad id!"}, {"metadata", QJsonObject{}}, {"source", ""},
                        {"outputs", QJsonArray{}}, {"execution_count", QJsonValue()}},
            textCell("raw", "raw"),
        };
        const QJsonObject meta{{"kernelspec", QJsonObject{{"name", "python3"}, {"language", "python"}, {"display_name", "Python 3"}}},
                               {"authors", QJsonArray{"someone"}}};
        QString error;
        const auto nb = IpynbReader::read(json(notebookJson(cells, meta)), &error);
        QVERIFY2(nb, qPrintable(error));
        const QByteArray written = IpynbWriter::write(*nb);
        const QString problems = nbformatProblems(written);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));

        const QJsonObject top = QJsonDocument::fromJson(written).object();
        QCOMPARE(top["nbformat"].toInt(), 4);
        QCOMPARE(top["nbformat_minor"].toInt(), 5);
        QCOMPARE(top["metadata"]["authors"].toArray(), (QJsonArray{"someone"}));
        const QJsonArray out = top["cells"].toArray();
        QCOMPARE(out[0]["id"].toString(), QStringLiteral("intro"));
        QCOMPARE(out[0]["metadata"]["tags"].toArray(), (QJsonArray{"keep"}));
        QVERIFY(out[0].toObject().contains("attachments"));
        QSet<QString> ids;
        for (const QJsonValue& c : out)
            ids.insert(c["id"].toString());
        QCOMPARE(ids.size(), 4); // the duplicate and the invalid id were replaced
        QCOMPARE(out[1]["execution_count"].toInt(), 7);
        QCOMPARE(out[1]["outputs"].toArray().size(), 1);

        const auto again = IpynbReader::read(written, &error);
        QVERIFY2(again, qPrintable(error));
        QCOMPARE(sources(again->cells), sources(nb->cells));
    }

    void importExportImportKeepsTheCells()
    {
        const QJsonArray cells{textCell("markdown", QJsonArray{"# A notebook\n", "\n", "with text"}),
                               codeCell(QJsonArray{"import math\n", "\n", "math.pi"}), textCell("raw", "\\raw"),
                               codeCell("")};
        QString error;
        const auto first = IpynbReader::read(json(notebookJson(cells)), &error);
        QVERIFY2(first, qPrintable(error));
        // Into a tab's text and back, then out as a file and in again.
        Notebook fromTab;
        fromTab.language = first->language;
        fromTab.cells = PercentFormat::fromText(PercentFormat::toText(first->cells, first->language), first->language);
        const QByteArray written = IpynbWriter::write(fromTab);
        QVERIFY2(nbformatProblems(written).isEmpty(), qPrintable(nbformatProblems(written)));
        const auto second = IpynbReader::read(written, &error);
        QVERIFY2(second, qPrintable(error));
        QCOMPARE(sources(second->cells), sources(first->cells));
        QCOMPARE(PercentFormat::toText(second->cells, second->language), PercentFormat::toText(first->cells, first->language));
    }

    void javascriptNotebookIsWrittenAsJavascript()
    {
        Notebook nb;
        nb.language = Language::JavaScript;
        nb.cells << cell(NotebookCell::Type::Code, "console.log(1)");
        const QByteArray written = IpynbWriter::write(nb);
        QVERIFY2(nbformatProblems(written).isEmpty(), qPrintable(nbformatProblems(written)));
        QString error;
        const auto back = IpynbReader::read(written, &error);
        QVERIFY(back);
        QCOMPARE(back->language, Language::JavaScript);
        // A Python notebook's metadata, written for a tab switched to JavaScript, names JavaScript.
        const QJsonObject meta = IpynbWriter::metadataFor(
            {{"kernelspec", QJsonObject{{"name", "python3"}, {"language", "python"}}}}, Language::JavaScript);
        QCOMPARE(meta["kernelspec"]["language"].toString(), QStringLiteral("javascript"));
    }

    void htmlReportIsSelfContainedAndEscaped()
    {
        Notebook nb;
        nb.cells << cell(NotebookCell::Type::Markdown,
                         "# Report <script>alert(1)</script>\n\nSome **bold** and `<b>code</b>`, [a link](https://example.org) "
                         "and [bad](javascript:alert(1)) and ![img](https://example.org/x.png)\n\n- one\n- two");
        NotebookCell code = cell(NotebookCell::Type::Code, "print('<script>')\nif a < b and c > d: pass");
        ExecutionResult r;
        r.stdoutText = QStringLiteral("<script>alert('out')</script>\n");
        r.result = QStringLiteral("<img src=x onerror=alert(1)>");
        r.charts.append(RunChart{RunChart::Kind::Png, kPng, {}});
        r.error = RunError{"ValueError", "<bad>", "\x1b[31mTraceback\x1b[0m\nValueError: <bad>"};
        code.outputs = CellOutputs::fromResult(r);
        code.outputs.append(QJsonObject{{"output_type", "display_data"}, {"metadata", QJsonObject{}},
                                        {"data", QJsonObject{{"text/html", "<script>x()</script>"}, {"text/plain", "a table"}}}});
        nb.cells << code << cell(NotebookCell::Type::Raw, "</pre><script>");
        const QString html = HtmlReport::render(nb, QStringLiteral("t <&> \"x\""));
        QVERIFY2(!html.contains(QStringLiteral("<script"), Qt::CaseInsensitive), qPrintable(html));
        QVERIFY(!html.contains(QStringLiteral("<img src=x")));
        QVERIFY(!html.contains(QStringLiteral("javascript:")));
        QVERIFY(!html.contains(QStringLiteral("src=\"http")));
        QVERIFY(!html.contains(QStringLiteral("\x1b")));
        QVERIFY(html.contains(QStringLiteral("<title>t &lt;&amp;&gt; &quot;x&quot;</title>")));
        QVERIFY(html.contains(QStringLiteral("src=\"data:image/png;base64,") + QString::fromLatin1(kPng.toBase64())));
        QVERIFY(html.contains(QStringLiteral("if a &lt; b and c &gt; d: pass")));
        QVERIFY(html.contains(QStringLiteral("<strong>bold</strong>")));
        QVERIFY(html.contains(QStringLiteral("<code>&lt;b&gt;code&lt;/b&gt;</code>")));
        QVERIFY(html.contains(QStringLiteral("<a href=\"https://example.org\">a link</a>")));
        QVERIFY(html.contains(QStringLiteral("<li>two</li>")));
        QVERIFY(html.contains(QStringLiteral("a table")));
        QVERIFY(html.contains(QStringLiteral("default-src 'none'")));
    }

    void htmlTablesAreRebuiltOrRefused()
    {
        // What pandas writes (a scoped style, attributes) becomes a bare table.
        const QString pandas = "<div>\n<style scoped>\n .dataframe tbody tr th { vertical-align: top; }\n</style>\n"
                               "<table border=\"1\" class=\"dataframe\">\n<thead><tr style=\"text-align: right;\"><th></th><th>a &amp; b</th></tr></thead>\n"
                               "<tbody><tr><th>0</th><td>1 < 2 & 3</td></tr></tbody></table></div>";
        QCOMPARE(SafeTableHtml::sanitize(pandas).value_or("refused"),
                 QStringLiteral("<div>\n\n<table>\n<thead><tr><th></th><th>a &amp; b</th></tr></thead>\n"
                                "<tbody><tr><th>0</th><td>1 &lt; 2 &amp; 3</td></tr></tbody></table></div>"));
        QVERIFY(!SafeTableHtml::sanitize("<table><tr><td><script>x()</script></td></tr></table>"));
        QVERIFY(!SafeTableHtml::sanitize("<table><tr><td><img src=x onerror=alert(1)></td></tr></table>"));
        QVERIFY(!SafeTableHtml::sanitize("<table><tr><td><a href='http://x'>x</a></td></tr></table>"));
        QVERIFY(!SafeTableHtml::sanitize("<b>no table</b>"));
        QCOMPARE(SafeTableHtml::sanitize("<table onmouseover=\"alert(1)\"><tr><td>1</td></tr></table>").value_or("refused"),
                 QStringLiteral("<table><tr><td>1</td></tr></table>"));
        QCOMPARE(SafeTableHtml::sanitize("<table><tr><td>\"quoted\" &bogus</td></tr></table>").value_or("refused"),
                 QStringLiteral("<table><tr><td>&quot;quoted&quot; &amp;bogus</td></tr></table>"));
        // <style> with markup inside is not a style block: refused, not half-stripped.
        QVERIFY(!SafeTableHtml::sanitize("<style><script>x()</script></style><table></table>"));

        Notebook nb;
        NotebookCell c = cell(NotebookCell::Type::Code, "df");
        c.outputs.append(QJsonObject{{"output_type", "execute_result"}, {"metadata", QJsonObject{}}, {"execution_count", 1},
                                     {"data", QJsonObject{{"text/html", pandas}, {"text/plain", "   a & b\n0  1 < 2 & 3"}}}});
        c.outputs.append(QJsonObject{{"output_type", "display_data"}, {"metadata", QJsonObject{}},
                                     {"data", QJsonObject{{"image/svg+xml", "<svg xmlns='http://www.w3.org/2000/svg'><script>x()</script></svg>"}}}});
        c.outputs.append(QJsonObject{{"output_type", "display_data"}, {"metadata", QJsonObject{}},
                                     {"data", QJsonObject{{"text/markdown", "**md** <i>x</i>"}, {"text/plain", "md"}}}});
        nb.cells << c;
        const QString html = HtmlReport::render(nb, "t");
        QVERIFY(html.contains("<td>1 &lt; 2 &amp; 3</td>"));
        QVERIFY(!html.contains("<script"));
        QVERIFY(html.contains("src=\"data:image/svg+xml;base64,"));
        QVERIFY(html.contains("<strong>md</strong> &lt;i&gt;x&lt;/i&gt;"));
    }

    void markdownBlocks()
    {
        QCOMPARE(MarkdownHtml::toHtml("## Two\ntext\nmore\n\n1. a\n2. b\n\n```\nx < 1\n```\n> quoted\n\n---"),
                 QStringLiteral("<h2>Two</h2>\n<p>text more</p>\n<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n"
                                "<pre><code>x &lt; 1</code></pre>\n<blockquote>\n<p>quoted</p>\n</blockquote>\n<hr>\n"));
        QCOMPARE(MarkdownHtml::inlineHtml("*it* and 2*3*4 and snake_case_name"),
                 QStringLiteral("<em>it</em> and 2*3*4 and snake_case_name"));
    }
};

QTEST_GUILESS_MAIN(TestIpynb)
#include "test_ipynb.moc"
