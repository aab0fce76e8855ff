// A JavaScript snippet's html output end to end (issue 16): display({type: "html", text}) in the
// real local sandbox, a fresh run and a notebook session's execution (a tab's default; display was
// not defined there), the result through ResultCollector, a notebook entry's OutputsPanel, and
// HtmlOutputView, offscreen: the HTML is shown formatted, its script is not run and its image and
// stylesheet are not loaded, its javascript: link is not a link.
#include "ExecutionChecks.h"
#include "LocalRunFixture.h"

#include "core/run/ExecutionResult.h"
#include "core/run/Run.h"
#include "core/session/NotebookSession.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"
#include "ui/outputs/HtmlOutputView.h"
#include "ui/outputs/OutputsPanel.h"

#include <QtTest>

using namespace sandpad;

namespace {

// The page the snippet displays: formatting to keep, and a script, an image, a stylesheet and a
// javascript: link (to a host port nothing listens on) that must do nothing.
const char* const kSnippet =
    "console.log('before');\n"
    "const rows = [1, 2].map((n) => `<tr><td>${n}</td><td>${n * n}</td></tr>`).join('');\n"
    "display({type: 'html', text: `<h3>Squares</h3><p>A <b>bold</b> word</p><table>${rows}</table>`\n"
    "  + '<script>document.title = \"ran\"</script><img src=\"http://127.0.0.1:9/pixel.png\" alt=\"pixel\">'\n"
    "  + '<link rel=\"stylesheet\" href=\"http://127.0.0.1:9/s.css\"><a href=\"javascript:alert(1)\">bad link</a>'});\n"
    "console.log('after');\n";

} // namespace

class TestHtmlRun : public QObject {
    Q_OBJECT

    LocalRunFixture m_local;

private slots:
    void initTestCase()
    {
        if (!m_local.start())
            QSKIP("bubblewrap is not installed");
    }

    void cleanupTestCase() { m_local.stop(); }

    // r's one output is the snippet's page, after "before\n"; a notebook shows it safely.
    static void verifyShownSafely(const ExecutionResult& r)
    {
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("before\nafter\n"));
        QCOMPARE(r.outputs.size(), 1);
        const RunOutput& html = r.outputs[0];
        QCOMPARE(RunOutput::typeName(html.type), QStringLiteral("html"));
        QCOMPARE(html.stdoutBytes, 7); // after "before\n"
        QVERIFY2(html.text.startsWith(QStringLiteral("<h3>Squares</h3>")), qPrintable(html.text));
        QVERIFY(html.text.contains(QStringLiteral("<td>2</td><td>4</td>")));

        RunNotebook notebook;
        RunEntry* entry = notebook.addFinished(new Run(r));
        notebook.resize(700, 600);
        notebook.show();
        QCoreApplication::processEvents();
        // The printed text, the page, the printed text, in the order they came.
        QCOMPARE(entry->outputsPanel()->partKinds(), (QStringList{"stdout", "html", "stdout"}));
        auto* view = qobject_cast<HtmlOutputView*>(entry->outputsPanel()->parts().value(1));
        QVERIFY(view);
        QVERIFY2(view->rendered(), qPrintable(view->note()));
        QVERIFY(!view->showsSource());
        const QString shown = view->browser()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("Squares")) && shown.contains(QStringLiteral("A bold word")), qPrintable(shown));
        QVERIFY2(!shown.contains(QStringLiteral("<b>")), qPrintable(shown)); // formatted, not tags
        QVERIFY2(!shown.contains(QStringLiteral("document.title")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("bad link")), qPrintable(shown));
        // Nothing loaded, nothing to run, no javascript: link left.
        QCOMPARE(view->browser()->resourceRequests(), 0);
        const QString safe = view->renderedHtml().toLower();
        for (const char* gone : {"<script", "127.0.0.1", "javascript:", "<img", "<link"})
            QVERIFY2(!safe.contains(QLatin1String(gone)), gone);
        QVERIFY2(view->note().contains(QStringLiteral("not shown")), qPrintable(view->note()));
        QVERIFY(notebook.window()->windowTitle() != QStringLiteral("ran"));
    }

    void aFreshRunsHtmlOutputIsShownSafely()
    {
        verifyShownSafely(m_local.runCold(
            LocalRunFixture::request(Language::JavaScript, QString::fromUtf8(kSnippet), QStringLiteral("page.mjs"))));
    }

    // A session's executions each have their outputs, offsets counted from the execution's start;
    // display is not one of the user's variables.
    void aSessionsHtmlOutputIsShownSafely()
    {
        NotebookSession session(&m_local.cold());
        const ExecutionResult first = waitForResult(session.execute(
            Language::JavaScript, QStringLiteral("console.log('earlier output');\nlet n = 1;\n"), QStringLiteral("cell.js")));
        QVERIFY2(first.status == RunStatus::Success, qPrintable(describeResult(first)));
        QVERIFY(first.outputs.isEmpty());
        verifyShownSafely(waitForResult(session.execute(Language::JavaScript, QString::fromUtf8(kSnippet), QStringLiteral("cell.js"))));
        const ExecutionResult third = waitForResult(session.execute(Language::JavaScript, QStringLiteral("n + 1"), QStringLiteral("cell.js")));
        QVERIFY2(third.status == RunStatus::Success, qPrintable(describeResult(third)));
        QVERIFY2(third.outputs.isEmpty(), "the last execution's outputs are not shown again");
        QCOMPARE(third.result.value_or(QString()), QStringLiteral("2"));
        QStringList names;
        for (const auto& v : session.variables())
            names << v.name;
        QVERIFY2(names.contains(QStringLiteral("n")) && !names.contains(QStringLiteral("display")), qPrintable(names.join(',')));
    }
};

QTEST_MAIN(TestHtmlRun)
#include "test_html_run.moc"
