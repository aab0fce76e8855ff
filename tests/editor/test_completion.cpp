// Completion in the editor (issue 16): Ctrl+Space, after a dot and as you type, from the words of
// the text and the language's keywords (WordCompleter), or from a completion source when one is
// set (the hook for a language service or a live session). Offscreen, no sandbox.
#include "ui/editor/CodeEditor.h"
#include "ui/editor/WordCompleter.h"

#include <QTest>

using namespace sandpad;

class TestCompletion : public QObject {
    Q_OBJECT

private slots:
    void wordsKeywordsAndQualifiedNames()
    {
        const QString text = QStringLiteral("import numpy as np\nvalues = np.linspace(0, 1)\nvariance = np.var(values)\n");
        QCOMPARE(WordCompleter::candidates(text, Language::Python, QStringLiteral("va")),
                 (QStringList{"values", "var", "variance"}));
        QVERIFY(WordCompleter::candidates(text, Language::Python, QStringLiteral("pri")).contains(QStringLiteral("print")));
        QCOMPARE(WordCompleter::candidates(text, Language::Python, QString(), QStringLiteral("np")),
                 (QStringList{"linspace", "var"}));
        QCOMPARE(WordCompleter::candidates(text, Language::Python, QStringLiteral("l"), QStringLiteral("np")),
                 (QStringList{"linspace"}));
        QVERIFY(WordCompleter::candidates(text, Language::Python, QString()).isEmpty());
        const QString js = QStringLiteral("const $el = 1;\nconsole.log($el);\n");
        QCOMPARE(WordCompleter::candidates(js, Language::JavaScript, QStringLiteral("$")), (QStringList{"$el"}));
        QCOMPARE(WordCompleter::candidates(js, Language::JavaScript, QStringLiteral("lo"), QStringLiteral("console")),
                 (QStringList{"log"}));
    }

    // A huge document offers the words around the cursor (a megabyte either side), not all of it.
    void aHugeDocumentOffersTheWordsAroundTheCursor()
    {
        QString text = QStringLiteral("zetaFar = 1\n");
        while (text.size() < (6 << 20))
            text += QStringLiteral("filler_line = 0\n");
        text += QStringLiteral("zetaNear = 2\nzeta");
        CodeEditor editor;
        editor.loadText(text);
        editor.setCursorPosition(editor.lines() - 1, 4);
        editor.showCompletions(true);
        QCOMPARE(editor.lastCompletions(), (QStringList{"zetaNear"}));
    }

    void ctrlSpaceOffersAndReturnInserts()
    {
        CodeEditor editor;
        editor.resize(600, 400);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setText(QStringLiteral("counter = 1\nco"));
        editor.setCursorPosition(1, 2);
        editor.setFocus();
        QTest::keyClick(&editor, Qt::Key_Space, Qt::ControlModifier);
        QVERIFY(editor.isListActive());
        QCOMPARE(editor.lastCompletions(), (QStringList{"continue", "counter"}));
        QTest::keyClick(&editor, Qt::Key_U); // narrows the list as typing goes on
        QTest::keyClick(&editor, Qt::Key_Return);
        QCOMPARE(editor.text(), QStringLiteral("counter = 1\ncounter"));
    }

    void aDotOffersTheQualifiersNames()
    {
        CodeEditor editor;
        editor.resize(600, 400);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setLanguage(Language::JavaScript);
        editor.setText(QStringLiteral("console.log(1);\nconsole"));
        editor.setCursorPosition(1, 7);
        editor.setFocus();
        QTest::keyClick(&editor, Qt::Key_Period);
        QVERIFY(editor.isListActive());
        QCOMPARE(editor.lastCompletions(), (QStringList{"log"}));
        QTest::keyClick(&editor, Qt::Key_Escape);
        // A source (a language service) answers first when it has something.
        editor.setCompletionSource([](const QString&, int, int) { return QStringList{"error", "log", "warn"}; });
        editor.showCompletions(true);
        QCOMPARE(editor.lastCompletions(), (QStringList{"error", "log", "warn"}));
    }
};

QTEST_MAIN(TestCompletion)
#include "test_completion.moc"
