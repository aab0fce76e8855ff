// display() and rich results in the wrappers themselves (resources/runtime/rich_display.py and
// wrapper.mjs's display block), run directly by /usr/bin/python3 and node (no sandbox): what
// each kind of object becomes in result.json's `outputs`, its place in stdout, the caps.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Ran {
    QByteArray stdoutBytes, stderrBytes;
    QJsonObject result;
    QDir out;
    QJsonArray outputs() const { return result.value("outputs").toArray(); }
    QJsonObject table(int i) const
    {
        QFile f(out.filePath(outputs()[i].toObject().value("file").toString()));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(f.readAll()).object();
    }
    QImage image(int i) const { return QImage(out.filePath(outputs()[i].toObject().value("file").toString())); }
};

} // namespace

class TestDisplayWrapper : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    Ran run(const QString& language, const QString& code)
    {
        const QDir dir(m_dir.path());
        QDir(dir.filePath("out")).removeRecursively();
        const QString runtime = QStringLiteral(SANDPAD_SOURCE_DIR "/resources/runtime/");
        for (const char* name : {"wrapper.py", "chart_extract.py", "rich_display.py", "run_files.py", "variables.py",
                                 "wrapper.mjs", "js_program.mjs", "run_files.cjs"}) {
            QFile::remove(dir.filePath(name));
            QFile::copy(runtime + name, dir.filePath(name));
        }
        const bool py = language == u"python";
        const QString main = dir.filePath(py ? "main.py" : "main.mjs");
        QFile f(main);
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(code.toUtf8());
        f.close();
        QFile m(dir.filePath("manifest.json"));
        m.open(QIODevice::WriteOnly | QIODevice::Truncate);
        m.write(QJsonDocument(QJsonObject{{"language", language}, {"title", "t"}, {"code_path", main}, {"out_dir", dir.filePath("out")}}).toJson());
        m.close();
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("MPLBACKEND", "Agg");
        env.insert("MPLCONFIGDIR", dir.filePath("mpl"));
        p.setProcessEnvironment(env);
        p.start(py ? "/usr/bin/python3" : "node", {dir.filePath(py ? "wrapper.py" : "wrapper.mjs"), m.fileName()});
        p.waitForFinished(180000);
        Ran r;
        r.stdoutBytes = p.readAllStandardOutput();
        r.stderrBytes = p.readAllStandardError();
        r.out = QDir(dir.filePath("out"));
        QFile result(r.out.filePath("result.json"));
        if (result.open(QIODevice::ReadOnly))
            r.result = QJsonDocument::fromJson(result.readAll()).object();
        return r;
    }

    static QString types(const Ran& r)
    {
        QStringList list;
        for (const QJsonValue& o : r.outputs())
            list << o.toObject().value("type").toString();
        return list.join(',');
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QProcess probe;
        probe.start("/usr/bin/python3", {"-c", "import pandas, sympy, matplotlib"});
        probe.waitForFinished(60000);
        if (probe.exitCode() != 0)
            QSKIP("python3 with pandas, sympy and matplotlib is needed");
    }

    void dataFrameInOrderWithText()
    {
        const Ran r = run("python", QStringLiteral(
            "import pandas as pd\nprint('before é')\n"
            "df = pd.DataFrame({'a': [1, 2, 3], 'b': [0.5, None, 2.25], 'c': ['x', 'y', 'z']}, index=pd.Index([10, 20, 30], name='id'))\n"
            "display(df)\nprint('after')\ndisplay(df['b'])\n"));
        QVERIFY2(r.result.value("status") == "success", r.stderrBytes.constData());
        QCOMPARE(r.stdoutBytes, QByteArray("before \xc3\xa9\nafter\n"));
        QCOMPARE(types(r), QStringLiteral("table,table"));
        QCOMPARE(r.outputs()[0].toObject().value("stdout_offset").toInt(), 10); // "before é\n" is 10 bytes
        QCOMPARE(r.outputs()[1].toObject().value("stdout_offset").toInt(), 16);
        const QJsonObject t = r.table(0);
        QCOMPARE(t.value("columns").toArray(), (QJsonArray{"a", "b", "c"}));
        QCOMPARE(t.value("dtypes").toArray(), (QJsonArray{"int64", "float64", "object"}));
        QCOMPARE(t.value("index_name").toString(), QStringLiteral("id"));
        QCOMPARE(t.value("index").toArray(), (QJsonArray{"10", "20", "30"}));
        QCOMPARE(t.value("rows").toArray()[1].toArray(), (QJsonArray{"2", "NaN", "y"}));
        // Floats as pandas prints the column (issue 14), not repr's digits.
        QCOMPARE(t.value("rows").toArray()[0].toArray(), (QJsonArray{"1", "0.50", "x"}));
        QCOMPARE(t.value("rows").toArray()[2].toArray(), (QJsonArray{"3", "2.25", "z"}));
        const QJsonObject series = r.table(1);
        QCOMPARE(series.value("columns").toArray(), (QJsonArray{"b"}));
        QCOMPARE(series.value("dtypes").toArray(), (QJsonArray{"float64"}));
    }

    void floatColumnsArePrintedAsPandasDoes()
    {
        const Ran r = run("python", QStringLiteral(
            "import pandas as pd\n"
            "display(pd.DataFrame({'x': [0.1 + 0.2, 1 / 3, 12345.678901], 'tiny': [1e-9, 2.5, float('nan')], 'whole': [1.0, 2.0, 3.0]}))\n"));
        QVERIFY2(r.result.value("status") == "success", r.stderrBytes.constData());
        const QJsonArray rows = r.table(0).value("rows").toArray();
        QCOMPARE(rows[0].toArray(), (QJsonArray{"0.300000", "1.000000e-09", "1.0"}));
        QCOMPARE(rows[1].toArray(), (QJsonArray{"0.333333", "2.500000e+00", "2.0"}));
        QCOMPARE(rows[2].toArray(), (QJsonArray{"12345.678901", "NaN", "3.0"}));
    }

    void largeFrameIsCappedWithItsTotal()
    {
        const Ran r = run("python", QStringLiteral(
            "import numpy as np, pandas as pd\ndf = pd.DataFrame(np.arange(250000 * 4).reshape(250000, 4), columns=list('abcd'))\n"
            "display(df)\ndisplay(pd.DataFrame(np.zeros((100000, 10))))\n"));
        QVERIFY2(r.result.value("status") == "success", r.stderrBytes.constData());
        QCOMPARE(types(r), QStringLiteral("table,table"));
        const QJsonObject first = r.outputs()[0].toObject();
        QCOMPARE(first.value("rows").toInt(), 100000);
        QCOMPARE(first.value("total_rows").toInt(), 250000);
        // The run's 1,000,000 cells: 400,000 went to the first, so 60,000 rows of 10 are left.
        QCOMPARE(r.outputs()[1].toObject().value("rows").toInt(), 60000);
        QCOMPARE(r.outputs()[1].toObject().value("total_rows").toInt(), 100000);
    }

    void sympyIsMathWithItsTextForm()
    {
        const Ran r = run("python", QStringLiteral(
            "import sympy as sp\nx = sp.symbols('x')\ndisplay(sp.Integral(sp.exp(-x**2), (x, -sp.oo, sp.oo)))\n"
            "display(sp.Matrix([[1, x], [x, 1]]))\nresult = sp.sqrt(x) / 2\n"));
        QVERIFY2(r.result.value("status") == "success", r.stderrBytes.constData());
        QCOMPARE(types(r), QStringLiteral("math,math,math"));
        const QJsonObject integral = r.outputs()[0].toObject();
        QCOMPARE(integral.value("text").toString(), QStringLiteral("Integral(exp(-x**2), (x, -oo, oo))"));
        QVERIFY(integral.value("latex").toString().startsWith("\\int"));
        QVERIFY2(!r.image(0).isNull(), "the integral is drawn by mathtext");
        // A matrix is beyond mathtext: text and LaTeX only.
        QVERIFY(!r.outputs()[1].toObject().contains("file"));
        QVERIFY(r.outputs()[1].toObject().value("latex").toString().contains("matrix"));
        // `result` as math too, and its text as before.
        QCOMPARE(r.outputs()[2].toObject().value("text").toString(), QStringLiteral("sqrt(x)/2"));
        QCOMPARE(r.result.value("result").toString(), QStringLiteral("sqrt(x)/2"));
    }

    void helpersAndReprMethods()
    {
        const Ran r = run("python", QStringLiteral(
            "from sandpad import Markdown, SVG, HTML, Math, Latex\n"
            "class P:\n    def _repr_png_(self):\n"
            "        import base64\n        return base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==')\n"
            "class L:\n    def _repr_latex_(self):\n        return '$\\\\alpha + 1$'\n"
            "display(Markdown('# T'), SVG('<svg xmlns=\"http://www.w3.org/2000/svg\"/>'), HTML('<b>x</b>'), Math('x^2'), Latex('$y$'), P(), L(), 42, 's')\n"
            "display({'type': 'bar', 'elements': [{'label': 'a', 'value': 1}]})\n"
            "import IPython.display as ipd\ndisplay(ipd.Markdown('**ipy**'))\n"));
        QVERIFY2(r.result.value("status") == "success", r.stderrBytes.constData());
        QCOMPARE(types(r), QStringLiteral("markdown,svg,html,math,math,image,math,text,text,markdown"));
        QCOMPARE(r.outputs()[2].toObject().value("text").toString(), QStringLiteral("<b>x</b>")); // HTML as its source (shown reduced by SafeHtml)
        QCOMPARE(r.outputs()[3].toObject().value("latex").toString(), QStringLiteral("x^2"));
        QCOMPARE(r.outputs()[6].toObject().value("latex").toString(), QStringLiteral("\\alpha + 1"));
        QCOMPARE(r.outputs()[7].toObject().value("text").toString(), QStringLiteral("42"));
        QCOMPARE(r.outputs()[8].toObject().value("text").toString(), QStringLiteral("'s'"));
        QCOMPARE(r.outputs()[9].toObject().value("text").toString(), QStringLiteral("**ipy**"));
        QCOMPARE(r.image(5).size(), QSize(1, 1));
        // The chart-shaped dict is one of the run's native charts.
        QCOMPARE(r.result.value("charts").toArray().size(), 1);
        QCOMPARE(r.result.value("charts").toArray()[0].toObject().value("kind").toString(), QStringLiteral("interactive"));
    }

    void figureShownOnceAndPilImages()
    {
        const Ran r = run("python", QStringLiteral(
            "import matplotlib.pyplot as plt\nfig = plt.figure(figsize=(2, 1))\nplt.plot([1, 2])\ndisplay(fig)\n"
            "plt.figure()\nplt.plot([3, 1])\n"
            "try:\n    from PIL import Image\n    display(Image.new('RGB', (3, 2), 'red'))\nexcept ImportError:\n    print('no PIL')\n"));
        QVERIFY2(r.result.value("status") == "success", r.stderrBytes.constData());
        QVERIFY(types(r).startsWith("image"));
        QVERIFY(!r.image(0).isNull());
        // The displayed figure is not a chart again; the other open one is.
        QCOMPARE(r.result.value("charts").toArray().size(), 1);
        if (!r.stdoutBytes.contains("no PIL")) {
            QCOMPARE(types(r), QStringLiteral("image,image"));
            QCOMPARE(r.image(1).size(), QSize(3, 2));
        }
    }

    void plainResultsStayText()
    {
        const Ran r = run("python", QStringLiteral("result = [1, 2]\n"));
        QCOMPARE(r.result.value("result").toString(), QStringLiteral("[1, 2]"));
        QVERIFY(!r.result.contains("outputs"));
    }

    void displayInJavaScript()
    {
        const Ran r = run("javascript", QStringLiteral(
            "console.log('hi');\n"
            "display([{a: 1, b: 'x'}, {a: 2, c: true}], {type: 'markdown', text: '**b**'}, '<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>',\n"
            "        {type: 'math', latex: 'x^2', text: 'x**2'}, 5);\nconsole.log('bye');\n"));
        QVERIFY2(r.result.value("status") == "success", r.stderrBytes.constData());
        QCOMPARE(r.stdoutBytes, QByteArray("hi\nbye\n"));
        QCOMPARE(types(r), QStringLiteral("table,markdown,svg,math,text"));
        QCOMPARE(r.outputs()[0].toObject().value("stdout_offset").toInt(), 3);
        const QJsonObject t = r.table(0);
        QCOMPARE(t.value("columns").toArray(), (QJsonArray{"a", "b", "c"}));
        QCOMPARE(t.value("dtypes").toArray(), (QJsonArray{"number", "string", "boolean"}));
        QCOMPARE(t.value("rows").toArray()[1].toArray(), (QJsonArray{"2", "", "true"}));
    }
};

QTEST_GUILESS_MAIN(TestDisplayWrapper)
#include "test_display_wrapper.moc"
