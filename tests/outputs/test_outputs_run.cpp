// Rich outputs end to end: one snippet with every kind through the Executor on the local provider
// (cold and pre-started), the Vercel and Daytona fakes (files in out_dir), a notebook session
// (Out[n] as a table), and sandpad-run (--json and text mode).
#include "CliDriver.h"
#include "ExecutionChecks.h"
#include "FakeProviderConfigs.h"
#include "FakeServer.h"
#include "LocalRunFixture.h"
#include "TestChecks.h"

#include "core/engine/Executor.h"
#include "core/providers/daytona/DaytonaProvider.h"
#include "core/providers/vercel/VercelProvider.h"
#include "core/run/ExecutionRequest.h"
#include "core/run/ExecutionResult.h"
#include "core/run/Run.h"
#include "core/session/NotebookSession.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace sandpad;

namespace {

const char* const kSnippet =
    "import pandas as pd, sympy as sp\n"
    "from sandpad import Markdown, SVG\n"
    "print('start')\n"
    "df = pd.DataFrame({'n': [1, 2, 3], 'name': ['a', 'b', 'c']}, index=pd.Index(['x', 'y', 'z'], name='key'))\n"
    "display(df)\n"
    "print('between')\n"
    "x = sp.symbols('x')\n"
    "display(sp.Rational(1, 2) * x**2, Markdown('**bold**'), SVG('<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>'))\n"
    "import matplotlib.pyplot as plt\n"
    "fig = plt.figure(figsize=(1, 1))\n"
    "display(fig)\n"
    "result = df\n";

QString kinds(const ExecutionResult& r)
{
    QStringList list;
    for (const RunOutput& o : r.outputs)
        list << RunOutput::typeName(o.type);
    return list.join(',');
}

// What every provider must return for kSnippet.
void verifySnippet(const ExecutionResult& r)
{
    QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
    QCOMPARE(r.stdoutText, QStringLiteral("start\nbetween\n"));
    QCOMPARE(kinds(r), QStringLiteral("table,math,markdown,svg,image,table"));
    const RunOutput& t = r.outputs[0];
    QCOMPARE(t.stdoutBytes, 6);
    QCOMPARE(t.textPosition(r.stdoutText), 6);
    QCOMPARE(t.columns, (QStringList{"n", "name"}));
    QCOMPARE(t.dtypes, (QStringList{"int64", "object"}));
    QCOMPARE(t.indexName, QStringLiteral("key"));
    QCOMPARE(t.index, (QStringList{"x", "y", "z"}));
    QCOMPARE(t.rows[2], (QStringList{"3", "c"}));
    QCOMPARE(r.outputs[1].stdoutBytes, 14);
    QCOMPARE(r.outputs[1].plain, QStringLiteral("x**2/2"));
    QCOMPARE(r.outputs[1].text, QStringLiteral("\\frac{x^{2}}{2}"));
    QVERIFY(!QImage::fromData(r.outputs[1].png).isNull());
    QCOMPARE(r.outputs[2].text, QStringLiteral("**bold**"));
    QVERIFY(r.outputs[3].text.startsWith(QStringLiteral("<svg")));
    QCOMPARE(QImage::fromData(r.outputs[4].png).isNull(), false);
    QVERIFY(r.charts.isEmpty()); // the displayed figure is not a chart as well
    QCOMPARE(r.outputs[5].rows.size(), 3); // `result`, a DataFrame, as a table
    QVERIFY(r.result && r.result->contains(QStringLiteral("name")));
}

} // namespace

class TestOutputsRun : public QObject {
    Q_OBJECT

    LocalRunFixture m_local;

    ExecutionResult run(Executor& executor, const QString& code)
    {
        return executor.run(LocalRunFixture::request(Language::Python, code, QStringLiteral("snippet.py")));
    }

private slots:
    void initTestCase()
    {
        if (!m_local.start())
            QSKIP("bubblewrap is not installed");
    }

    void cleanupTestCase() { m_local.stop(); }

    void localCold() { verifySnippet(run(m_local.cold(), QString::fromUtf8(kSnippet))); }

    void localPooled()
    {
        ExecutionResult r;
        SANDPAD_CHECK(r = m_local.runPooled(LocalRunFixture::request(Language::Python, QString::fromUtf8(kSnippet),
                                                                     QStringLiteral("snippet.py"))));
        verifySnippet(r);
    }

    void dataFrameAndMathExample()
    {
        QFile example(QStringLiteral(SANDPAD_SOURCE_DIR "/resources/examples/dataframe_math.py"));
        QVERIFY(example.open(QIODevice::ReadOnly));
        const ExecutionResult r = run(m_local.cold(), QString::fromUtf8(example.readAll()));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(kinds(r), QStringLiteral("markdown,table,math,math,math,table"));
        QCOMPARE(r.outputs[1].indexName, QStringLiteral("month"));
        QCOMPARE(r.outputs[1].columns, (QStringList{"units", "price", "revenue"}));
        for (int i : {2, 3, 4})
            QVERIFY2(!r.outputs[i].png.isEmpty(), qPrintable(r.outputs[i].text)); // mathtext drew each
        QVERIFY(r.stdoutText.startsWith(QStringLiteral("best month: ")));
    }

