// TerminalText: what sandpad-run shows on a terminal of a snippet's text.
#include "app/sandpad-run/TerminalText.h"

#include <QtTest>

using namespace sandpad;

class TestTerminalText : public QObject {
    Q_OBJECT
private slots:
    void escapes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("shown");
        QTest::newRow("plain") << QStringLiteral("hello\tworld\n") << QStringLiteral("hello\tworld\n");
        QTest::newRow("osc title") << QStringLiteral("\x1b]0;pwned\x07") << QStringLiteral("\\x1b]0;pwned\\x07");
        QTest::newRow("clear") << QStringLiteral("\x1b[2J\x1b[H") << QStringLiteral("\\x1b[2J\\x1b[H");
        QTest::newRow("cr") << QStringLiteral("50%\r100%\n") << QStringLiteral("50%\\x0d100%\n");
        QTest::newRow("crlf") << QStringLiteral("a\r\nb\r\n") << QStringLiteral("a\r\nb\r\n");
        QTest::newRow("nul del bs") << QString::fromUtf16(u"a\u0000b\u007fc\bd", 7) << QStringLiteral("a\\x00b\\x7fc\\x08d");
        QTest::newRow("c1 csi") << QString::fromUtf16(u"\u009b31m") << QStringLiteral("\\u009b31m");
        QTest::newRow("bidi") << QString::fromUtf16(u"if \u202e} \u2066x\u2069 \u202a\u202b\u202c\u202d")
                              << QStringLiteral("if \\u202e} \\u2066x\\u2069 \\u202a\\u202b\\u202c\\u202d");
        QTest::newRow("unicode text") << QString::fromUtf16(u"π ≈ 3.14, שלום, 日本") << QString::fromUtf16(u"π ≈ 3.14, שלום, 日本");
        QTest::newRow("cr at end") << QStringLiteral("a\r") << QStringLiteral("a\\x0d");
    }
    void escapes()
    {
        QFETCH(QString, text);
        QFETCH(QString, shown);
        QCOMPARE(TerminalText::escaped(text), shown);
    }
    void chunks()
    {
        // A chunk can end between CR and LF: the CR waits for the next chunk.
        TerminalText t;
        QCOMPARE(t.escape(u"line\r"), QStringLiteral("line"));
        QCOMPARE(t.escape(u"\nnext\r"), QStringLiteral("\r\nnext"));
        QCOMPARE(t.escape(u""), QString());
        QCOMPARE(t.escape(u"over"), QStringLiteral("\\x0dover"));
        QCOMPARE(t.escape(u"end\r"), QStringLiteral("end"));
        QCOMPARE(t.finish(), QStringLiteral("\\x0d"));
        QCOMPARE(t.finish(), QString());
    }
};

QTEST_GUILESS_MAIN(TestTerminalText)
#include "test_terminal_text.moc"
