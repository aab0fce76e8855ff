// Charts extracted from real matplotlib and plotly code: runs resources/runtime/wrapper.py (and
// the chart_extract.py RuntimeProgram ships beside it) with /usr/bin/python3, no sandbox, and
// checks each extracted chart, validated by ChartSpec, against the numbers the snippet plotted.

#include "core/charts/ChartSpec.h"
#include "core/charts/ChartColumns.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/runtime/WrapperResult.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace sandpad;

namespace {

struct Extracted {
    QList<QJsonObject> pngSpecs;   // per PNG figure: its extracted chart, or empty
    QList<QJsonObject> interactive; // interactive charts (plotly, `chart`)
    QByteArray err;
};

} // namespace

class TestChartExtract : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    int m_runs = 0;
    ChartColumns m_columns; // the last run's binary columns (chart-columns), for parsing its charts

    Extracted run(const QString& code)
    {
        Extracted r;
        const QString dir = m_tmp.filePath(QStringLiteral("run-%1").arg(++m_runs));
        QDir().mkpath(dir);
        const RuntimeProgram program = RuntimeProgram::build(
            RuntimeProgram::Input{Language::Python, code, QStringLiteral("t.py"), dir, QStringLiteral("/usr/bin/python3"), {}});
        for (const SandboxFile& f : program.files) {
            QFile file(f.path);
            if (!file.open(QIODevice::WriteOnly) || file.write(f.content) != f.content.size())
                qFatal("cannot write %s", qPrintable(f.path));
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("SANDPAD_RESULT_FD"));
        env.insert(QStringLiteral("MPLCONFIGDIR"), m_tmp.filePath(QStringLiteral("mpl")));
        for (auto it = program.command.env.cbegin(); it != program.command.env.cend(); ++it)
            env.insert(it.key(), it.value());
        QProcess p;
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(program.command.cwd);
        p.start(program.command.argv.first(), program.command.argv.mid(1));
        p.waitForFinished(120000);
        r.err = p.readAllStandardError();
        QFile result(program.resultPath);
        if (!result.open(QIODevice::ReadOnly))
            qFatal("no result.json: %s", r.err.constData());
        QFile columns(program.outDir + QStringLiteral("/chart-columns"));
        m_columns = ChartColumns(columns.open(QIODevice::ReadOnly) ? columns.readAll() : QByteArray());
        QString problem;
        const auto parsed = WrapperResult::parse(result.readAll(), &problem);
        if (!parsed)
            qFatal("invalid result.json: %s", qPrintable(problem));
        if (parsed->error)
            qWarning("the snippet failed: %s", qPrintable(parsed->error->traceback));
        for (const WrapperChartRef& ref : parsed->charts) {
            if (ref.kind == WrapperChartRef::Kind::Png)
                r.pngSpecs << ref.spec;
            else
                r.interactive << ref.spec;
        }
        return r;
    }

    // The one figure's chart, validated.
    ChartSpec chartOf(const QString& code, const QString& expectType)
    {
        const Extracted r = run(QStringLiteral("import matplotlib.pyplot as plt\nimport numpy as np\n") + code);
        if (r.pngSpecs.size() != 1)
            qFatal("expected one figure, got %d: %s", int(r.pngSpecs.size()), r.err.constData());
        if (r.pngSpecs[0].isEmpty())
            qFatal("the figure was not extracted: %s", r.err.constData());
        const ChartParseResult parsed = ChartSpec::parse(r.pngSpecs[0], &m_columns);
        if (!parsed.ok())
            qFatal("extracted chart is invalid: %s\n%s", qPrintable(parsed.error),
                   QJsonDocument(r.pngSpecs[0]).toJson().constData());
        if (parsed.spec->typeName() != expectType)
            qFatal("expected %s, got %s", qPrintable(expectType), qPrintable(parsed.spec->typeName()));
        return *parsed.spec;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        if (!QFile::exists(QStringLiteral("/usr/bin/python3")))
            QSKIP("needs /usr/bin/python3 with matplotlib");
    }

    void lineWithGapLabelsAndColours()
    {
        const ChartSpec s = chartOf(QStringLiteral(
            "x = np.arange(6) * 0.5\ny = x ** 2\ny[3] = np.nan\n"
            "plt.plot(x, y, color='#d62728', label='squares')\nplt.plot(x, -x, 'o-', label='minus')\n"
            "plt.title('Squares'); plt.xlabel('x'); plt.ylabel('y'); plt.legend()\n"), QStringLiteral("line"));
        QCOMPARE(s.title(), QStringLiteral("Squares"));
        QCOMPARE(s.xLabel(), QStringLiteral("x"));
        QCOMPARE(s.series().size(), 2);
        const ChartSeries& a = s.series()[0];
        QCOMPARE(a.label, QStringLiteral("squares"));
        QCOMPARE(a.color, QStringLiteral("#d62728"));
        QCOMPARE(a.xs, (std::vector<double>{0, 0.5, 1, 1.5, 2, 2.5}));
        QCOMPARE(a.ys[2], 1.0);
        QVERIFY(std::isnan(a.ys[3])); // the gap stays a gap
        QCOMPARE(a.ys[5], 6.25);
        QCOMPARE(a.mode, ChartSeries::Mode::Lines);
        QCOMPARE(s.series()[1].mode, ChartSeries::Mode::LinesAndMarkers);
        QVERIFY(s.xAxis().limits.has_value());
        QVERIFY(!s.xAxis().tickLabels.isEmpty());
    }

    void scatter()
    {
        const ChartSpec s = chartOf(QStringLiteral("plt.scatter([3, 1, 2], [10, 30, 20], color='green', label='pts')\n"),
                                    QStringLiteral("scatter"));
        QCOMPARE(s.series().size(), 1);
        QCOMPARE(s.series()[0].xs, (std::vector<double>{3, 1, 2}));
        QCOMPARE(s.series()[0].ys, (std::vector<double>{10, 30, 20}));
        QCOMPARE(s.series()[0].color, QStringLiteral("#008000"));
        QCOMPARE(s.series()[0].label, QStringLiteral("pts"));
    }

    void categoricalBarsOfEqualValuesInOrder()
    {
        const ChartSpec s = chartOf(QStringLiteral("plt.bar(['zeta', 'alpha', 'mid'], [2, 2, 2])\n"), QStringLiteral("bar"));
        QCOMPARE(s.bars().categories, (QStringList{"zeta", "alpha", "mid"}));
        QCOMPARE(s.bars().values.size(), size_t(1));
        QCOMPARE(s.bars().values[0], (std::vector<double>{2, 2, 2}));
        QVERIFY(!s.bars().horizontal);
    }

    void horizontalBars()
    {
        const ChartSpec s = chartOf(QStringLiteral("plt.barh(['a', 'b', 'c'], [5, -1, 3])\nplt.xlabel('amount')\n"),
                                    QStringLiteral("bar"));
        QVERIFY(s.bars().horizontal);
        QCOMPARE(s.bars().categories, (QStringList{"a", "b", "c"}));
        QCOMPARE(s.bars().values[0], (std::vector<double>{5, -1, 3}));
        QCOMPARE(s.xLabel(), QStringLiteral("amount"));
    }

    void groupedAndStackedBars()
    {
        const ChartSpec grouped = chartOf(QStringLiteral(
            "x = np.arange(3)\nplt.bar(x - 0.2, [1, 2, 3], 0.4, label='A')\nplt.bar(x + 0.2, [3, 2, 1], 0.4, label='B')\n"
            "plt.xticks(x, ['p', 'q', 'r']); plt.legend()\n"), QStringLiteral("bar"));
        QVERIFY(grouped.bars().grouped);
        QCOMPARE(grouped.bars().categories, (QStringList{"p", "q", "r"}));
        QCOMPARE(grouped.bars().groups, (QStringList{"A", "B"}));
        QCOMPARE(grouped.bars().values[1], (std::vector<double>{3, 2, 1}));
        const ChartSpec stacked = chartOf(QStringLiteral(
            "plt.bar(['a', 'b'], [1, 2], label='low')\nplt.bar(['a', 'b'], [3, 4], bottom=[1, 2], label='high')\n"),
            QStringLiteral("bar"));
        QVERIFY(!stacked.bars().grouped);
        QCOMPARE(stacked.bars().values[0], (std::vector<double>{1, 2}));
        QCOMPARE(stacked.bars().values[1], (std::vector<double>{3, 4})); // the bar's own height, not its top
    }

    void pandasPlots()
    {
        const ChartSpec bars = chartOf(QStringLiteral(
            "import pandas as pd\npd.Series([3, 1, 2], index=['x', 'y', 'z']).plot.bar(title='Counts')\n"), QStringLiteral("bar"));
        QCOMPARE(bars.title(), QStringLiteral("Counts"));
        QCOMPARE(bars.bars().categories, (QStringList{"x", "y", "z"}));
        QCOMPARE(bars.bars().values[0], (std::vector<double>{3, 1, 2}));
        // An irregular DatetimeIndex is plotted with matplotlib's dates: those are kept.
        const ChartSpec line = chartOf(QStringLiteral(
            "import pandas as pd\npd.DataFrame({'a': [1, 2, 3]}, index=pd.to_datetime(['2024-01-01', '2024-01-05', '2024-02-01'])).plot()\n"),
            QStringLiteral("line"));
        QVERIFY(line.datetimeX());
        QCOMPARE(line.series()[0].xs[1], 1704412800000.0); // 2024-01-05
        QCOMPARE(line.series()[0].label, QStringLiteral("a"));
    }

    void errorBars()
    {
        const ChartSpec line = chartOf(QStringLiteral(
            "plt.errorbar([1, 2, 3], [1, 4, 9], yerr=[0.1, 0.2, 0.3], label='e')\n"), QStringLiteral("line"));
        QCOMPARE(line.series().size(), 1);
        QCOMPARE(line.series()[0].ys, (std::vector<double>{1, 4, 9}));
        QCOMPARE(line.series()[0].errorY.minus, (std::vector<double>{0.1, 0.2, 0.3}));
        QCOMPARE(line.series()[0].errorY.plus, (std::vector<double>{0.1, 0.2, 0.3}));
        const ChartSpec bars = chartOf(QStringLiteral("plt.bar(['a', 'b'], [1, 2], yerr=[[0.5, 0.25], [1, 2]])\n"),
                                       QStringLiteral("bar"));
        QCOMPARE(bars.bars().errors.size(), size_t(1));
        QCOMPARE(bars.bars().errors[0].minus, (std::vector<double>{0.5, 0.25}));
        QCOMPARE(bars.bars().errors[0].plus, (std::vector<double>{1, 2}));
    }

    void pie()
    {
        const ChartSpec s = chartOf(QStringLiteral(
            "plt.pie([1, 2, 3], labels=['a', 'b', 'c'], colors=['#ff0000', '#00ff00', '#0000ff'], autopct='%1.0f%%')\n"
            "plt.title('Shares')\n"), QStringLiteral("pie"));
        QCOMPARE(s.title(), QStringLiteral("Shares"));
        QCOMPARE(s.slices().size(), 3);
        QCOMPARE(s.slices()[0].label, QStringLiteral("a"));
        QCOMPARE(s.slices()[1].color, QStringLiteral("#00ff00"));
        QVERIFY(std::abs(s.slices()[0].value - 60) < 1e-3);
        QVERIFY(std::abs(s.slices()[2].value - 180) < 1e-3);
    }

    void boxAndWhisker()
    {
        const ChartSpec s = chartOf(QStringLiteral(
            "plt.boxplot([[1, 2, 3, 4, 5, 40], [10, 11, 12, 13]], labels=['u', 'v'])\nplt.ylabel('ms')\n"),
            QStringLiteral("box_and_whisker"));
        QCOMPARE(s.boxes().size(), 2);
        const ChartBox& u = s.boxes()[0];
        QCOMPARE(u.label, QStringLiteral("u"));
        QCOMPARE(u.median, 3.5); // numpy's percentiles of the data
        QCOMPARE(u.firstQuartile, 2.25);
        QCOMPARE(u.thirdQuartile, 4.75);
        QCOMPARE(u.min, 1.0);
        QCOMPARE(u.max, 5.0);
        QCOMPARE(u.outliers, (std::vector<double>{40}));
        QCOMPARE(s.boxes()[1].median, 11.5);
        QCOMPARE(s.yLabel(), QStringLiteral("ms"));
    }

    void datesOnX()
    {
        const ChartSpec s = chartOf(QStringLiteral(
            "import datetime\nd = [datetime.datetime(2024, 1, i) for i in (1, 2, 3)]\nplt.plot(d, [5, 6, 7])\n"),
            QStringLiteral("line"));
        QVERIFY(s.datetimeX());
        const double jan1 = 1704067200000.0;
        QCOMPARE(s.series()[0].xs, (std::vector<double>{jan1, jan1 + 86400000.0, jan1 + 2 * 86400000.0}));
    }

    void logAndSymlogScales()
    {
        const ChartSpec log = chartOf(QStringLiteral("plt.plot([1, 10, 100], [1, 100, 10000])\nplt.yscale('log')\n"),
                                      QStringLiteral("line"));
        QCOMPARE(log.yAxis().scale, ChartScale::Log);
        QCOMPARE(log.yAxis().tickLabels.first(), QStringLiteral("1")); // not matplotlib's mathtext
        const ChartSpec symlog = chartOf(QStringLiteral("plt.plot([-10, 0, 10], [-100, 0, 100])\nplt.yscale('symlog', linthresh=2)\n"),
                                         QStringLiteral("line"));
        QCOMPARE(symlog.yAxis().scale, ChartScale::Symlog);
        QCOMPARE(symlog.yAxis().linthresh, 2.0);
    }

    void twinAxes()
    {
        const ChartSpec s = chartOf(QStringLiteral(
            "fig, ax = plt.subplots()\nax.plot([1, 2, 3], [1, 2, 3], label='left')\nax.set_ylabel('metres')\n"
            "ax2 = ax.twinx()\nax2.plot([1, 2, 3], [300, 200, 100], color='r', label='right')\nax2.set_ylabel('feet')\n"),
            QStringLiteral("line"));
        QCOMPARE(s.series().size(), 2);
        QVERIFY(!s.series()[0].rightAxis);
        QVERIFY(s.series()[1].rightAxis);
        QCOMPARE(s.series()[1].ys, (std::vector<double>{300, 200, 100}));
        QCOMPARE(s.yLabel(), QStringLiteral("metres"));
        QCOMPARE(s.y2Label(), QStringLiteral("feet"));
    }

    void compositeLaidOutLikeTheFigure()
    {
        const ChartSpec s = chartOf(QStringLiteral(
            "fig, axs = plt.subplots(2, 2)\naxs[0, 0].plot([1, 2], [3, 4])\naxs[0, 1].bar(['x', 'y'], [1, 2])\n"
            "axs[1, 0].pie([1, 3])\naxs[1, 1].axis('off')\nfig.suptitle('Four')\n"), QStringLiteral("composite_chart"));
        QCOMPARE(s.title(), QStringLiteral("Four"));
        QCOMPARE(s.rows(), 2);
        QCOMPARE(s.columns(), 2);
        QCOMPARE(s.children().size(), 3); // the empty cell is left out
        QCOMPARE(s.children()[1].typeName(), QStringLiteral("bar"));
        QCOMPARE(s.cells()[1].column, 1);
        QCOMPARE(s.children()[2].typeName(), QStringLiteral("pie"));
        QCOMPARE(s.cells()[2].row, 1);
        QCOMPARE(s.children()[1].bars().values[0], (std::vector<double>{1, 2}));
    }

    void figuresThatStayPngOnly_data()
    {
        QTest::addColumn<QString>("code");
        QTest::newRow("image") << "plt.imshow(np.eye(3))\n";
        QTest::newRow("contour") << "X, Y = np.meshgrid(np.arange(4), np.arange(4))\nplt.contourf(X, Y, X + Y)\n";
        QTest::newRow("3-D") << "ax = plt.figure().add_subplot(projection='3d')\nax.plot([1, 2], [1, 2], [1, 2])\n";
        QTest::newRow("fill_between") << "plt.plot([1, 2], [1, 2])\nplt.fill_between([1, 2], [0, 0], [1, 1])\n";
        QTest::newRow("annotations") << "plt.plot([1, 2], [1, 2])\nfor i in range(6): plt.annotate('p%d' % i, (1, 1))\n";
        QTest::newRow("colour-mapped scatter") << "plt.scatter([1, 2, 3], [1, 2, 3], c=[1, 2, 3])\nplt.colorbar()\n";
        QTest::newRow("step line") << "plt.step([1, 2, 3], [1, 3, 2])\n";
        QTest::newRow("axhline") << "plt.plot([1, 2], [1, 2])\nplt.axhline(1.5)\n";
        QTest::newRow("polar") << "plt.subplot(projection='polar').plot([0, 1], [1, 2])\n";
        QTest::newRow("box plot means") << "plt.boxplot([1, 2, 3, 9], showmeans=True)\n";
        // pandas' time series axes count periods of the index's frequency, not dates.
        QTest::newRow("pandas period axis") << "import pandas as pd\n"
                                               "pd.Series([1, 2, 3], index=pd.date_range('2024-01', periods=3, freq='M')).plot()\n";
        QTest::newRow("inset axes") << "fig, ax = plt.subplots()\nax.plot([1, 2])\nfig.add_axes([0.6, 0.6, 0.2, 0.2]).plot([2, 1])\n";
    }

    void figuresThatStayPngOnly()
    {
        QFETCH(QString, code);
        const Extracted r = run(QStringLiteral("import matplotlib.pyplot as plt\nimport numpy as np\n") + code);
        QVERIFY2(!r.pngSpecs.isEmpty(), r.err.constData()); // the picture is always there
        for (const QJsonObject& spec : r.pngSpecs)
            QVERIFY2(spec.isEmpty(), QJsonDocument(spec).toJson().constData());
    }

    void plotlyTraces()
    {
        if (QProcess::execute(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral("import plotly")}) != 0)
            QSKIP("python3-plotly is not installed (packaging/install-deps.sh installs it)");
        const Extracted r = run(QStringLiteral(
            "import plotly.graph_objects as go\n"
            "line = go.Figure(go.Scatter(x=[1, 2, 3], y=[4, 5, 6], mode='lines', name='s'))\n"
            "line.update_layout(title='Lines', xaxis_title='x')\n"
            "go.Figure([go.Bar(x=['a', 'b'], y=[1, 2], name='A'), go.Bar(x=['a', 'b'], y=[3, 4], name='B')],"
            " layout={'barmode': 'stack'}).show()\n"
            "pie = go.Figure(go.Pie(labels=['x', 'y'], values=[1, 3]))\n"
            "result = go.Figure(go.Box(y=[1, 2, 3, 4, 100], name='b'))\n"
            "heat = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]]))\n"));
        QCOMPARE(r.pngSpecs.size(), 0);
        QCOMPARE(r.interactive.size(), 4);
        QStringList types;
        for (const QJsonObject& spec : r.interactive) {
            const ChartParseResult parsed = ChartSpec::parse(spec, &m_columns);
            QVERIFY2(parsed.ok(), qPrintable(parsed.error));
            types << parsed.spec->typeName();
        }
        // Shown first, then the variables in the order they were bound.
        QCOMPARE(types, (QStringList{"bar", "line", "pie", "box_and_whisker"}));
        const ChartSpec bar = *ChartSpec::parse(r.interactive[0], &m_columns).spec;
        QCOMPARE(bar.bars().groups, (QStringList{"A", "B"}));
        QCOMPARE(bar.bars().values[1], (std::vector<double>{3, 4}));
        QVERIFY(!bar.bars().grouped);
        const ChartSpec line = *ChartSpec::parse(r.interactive[1], &m_columns).spec;
        QCOMPARE(line.title(), QStringLiteral("Lines"));
        QCOMPARE(line.series()[0].ys, (std::vector<double>{4, 5, 6}));
        const ChartSpec pie = *ChartSpec::parse(r.interactive[2], &m_columns).spec;
        QCOMPARE(pie.slices()[1].value, 270.0);
        const ChartSpec box = *ChartSpec::parse(r.interactive[3], &m_columns).spec;
        QCOMPARE(box.boxes()[0].median, 3.0);
        QCOMPARE(box.boxes()[0].outliers, (std::vector<double>{100}));
        // The heatmap is not drawn, and says so.
        QVERIFY2(r.err.contains("This plotly figure is not shown: trace type heatmap is not supported"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestChartExtract)
#include "test_chart_extract.moc"
