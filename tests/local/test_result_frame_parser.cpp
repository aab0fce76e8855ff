#include "core/runtime/ResultFrameParser.h"

#include <QtTest>

using namespace sandpad;

class TestResultFrameParser : public QObject {
    Q_OBJECT
private slots:
    void framesInOddChunks()
    {
        const QByteArray stream = QByteArray("{\"name\": \"result.json\", \"size\": 5}\nhello")
                                  + "{\"name\":\"chart-1.png\",\"size\":3}\n\x01\n\x02";
        ResultFrameParser parser;
        for (char c : stream) // one byte at a time: the worst split
            parser.feed(&c, 1);
        parser.finish();
        QCOMPARE(parser.protocolError(), QString());
        QCOMPARE(parser.files().value("result.json"), QByteArray("hello"));
        QCOMPARE(parser.files().value("chart-1.png"), QByteArray("\x01\n\x02"));
    }
    void capSkipsAndRemembers()
    {
        ResultFrameParser parser(10);
        parser.feed(QByteArray("{\"name\":\"a\",\"size\":8}\n12345678"
                               "{\"name\":\"big\",\"size\":20}\n01234567890123456789"
                               "{\"name\":\"b\",\"size\":2}\nok"));
        parser.finish();
        QCOMPARE(parser.protocolError(), QString());
        QCOMPARE(parser.files().value("a"), QByteArray("12345678"));
        QVERIFY(!parser.files().contains("big"));
        QCOMPARE(parser.truncatedNames(), QStringList{"big"});
        QCOMPARE(parser.files().value("b"), QByteArray("ok"));
    }
    void badHeaderStops()
    {
        ResultFrameParser parser;
        parser.feed(QByteArray("not json\n{\"name\":\"a\",\"size\":1}\nx"));
        QVERIFY(!parser.protocolError().isEmpty());
        QVERIFY(parser.files().isEmpty());
    }
    void pathEscapeRefused()
    {
        ResultFrameParser parser;
        parser.feed(QByteArray("{\"name\":\"../x\",\"size\":1}\nx"));
        QVERIFY(!parser.protocolError().isEmpty());
        QVERIFY(parser.files().isEmpty());
    }
    void cutShort()
    {
        ResultFrameParser parser;
        parser.feed(QByteArray("{\"name\":\"a\",\"size\":10}\nxyz"));
        parser.finish();
        QVERIFY(parser.protocolError().contains("cut short"));
        QVERIFY(parser.files().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestResultFrameParser)
#include "test_result_frame_parser.moc"
