// Runs resources/runtime/wrapper.py and wrapper.mjs directly (no sandbox, no Executor) on programs
// prepared by RuntimeProgram, and checks what they report through the result channel.

#include "core/charts/ChartColumns.h"
#include "core/charts/ChartSpec.h"
#include "core/runtime/ResultFrames.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/runtime/WrapperResult.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <fcntl.h>
#include <functional>
#include <unistd.h>

using namespace sandpad;

namespace {

const QString kPython = QStringLiteral("/usr/bin/python3");

struct Run {
    int exitCode = -1;
    QByteArray out, err;
    QByteArray resultJson;
    QJsonObject result;       // result.json
    QString outDir;
    QMap<QString, QByteArray> frames; // fd channel only

    QJsonObject error() const { return result.value("error").toObject(); }
    QJsonArray charts() const { return result.value("charts").toArray(); }
    // The binary columns of its charts (docs/runtime-protocol.md, "Binary columns").
    ChartColumns columns() const
    {
        if (frames.contains(QStringLiteral("chart-columns")))
            return ChartColumns(frames.value(QStringLiteral("chart-columns")));
        QFile file(outDir + QStringLiteral("/chart-columns"));
        return ChartColumns(file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray());
    }
};

} // namespace

class TestWrappers : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_node;
    int m_runs = 0;

    Run run(Language language, const QString& code, const QString& title = QStringLiteral("Untitled 1"),
            const std::function<void(QJsonObject&)>& patchManifest = {}, bool useFd = false)
    {
        Run r;
        const QString dir = m_tmp.filePath(QStringLiteral("run-%1").arg(++m_runs));
        QDir().mkpath(dir);
        const QString interpreter = language == Language::Python ? kPython : m_node;
        const RuntimeProgram program = RuntimeProgram::build(
            RuntimeProgram::Input{language, code, title, dir, interpreter, {}});
        if (!program.ok())
            qFatal("program: %s", qPrintable(program.error));
        for (const SandboxFile& f : program.files) {
            QFile file(f.path);
            if (!file.open(QIODevice::WriteOnly))
                qFatal("cannot write %s", qPrintable(f.path));
            QByteArray content = f.content;
            if (patchManifest && f.path.endsWith(QStringLiteral("manifest.json"))) {
                QJsonObject m = QJsonDocument::fromJson(content).object();
                patchManifest(m);
                content = QJsonDocument(m).toJson();
            }
            file.write(content);
        }
        r.outDir = program.outDir;

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("SANDPAD_RESULT_FD"));
        env.insert(QStringLiteral("MPLCONFIGDIR"), m_tmp.filePath(QStringLiteral("mpl")));
        for (auto it = program.command.env.cbegin(); it != program.command.env.cend(); ++it)
            env.insert(it.key(), it.value());
        int fd = -1;
        const QString framesPath = dir + QStringLiteral("/frames.bin");
        if (useFd) {
            fd = ::open(QFile::encodeName(framesPath).constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (fd < 0)
                qFatal("open frames file");
            env.insert(QStringLiteral("SANDPAD_RESULT_FD"), QString::number(fd)); // inherited: no O_CLOEXEC
        }
        QProcess p;
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(program.command.cwd);
        p.start(program.command.argv.first(), program.command.argv.mid(1));
        p.waitForFinished(120000);
        if (fd >= 0)
            ::close(fd);
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        if (useFd) {
            QFile frames(framesPath);
            frames.open(QIODevice::ReadOnly);
            QString problem;
            const auto files = ResultFrames::parse(frames.readAll(), &problem);
            if (!files)
                qWarning("%s", qPrintable(problem));
            else
                r.frames = *files;
            r.resultJson = r.frames.value(QStringLiteral("result.json"));
        } else {
            QFile file(program.resultPath);
            if (file.open(QIODevice::ReadOnly))
                r.resultJson = file.readAll();
        }
        r.result = QJsonDocument::fromJson(r.resultJson).object();
        if (r.exitCode != 0 || r.result.isEmpty())
            qWarning("exit %d\nstdout: %s\nstderr: %s\nresult: %s", r.exitCode, r.out.constData(),
                     r.err.constData(), r.resultJson.constData());
        // Every result must pass the same validation the Executor applies.
        QString problem;
        if (!r.result.isEmpty() && !WrapperResult::parse(r.resultJson, &problem))
            qWarning("invalid result.json: %s", qPrintable(problem));
        return r;
    }

    Run py(const QString& code, const QString& title = QStringLiteral("Untitled 1"))
    {
        return run(Language::Python, code, title);
    }
    Run js(const QString& code, const QString& title = QStringLiteral("snippet.js"))
    {
        return run(Language::JavaScript, code, title);
    }

    static void checkValid(const Run& r)
    {
        QString problem;
        QVERIFY2(WrapperResult::parse(r.resultJson, &problem), qPrintable(problem));
    }

    static ChartSpec interactiveChart(const Run& r)
    {
        const QJsonArray charts = r.charts();
        for (const QJsonValue& c : charts) {
            if (c.toObject().value("kind").toString() == QStringLiteral("interactive")) {
                const ChartColumns columns = r.columns();
                const ChartParseResult parsed = ChartSpec::parse(c.toObject().value("spec").toObject(), &columns);
                if (!parsed.ok())
                    qFatal("chart: %s", qPrintable(parsed.error));
                return *parsed.spec;
            }
        }
        qFatal("no interactive chart in %s", r.resultJson.constData());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        QVERIFY2(QFile::exists(kPython), "these tests need /usr/bin/python3");
        m_node = QStandardPaths::findExecutable(QStringLiteral("node"));
        QVERIFY2(!m_node.isEmpty(), "these tests need node");
    }

    // --- Python ----------------------------------------------------------------------------
    void printAndResult()
    {
        const Run r = py(QStringLiteral("print('hello')\nresult = 6 * 7\n"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("hello\n"));
        QCOMPARE(r.err, QByteArray());
        checkValid(r);
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("success"));
        QCOMPARE(r.result.value("result").toString(), QStringLiteral("42"));
        QVERIFY(r.result.value("error").isNull());
        QVERIFY(r.charts().isEmpty());
    }
    void resultsAndPrecedence()
    {
        QCOMPARE(py(QStringLiteral("results = [1, 'a']")).result.value("result").toString(), QStringLiteral("[1, 'a']"));
        QCOMPARE(py(QStringLiteral("results = 1\nresult = 'r'")).result.value("result").toString(), QStringLiteral("r"));
        QVERIFY(py(QStringLiteral("x = 1")).result.value("result").isNull());
    }
    void pandasAndSympy()
    {
        const Run r = py(QStringLiteral("import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\n"
                                        "print(df.head())\nresult = df['a'].sum()\n"));
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("success"));
        QVERIFY(r.out.contains("   a  b\n0  1  3\n1  2  4"));
        QCOMPARE(r.result.value("result").toString(), QStringLiteral("3"));
        const Run s = py(QStringLiteral("import sympy as sp\nx = sp.symbols('x')\nresult = sp.diff(x**3 + sp.sin(x), x)\n"));
        QCOMPARE(s.result.value("result").toString(), QStringLiteral("3*x**2 + cos(x)"));
    }
    void seedSineWaveGivesPng()
    {
        const Run r = py(QStringLiteral(
            "import matplotlib.pyplot as plt\nimport numpy as np\n\nx = np.linspace(0, 10, 100)\ny = np.sin(x)\n\n"
            "plt.figure(figsize=(10, 6))\nplt.plot(x, y)\nplt.title(\"Sine Wave\")\nplt.xlabel(\"x\")\nplt.ylabel(\"sin(x)\")\n"
            "plt.show()\nplt.figure()\nplt.bar(['a', 'b'], [1, 2])\n"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QByteArray()); // plt.show() neither warns nor blocks
        checkValid(r);
        const QJsonArray charts = r.charts();
        QCOMPARE(charts.size(), 2); // show() kept the first figure
        for (int i = 0; i < 2; ++i) {
            const QJsonObject c = charts[i].toObject();
            QCOMPARE(c.value("kind").toString(), QStringLiteral("png"));
            QCOMPARE(c.value("file").toString(), QStringLiteral("chart-%1.png").arg(i + 1));
            QFile png(r.outDir + u'/' + c.value("file").toString());
            QVERIFY(png.open(QIODevice::ReadOnly));
            const QByteArray bytes = png.readAll();
            QVERIFY(bytes.startsWith(QByteArray("\x89PNG\r\n\x1a\n", 8)));
            QVERIFY(bytes.size() > 5000);
        }
    }
    // Figures are saved "tight" by cropping one full-size draw when that is safe, else through
    // savefig: either way the picture must be matplotlib's own bbox_inches="tight" PNG.
    void pngsMatchMatplotlibTightSave()
    {
        const Run r = py(QStringLiteral(
            "import io\nimport matplotlib.pyplot as plt\nimport numpy as np\n"
            "x = np.linspace(0, 10, 100)\n"
            "plt.figure(figsize=(10, 6)); plt.plot(x, np.sin(x)); plt.title('Sine Wave'); plt.xlabel('x'); plt.ylabel('sin(x)')\n"
            "plt.figure(); plt.plot([1, 2], [3, 4], label='a legend outside the axes')\n"
            "plt.legend(bbox_to_anchor=(1.05, 1), loc='upper left')\n"          // grows past the figure
            "plt.figure(dpi=150); plt.scatter([1, 2, 3], [3, 1, 2]); plt.suptitle('dpi 150')\n" // another dpi
            "fig, axes = plt.subplots(1, 2, layout='constrained'); axes[0].bar(['a', 'b'], [1, 2]); axes[1].pie([1, 2])\n"
            // The tight box computes each axis' ticks once (_tight_box): twin axes, ticks on top
            // (the title moves above them), shared axes (siblings' labels align).
            "fig, ax = plt.subplots(); ax.plot([1, 2, 3]); ax.twinx().plot([300, 200, 100], 'r'); ax.xaxis.tick_top(); ax.set_title('top ticks')\n"
            "fig, axes = plt.subplots(2, 2, sharex=True, sharey=True); [a.plot([1, 10000], [0, 1]) for a in axes.flat]\n"
            "axes[1][0].set_ylabel('a long label on the left'); fig.suptitle('shared')\n"
            "for n in plt.get_fignums():\n"
            "    plt.figure(n).savefig('expected-%d.png' % n, dpi=100, bbox_inches='tight')\n"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QByteArray());
        const QJsonArray charts = r.charts();
        QCOMPARE(charts.size(), 6);
        const QString runDir = QFileInfo(r.outDir).path();
        for (int i = 0; i < charts.size(); ++i) {
            const QImage got = QImage(r.outDir + u'/' + charts[i].toObject().value("file").toString())
                                   .convertToFormat(QImage::Format_RGB32);
            // The snippet's own savefig() files are in its working directory, W/work.
            const QImage want = QImage(runDir + QStringLiteral("/work/expected-%1.png").arg(i + 1))
                                    .convertToFormat(QImage::Format_RGB32);
            QVERIFY2(!got.isNull() && !want.isNull(), qPrintable(QString::number(i + 1)));
            // Cropping whole pixels may differ from savefig's fractional offset by up to 2 px.
            QVERIFY2(qAbs(got.width() - want.width()) <= 2 && qAbs(got.height() - want.height()) <= 2,
                     qPrintable(QStringLiteral("figure %1: %2x%3, matplotlib %4x%5").arg(i + 1)
                                    .arg(got.width()).arg(got.height()).arg(want.width()).arg(want.height())));
            // Same picture: the best alignment within 2 px differs by little on average (0..255).
            double best = 1e9;
            const int w = qMin(got.width(), want.width()) - 2, h = qMin(got.height(), want.height()) - 2;
            for (int dx = 0; dx <= 2; ++dx) {
                for (int dy = 0; dy <= 2; ++dy) {
                    for (const bool gotShifted : {true, false}) {
                        double sum = 0;
                        for (int y = 0; y < h; ++y) {
                            const auto* a = reinterpret_cast<const QRgb*>(got.constScanLine(y + (gotShifted ? dy : 0)));
                            const auto* b = reinterpret_cast<const QRgb*>(want.constScanLine(y + (gotShifted ? 0 : dy)));
                            for (int x = 0; x < w; ++x) {
                                const QRgb p = a[x + (gotShifted ? dx : 0)], q = b[x + (gotShifted ? 0 : dx)];
                                sum += qAbs(qRed(p) - qRed(q)) + qAbs(qGreen(p) - qGreen(q)) + qAbs(qBlue(p) - qBlue(q));
                            }
                        }
                        best = qMin(best, sum / (3.0 * w * h));
                    }
                }
            }
            QVERIFY2(best < 2.0, qPrintable(QStringLiteral("figure %1 differs by %2 on average").arg(i + 1).arg(best)));
        }
    }
    void figureKeptWhenCodeRaises()
    {
        const Run r = py(QStringLiteral("import matplotlib.pyplot as plt\nplt.plot([1, 2], [3, 4])\nraise ValueError('after plot')\n"));
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("error"));
        QCOMPARE(r.charts().size(), 1);
        QCOMPARE(r.error().value("name").toString(), QStringLiteral("ValueError"));
    }
    void chartDictionaries()
    {
        const Run line = py(QStringLiteral(
            "import numpy as np\nx = np.arange(4)\n"
            "chart = {'type': 'line', 'title': 'L', 'x_label': 'x', 'y_label': 'y', 'elements': [\n"
            "  {'label': 'sq', 'points': [[xi, xi ** 2] for xi in x]},\n"
            "  {'label': 'nan', 'points': [[0, float('nan')], [1, np.float32(1.5)]]}]}\n"));
        checkValid(line);
        QCOMPARE(line.charts().size(), 1);
        const ChartSpec l = interactiveChart(line);
        QCOMPARE(l.type(), ChartType::Line);
        QCOMPARE(l.series()[0].ys, (std::vector<double>{0, 1, 4, 9}));
        QVERIFY(std::isnan(l.series()[1].ys[0]));
        QCOMPARE(l.series()[1].ys[1], 1.5);

        const Run dt = py(QStringLiteral(
            "import pandas as pd\nimport numpy as np\nimport datetime\nidx = pd.date_range('2024-01-01', periods=3, freq='D')\n"
            "chart = {'type': 'line', 'title': 'D', 'x_scale': 'datetime', 'elements': [\n"
            "  {'label': 'a', 'points': list(zip(idx, pd.Series([1.0, 2.0, 3.0])))},\n"
            "  {'label': 'b', 'points': [[datetime.date(2024, 1, 1), 5], ['2024-01-02T00:00:00Z', 6], [1704067200000, 7]]},\n"
            "  {'label': 'c', 'points': list(zip(np.array(['2024-01-01T00:00:00.5'], dtype='datetime64[ns]'), [8]))}]}\n"));
        const ChartSpec d = interactiveChart(dt);
        QVERIFY(d.datetimeX());
        const double base = 1704067200000.0;
        QCOMPARE(d.series()[0].xs, (std::vector<double>{base, base + 86400000, base + 2 * 86400000}));
        QCOMPARE(d.series()[1].xs, (std::vector<double>{base, base + 86400000, base}));
        QCOMPARE(d.series()[2].xs, (std::vector<double>{base + 500})); // numpy datetime64[ns]

        const Run scatter = py(QStringLiteral(
            "import numpy as np\nxs = np.array([1.0, 2.0])\nys = np.array([3, 4])\n"
            "chart = {'type': 'scatter', 'title': 'S', 'elements': [{'label': 'p', 'points': np.column_stack([xs, ys])}]}\n"));
        const ChartSpec s = interactiveChart(scatter);
        QCOMPARE(s.type(), ChartType::Scatter);
        QCOMPARE(s.series()[0].xs, (std::vector<double>{1, 2}));
        QCOMPARE(s.series()[0].ys, (std::vector<double>{3, 4}));

        const Run bar = py(QStringLiteral(
            "import numpy as np\nvals = np.array([3, 5])\n"
            "chart = {'type': 'bar', 'title': 'B', 'elements': [{'label': q, 'group': 'g', 'value': v} for q, v in zip(['Q1', 'Q2'], vals)]}\n"));
        const ChartSpec b = interactiveChart(bar);
        QCOMPARE(b.bars().categories, (QStringList{"Q1", "Q2"}));
        QCOMPARE(b.bars().values[0], (std::vector<double>{3, 5}));
    }
    // Series of 64 points or more leave as binary columns: from lists of pairs, numpy (n, 2)
    // arrays, x/y numpy arrays, pandas Series, array.array and lists; on the fd channel and in
    // out_dir alike. Short series, category x and dates as text stay JSON points.
    void chartColumns()
    {
        const QString code = QStringLiteral(
            "import numpy as np, pandas as pd\nfrom array import array\n"
            "x = np.arange(100, dtype=float)\ny = np.sin(x)\ny[5] = np.nan\ny[6] = np.inf\n"
            "chart = {'type': 'line', 'title': 'c', 'elements': [\n"
            "  {'label': 'pairs', 'points': [[float(a), float(b)] for a, b in zip(x, y)]},\n"
            "  {'label': 'stack', 'points': np.column_stack([x, y])},\n"
            "  {'label': 'xy', 'x': np.arange(100), 'y': y},\n"
            "  {'label': 'series', 'x': pd.Series(x), 'y': pd.Series(y)},\n"
            "  {'label': 'array', 'x': array('d', x), 'y': list(y[:5]) + [None] + list(y[6:])},\n"
            "  {'label': 'short', 'points': [[0, 1], [1, 2]]}]}\n");
        for (const bool fd : {false, true}) {
            const Run r = run(Language::Python, code, QStringLiteral("Untitled 1"), {}, fd);
            checkValid(r);
            const QJsonObject declared = r.result.value("chart_columns").toObject();
            QCOMPARE(declared.value("file").toString(), QStringLiteral("chart-columns"));
            QCOMPARE(declared.value("size").toInteger(), 5 * 2 * 100 * 8);
            QCOMPARE(r.columns().bytes().size(), 5 * 2 * 100 * 8);
            QVERIFY2(r.resultJson.size() < 2000, r.resultJson.constData()); // no number lists
            const QJsonArray elements = r.charts()[0].toObject()["spec"].toObject()["elements"].toArray();
            QCOMPARE(elements[2].toObject()["x"].toObject()["dtype"].toString(), QStringLiteral("int64"));
            QVERIFY(elements[5].toObject().contains("points"));
            const ChartSpec c = interactiveChart(r);
            QCOMPARE(c.series().size(), 6);
            for (int k = 0; k < 5; ++k) {
                const ChartSeries& s = c.series()[k];
                QCOMPARE(s.xs.size(), size_t(100));
                QCOMPARE(s.xs[99], 99.0);
                QCOMPARE(s.ys[1], std::sin(1.0));
                QVERIFY2(std::isnan(s.ys[5]) && std::isnan(s.ys[6]), qPrintable(s.label)); // NaN, inf and None: gaps
            }
            QCOMPARE(c.series()[5].ys, (std::vector<double>{1, 2}));
        }

        // Datetime x from pandas as int64 epoch ms; category x stays points.
        const Run dates = py(QStringLiteral(
            "import pandas as pd\nidx = pd.date_range('2024-01-01', periods=100, freq='h')\n"
            "chart = {'type': 'scatter', 'x_scale': 'datetime', 'elements': [{'label': 'd', 'x': idx, 'y': list(range(100))}]}\n"));
        const ChartSpec d = interactiveChart(dates);
        QVERIFY(d.datetimeX());
        QCOMPARE(d.series()[0].xs[1], 1704067200000.0 + 3600000);
        QCOMPARE(d.series()[0].ys[99], 99.0);
        const Run categories = py(QStringLiteral(
            "chart = {'type': 'line', 'elements': [{'label': 'c', 'x': ['k%d' % i for i in range(100)], 'y': list(range(100))}]}\n"));
        const ChartSpec k = interactiveChart(categories);
        QVERIFY(k.categoryX());
        QCOMPARE(k.xCategories().size(), 100);
        QVERIFY(!categories.result.contains("chart_columns"));

        // x and y of different lengths: a clear chart_error, the run goes on.
        const Run bad = py(QStringLiteral("chart = {'type': 'line', 'elements': [{'x': [1, 2, 3], 'y': [1, 2]}]}\nprint('ok')\n"));
        QCOMPARE(bad.out, QByteArray("ok\n"));
        QVERIFY2(bad.result.value("chart_error").toString().contains("x has 3 values and y has 2"), bad.resultJson.constData());

        // The columns are the values when the chart was made: a display()ed chart's arrays
        // changed afterwards (the wrapper keeps buffers, not copies of copies) are not seen.
        const Run shown = py(QStringLiteral(
            "import numpy as np\nfrom array import array\nx = np.arange(100, dtype=float)\ny = x * 2\na = array('d', y)\n"
            "display({'type': 'line', 'title': 'd', 'elements': [{'label': 'n', 'x': x, 'y': y}, {'label': 'a', 'x': x, 'y': a}]})\n"
            "x[:] = -1\ny[:] = -1\na[1] = -1\n"));
        const ChartSpec d2 = interactiveChart(shown);
        QCOMPARE(d2.series()[0].xs[1], 1.0);
        QCOMPARE(d2.series()[0].ys[1], 2.0);
        QCOMPARE(d2.series()[1].ys[1], 2.0);
    }
    // A list of pairs that is not all numbers is not packed: the host's validation names the
    // point (mixed types, a pair of three), and a non-finite x in columns is refused by name.
    void chartColumnsKeepTheChecks_data()
    {
        QTest::addColumn<QString>("points");
        QTest::addColumn<QString>("error");
        QTest::newRow("a string y") << QStringLiteral("[[i, i] for i in range(99)] + [[99, 'abc']]")
                                    << QStringLiteral("chart.elements[0].points[99]: y must be a number, got \"abc\"");
        QTest::newRow("a pair of three") << QStringLiteral("[[i, i] for i in range(99)] + [[99, 1, 2]]")
                                         << QStringLiteral("chart.elements[0].points[99]");
        QTest::newRow("NaN x") << QStringLiteral("[[float(i) if i != 70 else float('nan'), i] for i in range(100)]")
                               << QStringLiteral("chart.elements[0].x[70]: x must be a finite number, got NaN");
        QTest::newRow("infinite x") << QStringLiteral("[[float(i) if i != 3 else float('inf'), i] for i in range(100)]")
                                    << QStringLiteral("chart.elements[0].x[3]");
    }
    void chartColumnsKeepTheChecks()
    {
        QFETCH(QString, points);
        QFETCH(QString, error);
        const Run r = py(QStringLiteral("chart = {'type': 'line', 'elements': [{'label': 'p', 'points': %1}]}\n").arg(points));
        checkValid(r);
        const ChartColumns columns = r.columns();
        const ChartParseResult parsed = ChartSpec::parse(r.charts()[0].toObject().value("spec").toObject(), &columns);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error.startsWith(error), qPrintable(parsed.error));
    }
    // JavaScript: a line/scatter series of 64 [number, number] pairs or more leaves as float64
    // columns (null and non-finite y are gaps); short series, category x and anything else
    // stay points; a composite's charts too.
    void jsChartColumns()
    {
        const Run r = js(QStringLiteral(
            "const pts = [];\nfor (let i = 0; i < 100; i++) pts.push([i, Math.sin(i)]);\npts[5][1] = null;\npts[6][1] = Infinity;\n"
            "const words = pts.map(([x, y]) => ['k' + x, y]);\n"
            "chart = {type: 'composite_chart', elements: [\n"
            "  {type: 'line', title: 'a', elements: [{label: 'pairs', points: pts}, {label: 'short', points: [[0, 1], [1, 2]]}]},\n"
            "  {type: 'scatter', title: 'b', elements: [{label: 'words', points: words}]}]};\n"
            "console.log(chart.elements[0].elements[0].points.length);\n"));
        checkValid(r);
        QCOMPARE(r.out, QByteArray("100\n"));
        QCOMPARE(r.result.value("chart_columns").toObject().value("size").toInteger(), 2 * 100 * 8);
        QVERIFY2(r.resultJson.size() < 6000, r.resultJson.constData()); // the words stay JSON
        const ChartSpec c = interactiveChart(r);
        QCOMPARE(c.children().size(), 2);
        const ChartSeries& s = c.children()[0].series()[0];
        QCOMPARE(s.xs.size(), size_t(100));
        QCOMPARE(s.xs[99], 99.0);
        QCOMPARE(s.ys[1], std::sin(1.0));
        QVERIFY(std::isnan(s.ys[5]) && std::isnan(s.ys[6]));
        QCOMPARE(c.children()[0].series()[1].ys, (std::vector<double>{1, 2}));
        QVERIFY(c.children()[1].categoryX());
        QCOMPARE(c.children()[1].series()[0].ys[99], std::sin(99.0));
        const QJsonArray elements = r.charts()[0].toObject()["spec"].toObject()["elements"].toArray();
        QVERIFY(elements[0].toObject()["elements"].toArray()[0].toObject().contains("x"));
        QVERIFY(elements[0].toObject()["elements"].toArray()[1].toObject().contains("points"));
        QVERIFY(elements[1].toObject()["elements"].toArray()[0].toObject().contains("points"));
        // A NaN x is not packed: it goes as null and the host names it.
        const Run nan = js(QStringLiteral("const p = [];\nfor (let i = 0; i < 80; i++) p.push([i === 9 ? NaN : i, i]);\n"
                                          "chart = {type: 'line', elements: [{label: 'n', points: p}]};\n"));
        QVERIFY(!nan.result.contains("chart_columns"));
        const ChartParseResult parsed = ChartSpec::parse(nan.charts()[0].toObject().value("spec").toObject());
        QVERIFY2(!parsed.ok() && parsed.error.startsWith(QStringLiteral("chart.elements[0].points[9]")), qPrintable(parsed.error));
    }

    void unserializableChart()
    {
        const Run r = py(QStringLiteral("chart = {'type': 'line', 'elements': [{'label': 'a', 'points': [[1, object()]]}]}\nprint('still shown')\n"));
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("success"));
        QCOMPARE(r.out, QByteArray("still shown\n"));
        QVERIFY(r.charts().isEmpty());
        const QString problem = r.result.value("chart_error").toString();
        QVERIFY2(problem.contains(QStringLiteral("chart.elements[0].points[0][1]")), qPrintable(problem));
        QVERIFY(problem.contains(QStringLiteral("object")));
        // A variable named chart that is not a dict is the user's own business.
        QVERIFY(py(QStringLiteral("chart = 3")).charts().isEmpty());
    }
    void exceptionLineAfterPipLines()
    {
        const Run r = py(QStringLiteral("!pip install numpy\n!pip install -q pandas\nimport numpy\n\ndef f(d):\n    return 1 / d\n\nf(0)\n"),
                         QStringLiteral("analysis.py"));
        QCOMPARE(r.exitCode, 0);
        checkValid(r);
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("error"));
        const QJsonObject e = r.error();
        QCOMPARE(e.value("name").toString(), QStringLiteral("ZeroDivisionError"));
        QCOMPARE(e.value("value").toString(), QStringLiteral("division by zero"));
        const QString tb = e.value("traceback").toString();
        QVERIFY2(tb.startsWith(QStringLiteral("Traceback (most recent call last):\n  File \"analysis.py\", line 8, in <module>\n    f(0)\n")), qPrintable(tb));
        QVERIFY2(tb.contains(QStringLiteral("File \"analysis.py\", line 6, in f\n    return 1 / d")), qPrintable(tb));
        QVERIFY2(!tb.contains(QStringLiteral("wrapper")), qPrintable(tb));
        QVERIFY(tb.endsWith(QStringLiteral("ZeroDivisionError: division by zero\n")));
    }
    void syntaxError()
    {
        const Run r = py(QStringLiteral("x = 1\ny = (2 +\nprint(x)\n"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.error().value("name").toString(), QStringLiteral("SyntaxError"));
        const QString tb = r.error().value("traceback").toString();
        QVERIFY2(tb.contains(QStringLiteral("File \"Untitled 1\", line 2")), qPrintable(tb));
        QVERIFY(!tb.contains(QStringLiteral("wrapper")));
        QCOMPARE(r.out, QByteArray());
    }
    void exitsAndInterrupts()
    {
        const Run ok = py(QStringLiteral("import sys\nprint('a')\nsys.exit(0)\nprint('b')\n"));
        QCOMPARE(ok.result.value("status").toString(), QStringLiteral("success"));
        QCOMPARE(ok.out, QByteArray("a\n"));
        const Run bad = py(QStringLiteral("import sys\nsys.exit(3)\n"));
        QCOMPARE(bad.exitCode, 0);
        QCOMPARE(bad.error().value("name").toString(), QStringLiteral("SystemExit"));
        QCOMPARE(bad.error().value("value").toString(), QStringLiteral("3"));
        const Run interrupted = py(QStringLiteral("raise KeyboardInterrupt\n"));
        QCOMPARE(interrupted.error().value("name").toString(), QStringLiteral("KeyboardInterrupt"));
    }
    void spoofAttemptsChangeNothing()
    {
        const QByteArray printed = "{\"status\": \"error\", \"result\": \"spoofed\"}\n"
                                   "__CHART_JSON__:{\"type\": \"bar\", \"elements\": []}\n"
                                   "{\"name\": \"result.json\", \"size\": 2}\n{}\n";
        QString code = QStringLiteral("import sys\nsys.stdout.write(%1)\n").arg(QString::fromUtf8(QJsonDocument(QJsonArray{QString::fromUtf8(printed)}).toJson(QJsonDocument::Compact)).mid(1).chopped(1));
        const Run r = py(code);
        QCOMPARE(r.out, printed);
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("success"));
        QVERIFY(r.result.value("result").isNull());
        QVERIFY(r.charts().isEmpty());
    }
    void stderrAndUnicode()
    {
        const Run r = py(QStringLiteral("import sys\nprint('héllo ✓ 🚀 中文')\nsys.stderr.write('warn ü\\n')\nresult = 'ünï ✓'\n"));
        QCOMPARE(r.out, QStringLiteral("héllo ✓ 🚀 中文\n").toUtf8());
        QCOMPARE(r.err, QStringLiteral("warn ü\n").toUtf8());
        QCOMPARE(r.result.value("result").toString(), QStringLiteral("ünï ✓"));
    }
    void warningsAndChainedErrorsShowSource()
    {
        const Run r = py(QStringLiteral("import warnings, json\nwarnings.warn('careful')\ntry:\n    json.loads('x')\n"
                                        "except ValueError as e:\n    raise RuntimeError('wrapped') from e\n"),
                         QStringLiteral("w.py"));
        QCOMPARE(r.err, QByteArray("w.py:2: UserWarning: careful\n  warnings.warn('careful')\n"));
        const QString tb = r.error().value("traceback").toString();
        QVERIFY2(tb.contains(QStringLiteral("File \"w.py\", line 4, in <module>\n    json.loads('x')\njson.decoder.JSONDecodeError")), qPrintable(tb));
        QVERIFY2(tb.contains(QStringLiteral("direct cause")), qPrintable(tb));
        QVERIFY2(tb.endsWith(QStringLiteral("line 6, in <module>\n    raise RuntimeError('wrapped') from e\nRuntimeError: wrapped\n")), qPrintable(tb));
        QVERIFY2(!tb.contains(QStringLiteral("decoder.py")), qPrintable(tb)); // only the user's frames
    }
    void cleanMainNamespace()
    {
        const Run r = py(QStringLiteral(
            "names = sorted(k for k in globals() if not k.startswith('__'))\nimport sys\n"
            "if __name__ == '__main__':\n    print('main', names, sys.modules['__main__'].__dict__ is globals())\n"
            "class P: pass\nimport pickle\npickle.dumps(P())\n"));
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("success"));
        QCOMPARE(r.out, QByteArray("main [] True\n"));
    }
    void pipInstallOfflineWheel()
    {
        const QString wheels = m_tmp.filePath(QStringLiteral("wheels"));
        QDir().mkpath(wheels);
        const char* build = R"PY(
import base64, hashlib, sys, zipfile
name, ver = "sandpadtiny", "1.0"
info = f"{name}-{ver}.dist-info"
files = {f"{name}.py": "VALUE = 'tiny wheel works'\n",
         f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {ver}\n",
         f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: sandpad-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
record = ""
for path, text in files.items():
    data = text.encode()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    record += f"{path},sha256={digest},{len(data)}\n"
record += f"{info}/RECORD,,\n"
with zipfile.ZipFile(f"{sys.argv[1]}/{name}-{ver}-py3-none-any.whl", "w") as z:
    for path, text in files.items():
        z.writestr(path, text)
    z.writestr(f"{info}/RECORD", record)
)PY";
        QProcess p;
        p.start(kPython, {QStringLiteral("-c"), QString::fromUtf8(build), wheels});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);

        const QString target = m_tmp.filePath(QStringLiteral("pip-target"));
        const auto offline = [&](QJsonObject& m) {
            m.insert("pip_args", QJsonArray{"--no-index", "--find-links", wheels});
            m.insert("pip_target", target);
        };
        const Run r = run(Language::Python,
                          QStringLiteral("!pip install sandpadtiny numpy\nimport sandpadtiny, subprocess, sys\n"
                                         "child = subprocess.run([sys.executable, '-c', 'import sandpadtiny'])\n"
                                         "result = (sandpadtiny.VALUE, child.returncode)\n"),
                          QStringLiteral("Untitled 1"), offline);
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("success"));
        QCOMPARE(r.result.value("result").toString(), QStringLiteral("('tiny wheel works', 0)"));
        QVERIFY(QFile::exists(target + QStringLiteral("/sandpadtiny.py")));

        const Run failed = run(Language::Python, QStringLiteral("!pip install sandpad-no-such-package\nprint('user code ran')\n"),
                               QStringLiteral("Untitled 1"), offline);
        QCOMPARE(failed.exitCode, 0);
        checkValid(failed);
        QCOMPARE(failed.out, QByteArray());
        QCOMPARE(failed.error().value("name").toString(), QStringLiteral("PipInstallError"));
        const QString message = failed.error().value("value").toString();
        QVERIFY2(message.startsWith(QStringLiteral("Failed to install packages: ")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("sandpad-no-such-package")), qPrintable(message));
    }
    void resultFdChannel()
    {
        const Run r = run(Language::Python,
                          QStringLiteral("import os, subprocess\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])\n"
                                         "print('{\"name\": \"result.json\", \"size\": 2}')\n"
                                         "mine = [os.readlink('/proc/self/fd/' + f) for f in os.listdir('/proc/self/fd') if os.path.exists('/proc/self/fd/' + f)]\n"
                                         "child = subprocess.run(['/bin/ls', '-l', '/proc/self/fd'], close_fds=False, capture_output=True, text=True).stdout\n"
                                         "result = [os.environ.get('SANDPAD_RESULT_FD'), any(p.endswith('frames.bin') for p in mine), 'frames.bin' in child]\n"),
                          QStringLiteral("Untitled 1"), {}, true);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("{\"name\": \"result.json\", \"size\": 2}\n"));
        // variables.json: a fresh run's variable snapshot (the Variables dock).
        QCOMPARE(r.frames.keys(), (QStringList{"chart-1.png", "done", "result.json", "started", "variables.json"}));
        QCOMPARE(r.frames.value("started"), QByteArray()); // sent first, before the user's code
        QCOMPARE(r.frames.value("done"), QByteArray("0")); // the last word: the exit status
        QVERIFY(r.frames.value("chart-1.png").startsWith("\x89PNG"));
        checkValid(r);
        // The variable is gone, and the channel is close-on-exec: a child process never gets it.
        QCOMPARE(r.result.value("result").toString(), QStringLiteral("[None, True, False]"));
        QVERIFY(!QFile::exists(r.outDir + QStringLiteral("/result.json")));
    }

    // Output is block buffered but flushed every ~50 ms: a line printed before a long pause
    // arrives while the program still runs.
    void outputStreamsLive_data()
    {
        QTest::addColumn<int>("language");
        QTest::addColumn<QString>("code");
        QTest::newRow("python") << int(Language::Python)
                                << QStringLiteral("import time\nprint('first')\ntime.sleep(4)\nprint('second')\n");
        QTest::newRow("javascript") << int(Language::JavaScript)
                                    << QStringLiteral("console.log('first');\nawait new Promise((r) => setTimeout(r, 4000));\nconsole.log('second');\n");
        // Busy synchronous work blocks node's timers: a sparse line must go out when written.
        QTest::newRow("javascript, busy") << int(Language::JavaScript)
                                          << QStringLiteral("console.log('first');\nconst t = Date.now();\nwhile (Date.now() - t < 4000) {}\nconsole.log('second');\n");
        QTest::newRow("python, busy") << int(Language::Python)
                                      << QStringLiteral("import time\nprint('first')\nt = time.time()\nwhile time.time() - t < 4:\n    pass\nprint('second')\n");
    }
    void outputStreamsLive()
    {
        QFETCH(int, language);
        QFETCH(QString, code);
        const Language lang = Language(language);
        const QString dir = m_tmp.filePath(QStringLiteral("live-%1").arg(language));
        QDir().mkpath(dir);
        const RuntimeProgram program = RuntimeProgram::build(RuntimeProgram::Input{
            lang, code, QStringLiteral("live"), dir, lang == Language::Python ? kPython : m_node, {}});
        for (const SandboxFile& f : program.files) {
            QFile file(f.path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(f.content);
        }
        QProcess p;
        p.start(program.command.argv.first(), program.command.argv.mid(1));
        QByteArray out;
        QElapsedTimer timer;
        timer.start();
        while (!out.contains("first\n") && timer.elapsed() < 20000 && p.state() != QProcess::NotRunning) {
            p.waitForReadyRead(100);
            out += p.readAllStandardOutput();
        }
        QCOMPARE(out, QByteArray("first\n"));
        QCOMPARE(p.state(), QProcess::Running); // still sleeping: the line came out live
        QVERIFY(p.waitForFinished(30000));
        out += p.readAllStandardOutput();
        QCOMPARE(out, QByteArray("first\nsecond\n"));
    }

    // --- JavaScript ------------------------------------------------------------------------
    void jsConsoleAwaitResult()
    {
        const Run r = js(QStringLiteral("const v = await new Promise((resolve) => setTimeout(() => resolve(41), 10));\n"
                                        "console.log('js', v, 'é✓🚀');\nconsole.error('warn');\nconst result = { v: v + 1, list: [1, 2] };\n"));
        QCOMPARE(r.exitCode, 0);
        checkValid(r);
        QCOMPARE(r.out, QStringLiteral("js 41 é✓🚀\n").toUtf8());
        QCOMPARE(r.err, QByteArray("warn\n"));
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("success"));
        QCOMPARE(r.result.value("result").toString(), QStringLiteral("{ v: 42, list: [ 1, 2 ] }"));
        QCOMPARE(js(QStringLiteral("let result = 'plain text';")).result.value("result").toString(), QStringLiteral("plain text"));
        QCOMPARE(js(QStringLiteral("var results = [1, 'a'];")).result.value("result").toString(), QStringLiteral("[ 1, 'a' ]"));
        QVERIFY(js(QStringLiteral("console.log(1) // no newline at the end")).result.value("result").isNull());
    }
    void jsThrownErrorWithLine()
    {
        const Run r = js(QStringLiteral("const a = 1;\nfunction f() {\n  throw new RangeError('bad value');\n}\nf();\n"));
        QCOMPARE(r.exitCode, 0);
        checkValid(r);
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("error"));
        QCOMPARE(r.error().value("name").toString(), QStringLiteral("RangeError"));
        QCOMPARE(r.error().value("value").toString(), QStringLiteral("bad value"));
        const QString tb = r.error().value("traceback").toString();
        QVERIFY2(tb.startsWith(QStringLiteral("RangeError: bad value\n    at f (snippet.js:3:9)\n    at Object.<anonymous> (snippet.js:5:1)")), qPrintable(tb));
        QVERIFY2(!tb.contains(QStringLiteral("wrapper")) && !tb.contains(QStringLiteral("node:internal"))
                     && !tb.contains(QStringLiteral("/tmp")), qPrintable(tb));
    }
    void jsSyntaxErrorAndRejection()
    {
        const Run s = js(QStringLiteral("console.log('never');\nlet x = ;\n"));
        QCOMPARE(s.error().value("name").toString(), QStringLiteral("SyntaxError"));
        QVERIFY2(s.error().value("traceback").toString().startsWith(QStringLiteral("snippet.js:2:9\nlet x = ;\n        ^\n")),
                 qPrintable(s.error().value("traceback").toString()));
        QCOMPARE(s.out, QByteArray());

        const Run rej = js(QStringLiteral("console.log('before');\nPromise.reject(new Error('later'));\nsetTimeout(() => console.log('never'), 2000);\n"));
        QCOMPARE(rej.exitCode, 0);
        QCOMPARE(rej.out, QByteArray("before\n"));
        QCOMPARE(rej.error().value("value").toString(), QStringLiteral("later"));
        QVERIFY(rej.error().value("traceback").toString().contains(QStringLiteral("snippet.js:2")));

        const Run timer = js(QStringLiteral("setTimeout(() => { throw new TypeError('in timer'); }, 5);\n"));
        QCOMPARE(timer.error().value("name").toString(), QStringLiteral("TypeError"));

        const Run exit = js(QStringLiteral("console.log('x');\nprocess.exit(4);\n"));
        QCOMPARE(exit.exitCode, 0);
        QCOMPARE(exit.out, QByteArray("x\n"));
        QCOMPARE(exit.error().value("name").toString(), QStringLiteral("ExitError"));
    }
    void jsChartAndSpoof()
    {
        const Run r = js(QStringLiteral(
            "console.log('{\"status\": \"error\"}');\nconsole.log('__CHART_JSON__:{\"type\": \"bar\"}');\n"
            "const chart = { type: 'line', title: 'J', x_scale: 'datetime', elements: [\n"
            "  { label: 'a', points: [[new Date(Date.UTC(2024, 0, 1)), 1], ['2024-01-02', NaN]] }] };\n"));
        QCOMPARE(r.out, QByteArray("{\"status\": \"error\"}\n__CHART_JSON__:{\"type\": \"bar\"}\n"));
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("success"));
        const ChartSpec c = interactiveChart(r);
        QCOMPARE(c.series()[0].xs, (std::vector<double>{1704067200000.0, 1704153600000.0}));
        QVERIFY(std::isnan(c.series()[0].ys[1]));
    }
    void jsResultFdChannelAndManyLines()
    {
        const Run r = run(Language::JavaScript,
                          QStringLiteral("for (let i = 0; i < 20000; i++) console.log(i);\n"
                                         "import { execFileSync } from 'node:child_process';\n"
                                         "const child = execFileSync('/bin/ls', ['-l', '/proc/self/fd'], { encoding: 'utf8' });\n"
                                         "const result = [process.env.SANDPAD_RESULT_FD ?? 'gone', child.includes('frames.bin')];\n"),
                          QStringLiteral("a.mjs"), {}, true);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.frames.keys(), (QStringList{"result.json", "started"}));
        QCOMPARE(r.result.value("result").toString(), QStringLiteral("[ 'gone', false ]"));
        const QList<QByteArray> lines = r.out.split('\n');
        QCOMPARE(lines.size(), 20001);
        QCOMPARE(lines[19999], QByteArray("19999"));
    }
    // A snippet without import/export is a sloppy CommonJS script, as `node file.js` runs it.
    void jsSloppyScript()
    {
        const Run r = js(QStringLiteral(
            "undeclared = 5;\n"
            "console.log(globalThis.undeclared, delete undeclared, typeof undeclared);\n"
            "console.log(this === module.exports, exports === module.exports, require.main === module);\n"
            "const frozen = Object.freeze({ a: 1 });\nfrozen.a = 2;\nconsole.log(frozen.a);\n"
            "function plain() { return this === globalThis; }\nconsole.log(plain());\n"
            "const p = require('node:path');\nconsole.log(p.basename(__filename), __dirname === process.cwd());\n"
            "module.exports.answer = 42;\nconsole.log(this.answer, typeof require('node:fs').readFileSync);\n"
            "Promise.resolve().then(() => console.log('microtask', module.id));\nprocess.nextTick(() => console.log('tick'));\n"),
            QStringLiteral("sloppy.js"));
        checkValid(r);
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("success"));
        // As in node's main module: ticks before promise reactions, module.id ".".
        QCOMPARE(r.out, QByteArray("5 true undefined\ntrue true true\n1\ntrue\nsloppy.js true\n42 function\ntick\nmicrotask .\n"));
    }
    // Module syntax decides, as V8's parser sees it: not in strings, comments or templates.
    void jsScriptOrModule()
    {
        const Run script = js(QStringLiteral(
            "// import fs from 'node:fs';\nconst s = 'export const a = 1';\nconst t = `\nimport x from \"y\"\n`;\n"
            "/* export default 1 */\nconst { basename } = await import('node:path');\n"
            "console.log(this === module.exports, basename('/a/b.txt'), typeof require);\n"));
        QCOMPARE(script.result.value("status").toString(), QStringLiteral("success"));
        QCOMPARE(script.out, QByteArray("true b.txt function\n"));

        const Run module = js(QStringLiteral("import { basename } from 'node:path';\nconsole.log(this, basename('/a/b'), typeof require, typeof module);\n"));
        QCOMPARE(module.result.value("status").toString(), QStringLiteral("success"));
        QCOMPARE(module.out, QByteArray("undefined b function undefined\n"));
        const Run exported = js(QStringLiteral("export const a = 1;\nx = 1;\n"));
        QCOMPARE(exported.error().value("name").toString(), QStringLiteral("ReferenceError")); // strict: a module
        QCOMPARE(js(QStringLiteral("console.log(typeof import.meta.url);")).out, QByteArray("string\n"));

        // A strict script stays strict (its directive is kept), with the editor's line and column.
        const Run strict = js(QStringLiteral("'use strict';\nconsole.log(this === module.exports);\nundeclared = 1;\n"));
        QCOMPARE(strict.out, QByteArray("true\n"));
        QCOMPARE(strict.error().value("name").toString(), QStringLiteral("ReferenceError"));
        QVERIFY2(strict.error().value("traceback").toString().contains(QStringLiteral("(snippet.js:3:12)")),
                 qPrintable(strict.error().value("traceback").toString()));
        // `await` as a name is fine in a script that has no top-level await.
        QCOMPARE(js(QStringLiteral("var await = 3;\nconsole.log(await + 1);")).out, QByteArray("4\n"));
    }
    // A script's import() and require() resolve from the work dir, and Node's warning about the
    // loader constant the wrapper uses is not the user's (their own warnings still show).
    void jsScriptImportsAndRequires()
    {
        const Run r = js(QStringLiteral(
            "const fs = require('node:fs');\nfs.writeFileSync('helper.mjs', 'export const x = 1;');\n"
            "fs.writeFileSync('helper.cjs', 'exports.y = 2;');\n"
            "const { x } = await import('./helper.mjs');\nconsole.log(x, require('./helper.cjs').y);\n"
            "process.emitWarning('mine');\n"));
        QVERIFY2(r.result.value("status").toString() == QStringLiteral("success"), r.resultJson.constData());
        QCOMPARE(r.out, QByteArray("1 2\n"));
        QVERIFY2(r.err.contains("Warning: mine") && !r.err.contains("Experimental"), r.err.constData());
    }
    // ChatJS's extras: top-level await and a top-level `return value` (the result).
    void jsTopLevelReturn()
    {
        const Run r = js(QStringLiteral("const v = await Promise.resolve(20);\nif (v > 10)\n  return { v, twice: v * 2 };\nconsole.log('not reached');\n"));
        QCOMPARE(r.result.value("status").toString(), QStringLiteral("success"));
        QCOMPARE(r.result.value("result").toString(), QStringLiteral("{ v: 20, twice: 40 }"));
        QCOMPARE(r.out, QByteArray());
        QCOMPARE(js(QStringLiteral("return 'text';")).result.value("result").toString(), QStringLiteral("text"));
        // A bare `return;` (or none) leaves `result` as the result; a returned value wins over it.
        QCOMPARE(js(QStringLiteral("const result = 7;\nreturn;\n")).result.value("result").toString(), QStringLiteral("7"));
        QCOMPARE(js(QStringLiteral("let result = 7;\nreturn 8;\n")).result.value("result").toString(), QStringLiteral("8"));
        // A script's result is known also when it threw later (the capture is made first).
        const Run thrown = js(QStringLiteral("var result = [1];\nnull.x;\n"));
        QCOMPARE(thrown.error().value("name").toString(), QStringLiteral("TypeError"));
        QCOMPARE(thrown.result.value("result").toString(), QStringLiteral("[ 1 ]"));
        // In a module `return` is a SyntaxError, as in node.
        QCOMPARE(js(QStringLiteral("import 'node:fs';\nreturn 1;\n")).error().value("name").toString(), QStringLiteral("SyntaxError"));
    }
    // Errors on line 1 keep the columns the user sees, SyntaxErrors included.
    void jsLineOneColumns()
    {
        const Run thrown = js(QStringLiteral("null.x;"));
        QVERIFY2(thrown.error().value("traceback").toString().endsWith(QStringLiteral("(snippet.js:1:6)")),
                 qPrintable(thrown.error().value("traceback").toString()));
        const Run syntax = js(QStringLiteral("let a = 1 +;"));
        QCOMPARE(syntax.error().value("name").toString(), QStringLiteral("SyntaxError"));
        QCOMPARE(syntax.error().value("traceback").toString(),
                 QStringLiteral("snippet.js:1:12\nlet a = 1 +;\n           ^\n\nSyntaxError: Unexpected token ';'"));
        // A `#!` line is fine, as in node.
        const Run hashbang = js(QStringLiteral("#!/usr/bin/env node\nconsole.log(this === module.exports);\n"));
        QVERIFY2(hashbang.result.value("status").toString() == QStringLiteral("success"), hashbang.resultJson.constData());
        QCOMPARE(hashbang.out, QByteArray("true\n"));
        // A SyntaxError thrown while the script runs is an error like any other, with its stack.
        const Run parsed = js(QStringLiteral("JSON.parse('{');"));
        QCOMPARE(parsed.error().value("name").toString(), QStringLiteral("SyntaxError"));
        QVERIFY2(parsed.error().value("traceback").toString().endsWith(QStringLiteral("at JSON.parse (<anonymous>)\n    at Object.<anonymous> (snippet.js:1:6)")),
                 qPrintable(parsed.error().value("traceback").toString()));
        const Run moduleSyntax = js(QStringLiteral("import fs from 'node:fs'; let = ;"));
        QVERIFY2(moduleSyntax.error().value("traceback").toString().startsWith(QStringLiteral("snippet.js:1:27\n")),
                 qPrintable(moduleSyntax.error().value("traceback").toString()));
    }
    // Every stack the user sees names the title and its line, never the wrapper or a temp folder.
    void jsStackPaths_data()
    {
        QTest::addColumn<QString>("head");
        QTest::newRow("script") << QString();
        QTest::newRow("module") << QStringLiteral("import 'node:fs';\n");
    }
    void jsStackPaths()
    {
        QFETCH(QString, head);
        const int at = head.isEmpty() ? 1 : 2;
        const Run r = js(head + QStringLiteral(
            "console.log(new Error('printed').stack);\n"
            "try { JSON.parse('{'); } catch (e) { console.log(e.stack); }\n"
            "console.trace('traced');\n"
            "await null;\nconsole.log(new Error('after await').stack);\n"
            "setTimeout(function later() { throw new Error('in a timer'); }, 1);\n"), QStringLiteral("stack.js"));
        const QString all = QString::fromUtf8(r.out + r.err) + r.error().value("traceback").toString();
        for (const char* bad : {"file://", "/tmp", "main.mjs", "wrapper", "js_program", "/sandpad", "node:internal/modules", "run_main"})
            QVERIFY2(!all.contains(QLatin1String(bad)), qPrintable(QStringLiteral("%1 in:\n%2").arg(bad, all)));
        const QString top = head.isEmpty() ? QStringLiteral("Object.<anonymous> (stack.js:%1:%2)") : QStringLiteral("stack.js:%1:%2");
        QVERIFY2(r.out.startsWith(QStringLiteral("Error: printed\n    at %1\n").arg(top.arg(at).arg(13)).toUtf8()), r.out.constData());
        QVERIFY2(r.out.contains(QStringLiteral("at JSON.parse (<anonymous>)\n    at %1\n").arg(top.arg(at + 1).arg(12)).toUtf8()), r.out.constData());
        QVERIFY2(r.err.startsWith(QStringLiteral("Trace: traced\n    at %1\n").arg(top.arg(at + 2).arg(9)).toUtf8()), r.err.constData());
        QVERIFY2(r.out.contains(QStringLiteral("Error: after await\n    at %1\n").arg(top.arg(at + 4).arg(13)).toUtf8()), r.out.constData());
        QCOMPARE(r.error().value("value").toString(), QStringLiteral("in a timer"));
        QVERIFY2(r.error().value("traceback").toString().startsWith(
                     QStringLiteral("Error: in a timer\n    at Timeout.later [as _onTimeout] (stack.js:%1:37)").arg(at + 5)),
                 qPrintable(r.error().value("traceback").toString()));
    }
};

QTEST_GUILESS_MAIN(TestWrappers)
#include "test_wrappers.moc"
