// Editor intelligence for Python in the window, offscreen, with the real language service (Jedi
// in its sandbox): the completion popup from Jedi after a dot and on Ctrl+Space, the word
// completion when Jedi has nothing and for JavaScript, the calltip with the current parameter
// (wrapped within the editor for numpy's long signatures), and the help pane on F1 / Ctrl+I.
#include "core/completion/CompletionService.h"
#include "ui/MainWindow.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorTabs.h"
#include "ui/editor/PythonAssist.h"
#include "ui/help/HelpPane.h"
#include "ui/theme/Theme.h"

#include <QApplication>
#include <QDockWidget>
#include <QFontMetrics>
#include <QFileInfo>
#include <QTest>
#include <QTextBrowser>
#include <typeinfo>

using namespace sandpad;

class TestPythonAssist : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<CompletionService> m_service;
    std::unique_ptr<MainWindow> m_window;

    CodeEditor* editorWith(const QString& text, Language language = Language::Python)
    {
        m_window->tabs()->newTab();
        CodeEditor* editor = m_window->tabs()->currentEditor();
        editor->setLanguage(language);
        editor->setText(text);
        const int last = editor->lines() - 1;
        editor->setCursorPosition(last, int(editor->text(last).size()));
        editor->setFocus();
        return editor;
    }

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists("/usr/bin/bwrap") || !QFileInfo::exists("/usr/lib/python3/dist-packages/jedi"))
            QSKIP("needs bubblewrap and python3-jedi");
        // A deadline that a loaded machine meets too: these tests are about answers, not speed.
        CompletionService::Options options;
        options.deadlineMs = 10000;
        m_service = std::make_unique<CompletionService>(options);
        MainWindowServices services;
        services.completion = m_service.get();
        m_window = std::make_unique<MainWindow>(services);
        m_window->resize(1200, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->pythonAssist());
        QVERIFY2(m_service->waitReady(180000), qPrintable(m_service->lastError())); // the first tab started it
    }

    void cleanupTestCase()
    {
        m_window.reset();
        if (m_service)
            QVERIFY(m_service->shutdown().confirmed);
    }

    void aDotOpensJedisPopup()
    {
        CodeEditor* editor = editorWith(QStringLiteral("import os\nos"));
        QTest::keyClick(editor, Qt::Key_Period);
        QTRY_VERIFY_WITH_TIMEOUT(editor->isListActive(), 30000);
        QVERIFY(editor->lastCompletions().contains("path"));
        QVERIFY(editor->lastCompletions().contains("getcwd")); // Jedi's, never written in the text
        QTest::keyClicks(editor, "getc");
        QTest::keyClick(editor, Qt::Key_Return);
        QCOMPARE(editor->text(), QStringLiteral("import os\nos.getcwd"));
    }

    void ctrlSpaceAsksJediToo()
    {
        CodeEditor* editor = editorWith(QStringLiteral("import numpy as np\nnp.lins"));
        QTest::keyClick(editor, Qt::Key_Space, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(editor->isListActive(), 30000);
        QCOMPARE(editor->lastCompletions(), QStringList{"linspace"});
    }

    void wordsWhenJediHasNothing()
    {
        // Inside a string Jedi completes file names only: none here, so the words answer.
        CodeEditor* editor = editorWith(QStringLiteral("s = 'hello_there'\nt = 'hello_th"));
        QTest::keyClick(editor, Qt::Key_Space, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(editor->isListActive(), 30000);
        QCOMPARE(editor->lastCompletions(), QStringList{"hello_there"});
    }

    void javascriptKeepsWordCompletion()
    {
        CodeEditor* editor = editorWith(QStringLiteral("const counter = 1;\ncou"), Language::JavaScript);
        QTest::keyClick(editor, Qt::Key_Space, Qt::ControlModifier);
        QVERIFY(editor->isListActive()); // at once: no service asked
        QCOMPARE(editor->lastCompletions(), (QStringList{"counter"}));
    }

    void calltipWithTheCurrentParameter()
    {
        CodeEditor* editor = editorWith(QStringLiteral("def area(width, height=2):\n    return width * height\narea"));
        QTest::keyClick(editor, Qt::Key_ParenLeft);
        QTRY_VERIFY_WITH_TIMEOUT(editor->isCallTipActive(), 30000);
        QCOMPARE(editor->lastCallTip(), QStringLiteral("area(width, height=2)"));
        QTest::keyClicks(editor, "3");
        QTest::keyClick(editor, Qt::Key_Comma);
        // The tip is shown again for the second parameter (its highlight: "height=2").
        QTRY_VERIFY_WITH_TIMEOUT(editor->isCallTipActive(), 30000);
        SignatureHint hint{"area", "area(width, height=2)", {"width", "height=2"}, 1};
        int from = 0, to = 0;
        PythonAssist::highlightOf(hint, &from, &to);
        QCOMPARE(hint.text.mid(from, to - from), QStringLiteral("height=2"));
        QTest::keyClick(editor, Qt::Key_ParenRight);
        QVERIFY(!editor->isCallTipActive());
    }

    void aLongCalltipWrapsWithinTheEditor()
    {
        // numpy's linspace has a signature of some 300 characters: one line would run far past
        // the editor's right edge (here some 500 px wide).
        m_window->helpDock()->hide();
        CodeEditor* editor = editorWith(QStringLiteral("import numpy as np\nnp.linspace"));
        QTest::keyClick(editor, Qt::Key_ParenLeft);
        QTRY_VERIFY_WITH_TIMEOUT(editor->isCallTipActive(), 30000);
        const QString tip = editor->lastCallTip();
        QVERIFY2(tip.startsWith(QStringLiteral("linspace(")) && tip.contains(u'\n'), qPrintable(tip));
        QWidget* shown = nullptr;
        for (QWidget* w : QApplication::allWidgets())
            if (w->isVisible() && QByteArray(typeid(*w).name()).contains("QsciSciCallTip"))
                shown = w;
        QVERIFY(shown);
        const QRect inEditor(editor->mapToGlobal(QPoint(0, 0)), editor->size());
        QVERIFY2(tip.size() > 200 && editor->width() < QFontMetrics(editor->font()).horizontalAdvance(QString(tip).replace(u'\n', u' ')),
                 "a signature wider than the editor");
        const QRect tipRect(shown->mapToGlobal(QPoint(0, 0)), shown->size());
        QVERIFY2(tipRect.left() >= inEditor.left() && tipRect.right() <= inEditor.right(),
                 qPrintable(QStringLiteral("tip %1..%2, editor %3..%4").arg(tipRect.left()).arg(tipRect.right())
                                .arg(inEditor.left()).arg(inEditor.right())));
        QTest::keyClick(editor, Qt::Key_Escape);
    }

    void wrappingKeepsTheTextAndTheHighlight()
    {
        const SignatureHint hint{"f", "f(first_parameter: int, second: Tuple[int, int]=(1, 2), third_one=None) -> Result",
                                 {"first_parameter: int", "second: Tuple[int, int]=(1, 2)", "third_one=None"}, 2};
        const QFont font(QStringLiteral("Monospace"), 10);
        const int width = QFontMetrics(font).horizontalAdvance(QStringLiteral("f(first_parameter: int, second"));
        int from = 0, to = 0;
        PythonAssist::highlightOf(hint, &from, &to);
        int from2 = from, to2 = to;
        const QString wrapped = PythonAssist::wrapCallTip(hint.text, font, width, &from, &to);
        // Only line breaks changed: after "(" one inserted, the others in place of spaces.
        QCOMPARE(QString(wrapped).replace(QStringLiteral("(\n"), QStringLiteral("(")).replace(u'\n', u' '), hint.text);
        QVERIFY(wrapped.count(u'\n') >= 2);
        // Narrower than the first parameter: the line ends after "(" (a newline inserted).
        const QString narrow = PythonAssist::wrapCallTip(hint.text, font, QFontMetrics(font).horizontalAdvance(QStringLiteral("f(first")), &from2, &to2);
        QVERIFY2(narrow.startsWith(QStringLiteral("f(\nfirst_parameter: int,\n")), qPrintable(narrow));
        QCOMPARE(narrow.mid(from2, to2 - from2), QStringLiteral("third_one=None")); // moved with the inserted newline
        for (const QString& line : wrapped.split(u'\n'))
            QVERIFY2(QFontMetrics(font).horizontalAdvance(line) <= width || !line.contains(QStringLiteral(", ")), qPrintable(line));
        QCOMPARE(wrapped.mid(from, to - from), QStringLiteral("third_one=None"));
        QCOMPARE(PythonAssist::wrapCallTip(QStringLiteral("g(a, b)"), font, 2000), QStringLiteral("g(a, b)"));
    }

    void f1ShowsTheHelpPane()
    {
        CodeEditor* editor = editorWith(QStringLiteral("import os\nos.path.join"));
        editor->setCursorPosition(1, 9);
        QVERIFY(!m_window->helpDock()->isVisible());
        QDockWidget* variables = nullptr;
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>())
            if (dock->objectName() == QStringLiteral("variableExplorer"))
                variables = dock;
        QVERIFY(variables);
        variables->show();
        QTest::keyClick(editor, Qt::Key_F1);
        QVERIFY(m_window->helpDock()->isVisible());
        // Opened above the Variables dock, the help gets most of the column (docstrings are long).
        QTRY_VERIFY2(m_window->helpDock()->height() > variables->height() * 3 / 2,
                     qPrintable(QStringLiteral("help %1 px, variables %2 px").arg(m_window->helpDock()->height()).arg(variables->height())));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->helpPane()->title().startsWith("os.path.join"), 30000);
        QVERIFY(m_window->helpPane()->plainText().contains("Join"));
        // Ctrl+I does the same, for another name.
        editor = editorWith(QStringLiteral("import json\njson.dumps"));
        QTest::keyClick(editor, Qt::Key_I, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->helpPane()->title().startsWith("json.dumps"), 30000);
        QVERIFY(m_window->helpPane()->plainText().contains("JSON"));
        QVERIFY(!editor->text().contains('\t')); // Ctrl+I was not typed as a Tab
        // Just inside a call's parenthesis: the called function's help (not the parenthesis').
        editor = editorWith(QStringLiteral("import json\njson.loads( "));
        QTest::keyClick(editor, Qt::Key_F1);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->helpPane()->title().startsWith("json.loads"), 30000);
    }

    void theHelpPaneFollowsTheTheme()
    {
        auto* text = m_window->helpPane()->findChild<QTextBrowser*>(QStringLiteral("helpText"));
        QVERIFY(text);
        Theme::apply(QStringLiteral("dark"));
        QTRY_VERIFY(text->palette().color(QPalette::Base).lightness() < 128);
        QVERIFY(text->palette().color(QPalette::Text).lightness() > 128);
        Theme::apply(QStringLiteral("light"));
        QTRY_VERIFY(text->palette().color(QPalette::Base).lightness() > 128);
        Theme::apply(QStringLiteral("system"));
    }

    void helpInJavaScriptSaysWhy()
    {
        CodeEditor* editor = editorWith(QStringLiteral("console.log"), Language::JavaScript);
        QTest::keyClick(editor, Qt::Key_F1);
        QCOMPARE(m_window->helpPane()->title(), QStringLiteral("log"));
        QVERIFY(m_window->helpPane()->plainText().contains("JavaScript"));
    }
};

QTEST_MAIN(TestPythonAssist)
#include "test_python_assist.moc"
