#include "core/language/Language.h"

#include <QtTest>

using namespace sandpad;

class TestLanguage : public QObject {
    Q_OBJECT
private slots:
    void fromTitle_data()
    {
        QTest::addColumn<QString>("title");
        QTest::addColumn<int>("expected"); // -1: refused
        QTest::newRow("none") << "notes" << int(Language::Python);
        QTest::newRow("py") << "a.py" << int(Language::Python);
        QTest::newRow("PY") << "A.PY" << int(Language::Python);
        QTest::newRow("js") << "a.js" << int(Language::JavaScript);
        QTest::newRow("mjs") << "a.mjs" << int(Language::JavaScript);
        QTest::newRow("cjs") << "a.cjs" << int(Language::JavaScript);
        QTest::newRow("txt") << "a.txt" << -1;
        QTest::newRow("ts") << "a.ts" << -1;
        QTest::newRow("hidden") << ".profile" << int(Language::Python);
    }
    void fromTitle()
    {
        QFETCH(QString, title);
        QFETCH(int, expected);
        const auto lang = languageFromTitle(title);
        if (expected < 0)
            QVERIFY(!lang.has_value());
        else
            QCOMPARE(int(*lang), expected);
    }
};

QTEST_GUILESS_MAIN(TestLanguage)
#include "test_language.moc"
