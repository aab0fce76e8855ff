#include "core/runtime/PipDirectives.h"

#include <QtTest>

using namespace sandpad;

class TestPipDirectives : public QObject {
    Q_OBJECT
private slots:
    void blanksDirectiveLinesKeepingLineNumbers()
    {
        const QString code = QStringLiteral("!pip install requests\nimport requests\n  !pip install rich  \nx = 1\n");
        const PipDirectives d = PipDirectives::parse(code);
        QCOMPARE(d.code(), QStringLiteral("\nimport requests\n\nx = 1\n"));
        QCOMPARE(d.code().count(u'\n'), code.count(u'\n'));
        QCOMPARE(d.directiveLines(), (QList<int>{1, 3}));
        QCOMPARE(d.packages(), (QStringList{"requests", "rich"}));
    }
    void onlyLinesStartingWithTheDirective()
    {
        const QString code = QStringLiteral("print('!pip install x')\n# !pip install y\n!pipinstall z\n!pip  install w\n");
        const PipDirectives d = PipDirectives::parse(code);
        QCOMPARE(d.code(), code);
        QVERIFY(d.packages().isEmpty());
    }
    void flagsDroppedSpecifiersKept()
    {
        const PipDirectives d = PipDirectives::parse(QStringLiteral(
            "!pip install -q --upgrade requests==2.31 'pandas<3' \"rich>=13\" -i https://x/simple tiny_pkg\n"));
        QCOMPARE(d.packages(), (QStringList{"requests==2.31", "pandas<3", "rich>=13", "tiny_pkg"}));
    }
    void commentsAndDuplicates()
    {
        const PipDirectives d = PipDirectives::parse(QStringLiteral(
            "!pip install a b # the rest is a comment c\n!pip install a\n%pip install d\n"));
        QCOMPARE(d.packages(), (QStringList{"a", "b", "d"}));
        QCOMPARE(d.code(), QStringLiteral("\n\n\n"));
    }
    void crlfKept()
    {
        const PipDirectives d = PipDirectives::parse(QStringLiteral("!pip install a\r\nprint(1)\r\n"));
        QCOMPARE(d.code(), QStringLiteral("\r\nprint(1)\r\n"));
    }
    void baseSetSkippedByNormalizedName()
    {
        const PipDirectives d = PipDirectives::parse(QStringLiteral(
            "!pip install NumPy pandas==2.0 Matplotlib>=3 sympy yFinance requests SymPy[extra] scikit_learn\n"));
        QCOMPARE(d.packages().size(), 8);
        // yfinance is not in every runtime (the local sandbox lacks it): installed, not skipped.
        QCOMPARE(d.packagesToInstall(), (QStringList{"yFinance", "requests", "scikit_learn"}));
    }
    void normalizedNames()
    {
        QCOMPARE(PipDirectives::normalizedName(QStringLiteral("Requests_OAuthlib[socks]>=1.0")), QStringLiteral("requests-oauthlib"));
        QCOMPARE(PipDirectives::normalizedName(QStringLiteral("zope.interface==5")), QStringLiteral("zope-interface"));
        QCOMPARE(PipDirectives::normalizedName(QStringLiteral("a__b--c ; python_version>'3'")), QStringLiteral("a-b-c"));
    }
    void noDirectives()
    {
        const PipDirectives d = PipDirectives::parse(QStringLiteral("print(1)"));
        QCOMPARE(d.code(), QStringLiteral("print(1)"));
        QVERIFY(d.packagesToInstall().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestPipDirectives)
#include "test_pip_directives.moc"