    void javascriptLocal()
    {
        ExecutionRequest request = ExecutionRequest::adHoc(Language::JavaScript,
            QStringLiteral("console.log('a');\ndisplay([{k: 1}, {k: 2}]);\nconsole.log('b');\n"), QStringLiteral("s.mjs"));
        const ExecutionResult r = m_local.cold().run(request);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(kinds(r), QStringLiteral("table"));
        QCOMPARE(r.outputs[0].stdoutBytes, 2);
        QCOMPARE(r.outputs[0].rows, (QList<QStringList>{{"1"}, {"2"}}));
    }

    void remoteFakes()
    {
        // The remote path: the wrapper writes the outputs' files into out_dir and the provider
        // reads them back.
        FakeServer vercel(QStringLiteral("fake_vercel.py")), daytona(QStringLiteral("fake_daytona.py"));
        QVERIFY(vercel.started() && daytona.started());
        VercelConfig v = fakeVercelConfig(vercel);
        v.basePackages = {QStringLiteral("matplotlib"), QStringLiteral("numpy"), QStringLiteral("pandas"), QStringLiteral("sympy")};
        DaytonaConfig d = fakeDaytonaConfig(daytona);
        d.basePackages = v.basePackages;
        Executor onVercel(std::make_shared<VercelProvider>(v), nullptr);
        Executor onDaytona(std::make_shared<DaytonaProvider>(d), nullptr);
        verifySnippet(run(onVercel, QString::fromUtf8(kSnippet)));
        verifySnippet(run(onDaytona, QString::fromUtf8(kSnippet)));
    }

    void cliJsonAndText()
    {
        CliDriver driver;
        driver.setTimeoutMs(180000);
        driver.setWorkingDirectory(driver.root());
        const QString code = driver.file(QStringLiteral("s.py"), kSnippet);
        const auto cli = [&driver](const QStringList& args) {
            const CliRun r = driver.run(args);
            return std::pair{r.out, r.err};
        };
        const auto [json, jsonErr] = cli({QStringLiteral("--json"), code});
        const QJsonObject o = QJsonDocument::fromJson(json).object();
        QVERIFY2(o.value("status") == "success", jsonErr.constData());
        const QJsonArray outputs = o.value("outputs").toArray();
        QCOMPARE(outputs.size(), 6);
        QCOMPARE(outputs[0].toObject().value("type").toString(), QStringLiteral("table"));
        QCOMPARE(outputs[0].toObject().value("columns").toArray(), (QJsonArray{"n", "name"}));
        QCOMPARE(outputs[0].toObject().value("stdout_offset").toInt(), 6);
        QCOMPARE(outputs[1].toObject().value("text").toString(), QStringLiteral("x**2/2"));
        QVERIFY(!outputs[1].toObject().value("png_base64").toString().isEmpty());
        QVERIFY(!QImage::fromData(QByteArray::fromBase64(outputs[4].toObject().value("base64").toString().toLatin1())).isNull());

        const auto [text, textErr] = cli({code});
        QVERIFY2(text.contains("key  n  name\nx    1  a\ny    2  b\nz    3  c\n[3 rows \xc3\x97 2 columns]\n"), text.constData());
        QVERIFY2(text.contains("x**2/2\n**bold**\n[SVG image,"), text.constData());
        QVERIFY2(textErr.contains("output 2 (math) saved to"), textErr.constData());
        QVERIFY2(textErr.contains("output 5 (image) saved to"), textErr.constData());
    }

    void sessionLastExpressionIsATable()
    {
        NotebookSession session(&m_local.cold());
        const auto wait = [](Run* run) {
            if (!run->isFinished()) {
                QEventLoop loop;
                QObject::connect(run, &Run::finished, &loop, &QEventLoop::quit);
                loop.exec();
            }
            ExecutionResult result = run->result();
            run->deleteLater();
            return result;
        };
        const ExecutionResult first = wait(session.execute(Language::Python, QStringLiteral("print('a')\ndisplay(1)\n"), QStringLiteral("cell")));
        QVERIFY2(first.status == RunStatus::Success, qPrintable(describeResult(first)));
        QCOMPARE(kinds(first), QStringLiteral("text"));
        QCOMPARE(first.outputs[0].stdoutBytes, 2);
        // Out[n] of a DataFrame is a table (not also its repr); offsets count this execution's stdout.
        const ExecutionResult second = wait(session.execute(
            Language::Python, QStringLiteral("import pandas as pd\nprint('bb')\npd.DataFrame({'v': [1, 2]})"), QStringLiteral("cell")));
        QVERIFY2(second.status == RunStatus::Success, qPrintable(describeResult(second)));
        QCOMPARE(second.executionCount, 2);
        QCOMPARE(kinds(second), QStringLiteral("table"));
        QCOMPARE(second.outputs[0].stdoutBytes, 3);
        QCOMPARE(second.outputs[0].rows, (QList<QStringList>{{"1"}, {"2"}}));
        QVERIFY(!second.result);
        // A plain last expression is still its repr.
        const ExecutionResult third = wait(session.execute(Language::Python, QStringLiteral("[1, 2]"), QStringLiteral("cell")));
        QCOMPARE(third.result.value_or(QString()), QStringLiteral("[1, 2]"));
        QVERIFY(third.outputs.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestOutputsRun)
#include "test_outputs_run.moc"
