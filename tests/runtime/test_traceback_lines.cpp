// Which lines of a traceback point into the code that ran (core/run/TracebackLines): the
// notebook links them to the editor, the editor marks the innermost. Texts as the wrappers
// write them (resources/runtime): Python's frames, a Node stack named after the title, a
// syntax error's `title:line:column` heading; other files' frames are not the snippet's.
#include "core/run/TracebackLines.h"

#include <QTest>

using namespace sandpad;

namespace {
QList<int> codeLines(const QList<TracebackLines::Link>& links)
{
    QList<int> lines;
    for (const auto& link : links)
        lines.append(link.codeLine);
    return lines;
}
} // namespace

class TestTracebackLines : public QObject {
    Q_OBJECT

private slots:
    void pythonFrames()
    {
        const QString tb = QStringLiteral("Traceback (most recent call last):\n"
                                          "  File \"a.py\", line 7, in <module>\n"
                                          "  File \"a.py\", line 3, in f\n"
                                          "ZeroDivisionError: division by zero");
        const auto links = TracebackLines::links(tb, Language::Python, QStringLiteral("a.py"));
        QCOMPARE(codeLines(links), (QList<int>{7, 3}));
        QCOMPARE(links[0].textLine, 1);
        QCOMPARE(tb.split(u'\n')[1].mid(links[0].numberStart, links[0].numberLength), QStringLiteral("7"));
        QCOMPARE(TracebackLines::innermost(tb, Language::Python, QStringLiteral("a.py")), std::optional<int>(3));
    }

    void javaScriptStackOnlyTheSnippetsFrames()
    {
        const QString title = QStringLiteral("Untitled 2 · lines 4–9");
        const QString tb = QStringLiteral("TypeError: x.nope is not a function\n"
                                          "    at f (Untitled 2 · lines 4–9:2:5)\n"
                                          "    at Object.readFileSync (node:fs:448:20)\n"
                                          "    at /home/me/node_modules/lib/index.js:12:3\n"
                                          "    at Untitled 2 · lines 4–9:6:1\n"
                                          "    at async Promise.all (index 0)");
        const auto links = TracebackLines::links(tb, Language::JavaScript, title);
        QCOMPARE(codeLines(links), (QList<int>{2, 6}));
        QCOMPARE(links[0].textLine, 1);
        QCOMPARE(tb.split(u'\n')[1].mid(links[0].numberStart, links[0].numberLength), QStringLiteral("2"));
        QCOMPARE(TracebackLines::innermost(tb, Language::JavaScript, title), std::optional<int>(2)); // innermost first
        // Another title: none of these frames is its code.
        QVERIFY(TracebackLines::links(tb, Language::JavaScript, QStringLiteral("other.js")).isEmpty());
    }

    void javaScriptSyntaxErrorHeading()
    {
        const QString withColumn = QStringLiteral("calc.js:3:11\nconst c = ;\n          ^\n\nSyntaxError: Unexpected token ';'");
        QCOMPARE(TracebackLines::innermost(withColumn, Language::JavaScript, QStringLiteral("calc.js")), std::optional<int>(3));
        const QString withoutColumn = QStringLiteral("calc.js:12\n}\n\n\nSyntaxError: Unexpected token '}'");
        QCOMPARE(TracebackLines::innermost(withoutColumn, Language::JavaScript, QStringLiteral("calc.js")), std::optional<int>(12));
        // The quoted source line is not a frame even when it names the file.
        const QString quoting = QStringLiteral("calc.js:2:1\nlog('calc.js:9:9') )\n^\n\nSyntaxError: x");
        QCOMPARE(codeLines(TracebackLines::links(quoting, Language::JavaScript, QStringLiteral("calc.js"))), QList<int>{2});
    }

    void javaScriptNamesItDefaultsTo()
    {
        // No title: the runtime program calls the snippet main.mjs.
        const QString tb = QStringLiteral("Error: boom\n    at main.mjs:4:9");
        QCOMPARE(TracebackLines::innermost(tb, Language::JavaScript, QString()), std::optional<int>(4));
        // A session cell's sourceURL has no spaces.
        const QString cell = QStringLiteral("Error: boom\n    at Untitled_1:2:7");
        QCOMPARE(TracebackLines::innermost(cell, Language::JavaScript, QStringLiteral("Untitled 1")), std::optional<int>(2));
        QVERIFY(!TracebackLines::innermost(QStringLiteral("Error: boom"), Language::JavaScript, QStringLiteral("a.js")));
        // A title with regular-expression characters is taken literally.
        const QString odd = QStringLiteral("Error: boom\n    at f (a+(1).js:5:2)\n    at a+1.js:9:1");
        QCOMPARE(codeLines(TracebackLines::links(odd, Language::JavaScript, QStringLiteral("a+(1).js"))), QList<int>{5});
    }
};

QTEST_APPLESS_MAIN(TestTracebackLines)
#include "test_traceback_lines.moc"
