// Keyboard and accessibility (issue 16): the keyboard is never trapped (Escape then Tab leaves
// the editor, Tab leaves the Documents tables and reaches their buttons, Ctrl+Tab between tabs),
// the Language box is reached and named, Ctrl+/ toggles comments, and Help offers a shortcut
// sheet read from the actions and the bundled documentation. Offscreen, no sandbox.
#include "ui/documents/DocumentBrowser.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/help/DocumentationBrowser.h"
#include "ui/help/ShortcutSheet.h"
#include "ui/MainWindow.h"
#include "ui/MainWindowActions.h"

#include <QAccessible>
#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTextBrowser>
#include <QVBoxLayout>

using namespace sandpad;

class TestKeyboard : public QObject {
    Q_OBJECT

    static void show(QWidget& w)
    {
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
    }

private slots:
    void escapeThenTabLeavesTheEditor()
    {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        auto* page = new EditorPage(QStringLiteral("Untitled 1"), &window);
        auto* after = new QLineEdit(&window);
        layout->addWidget(page);
        layout->addWidget(after);
        show(window);
        CodeEditor* editor = page->editor();
        editor->setFocus();
        QVERIFY(editor->hasFocus());
        QTest::keyClick(editor, Qt::Key_Tab); // an editor's Tab indents
        QVERIFY(editor->hasFocus());
        QCOMPARE(editor->text(), QStringLiteral("    "));
        QTest::keyClick(editor, Qt::Key_Escape);
        QVERIFY(editor->tabLeavesEditor());
        QTest::keyClick(editor, Qt::Key_Tab);
        QVERIFY2(!editor->hasFocus(), "Escape, Tab moved the focus on");
        QCOMPARE(editor->text(), QStringLiteral("    ")); // no second indent
        // Typing after Escape keeps Tab an indent.
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_Escape);
        QTest::keyClick(editor, Qt::Key_A);
        QTest::keyClick(editor, Qt::Key_Tab);
        QVERIFY(editor->hasFocus());
        // Backwards too.
        QTest::keyClick(editor, Qt::Key_Escape);
        QTest::keyClick(editor, Qt::Key_Backtab, Qt::ShiftModifier);
        QVERIFY(!editor->hasFocus());
    }

    void languageBoxIsReachedAndNamed()
    {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        auto* page = new EditorPage(QStringLiteral("Untitled 1"), &window);
        layout->addWidget(page);
        show(window);
        auto* box = page->findChild<QComboBox*>();
        QVERIFY(box);
        QVERIFY(box->focusPolicy() & Qt::TabFocus);
        page->editor()->setFocus();
        QTest::keyClick(page->editor(), Qt::Key_Escape);
        QTest::keyClick(page->editor(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(box)); // next after the editor
        QAccessibleInterface* a = QAccessible::queryAccessibleInterface(box);
        QVERIFY(a);
        QCOMPARE(a->text(QAccessible::Name), QStringLiteral("Language of this tab"));
        QCOMPARE(a->text(QAccessible::Value), QStringLiteral("Python"));
    }

    void ctrlSlashTogglesComments()
    {
        CodeEditor editor;
        editor.setText(QStringLiteral("def f(x):\n    y = x\n\n    return y\n"));
        editor.setSelection(1, 2, 3, 5); // lines 2 to 4, partly
        editor.toggleComment();
        QCOMPARE(editor.text(), QStringLiteral("def f(x):\n    # y = x\n\n    # return y\n"));
        editor.toggleComment(); // again: back in
        QCOMPARE(editor.text(), QStringLiteral("def f(x):\n    y = x\n\n    return y\n"));
        editor.setCursorPosition(0, 3);
        editor.toggleComment();
        QCOMPARE(editor.text().section(QLatin1Char('\n'), 0, 0), QStringLiteral("# def f(x):"));

        CodeEditor js;
        js.setLanguage(Language::JavaScript);
        js.setText(QStringLiteral("let a = 1;\n  // done\nlet b = 2;"));
        js.selectAll();
        js.toggleComment(); // mixed: all commented
        QCOMPARE(js.text(), QStringLiteral("// let a = 1;\n//   // done\n// let b = 2;"));
        js.toggleComment();
        QCOMPARE(js.text(), QStringLiteral("let a = 1;\n  // done\nlet b = 2;"));
        // Ctrl+/ reaches the window's action: the editor does not take it as a word move.
        QKeyEvent override(QEvent::ShortcutOverride, Qt::Key_Slash, Qt::ControlModifier);
        QCoreApplication::sendEvent(&js, &override);
        QVERIFY(!override.isAccepted());
    }

    void documentTablesLetTabGoToTheirButtons()
    {
        DocumentBrowser browser(nullptr, nullptr);
        show(browser);
        for (QAbstractItemView* view : browser.findChildren<QAbstractItemView*>())
            QVERIFY2(!view->tabKeyNavigation(), qPrintable(view->accessibleName()));
        QTableView* list = nullptr;
        for (QTableView* t : browser.findChildren<QTableView*>())
            if (t->accessibleName() == QStringLiteral("Document list"))
                list = t;
        QVERIFY(list);
        // The chain after the list goes to its buttons (enabled or not), then the revisions.
        auto nextStop = [](QWidget* from) {
            QWidget* w = from->nextInFocusChain();
            while (w != from && (!(w->focusPolicy() & Qt::TabFocus) || from->isAncestorOf(w)))
                w = w->nextInFocusChain();
            return w;
        };
        QWidget* next = nextStop(list);
        auto* open = qobject_cast<QPushButton*>(next);
        QVERIFY2(open, next ? next->metaObject()->className() : "null");
        QCOMPARE(open->text(), QStringLiteral("Open"));
        QWidget* w = open;
        int steps = 0;
        while (w && !qobject_cast<QTableWidget*>(w) && steps++ < 20)
            w = nextStop(w);
        QVERIFY(w);
        QCOMPARE(w->accessibleName(), QStringLiteral("Revision timeline"));
    }

    void ctrlTabSwitchesTabsAndHelpHasShortcutsAndDocs()
    {
        MainWindow window(MainWindowServices{});
        show(window);
        EditorTabs* tabs = window.tabs();
        tabs->newTab();
        tabs->newTab();
        QCOMPARE(tabs->count(), 3);
        tabs->setCurrentIndex(0);
        tabs->currentEditor()->setFocus();
        QTest::keyClick(tabs->currentEditor(), Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), 1);
        QTest::keyClick(tabs->currentEditor(), Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(tabs->currentIndex(), 0);
        QTest::keyClick(tabs->currentEditor(), Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(tabs->currentIndex(), 2); // wraps

        // The sheet has every action that has a key, as the action names it.
        const QList<ShortcutSheet::Row> rows = ShortcutSheet::rows(&window);
        auto has = [&rows](const QString& action, const QString& keys) {
            for (const ShortcutSheet::Row& r : rows)
                if (r.action == action && r.keys.contains(keys))
                    return true;
            return false;
        };
        QVERIFY(has(QStringLiteral("Toggle Comment"), QKeySequence(Qt::CTRL | Qt::Key_Slash).toString(QKeySequence::NativeText)));
        QVERIFY(has(QStringLiteral("Run All"), QKeySequence(Qt::CTRL | Qt::Key_Return).toString(QKeySequence::NativeText)));
        QVERIFY(has(QStringLiteral("Next Tab"), QKeySequence(Qt::CTRL | Qt::Key_Tab).toString(QKeySequence::NativeText)));
        QVERIFY(has(QStringLiteral("Documents"), QStringLiteral("Shift+D")));
        QVERIFY(has(QStringLiteral("Leave the editor (focus the next control)"), QStringLiteral("Esc")));
        int withKeys = 0;
        for (QAction* a : window.findChildren<QAction*>())
            withKeys += a->shortcuts().isEmpty() ? 0 : 1;
        QVERIFY(rows.size() >= withKeys);

        MainWindowActions* a = window.actions();
        QVERIFY(a->keyboardShortcuts->associatedObjects().size() >= 1); // in the Help menu
        a->keyboardShortcuts->trigger();
        QVERIFY(window.findChild<ShortcutSheet*>());
        a->documentation->trigger();
        QVERIFY(window.findChild<DocumentationBrowser*>());
    }

    void documentationIsBundledAndLinked()
    {
        const QStringList pages = DocumentationBrowser::pages();
        QVERIFY(pages.size() >= 6);
        QCOMPARE(pages.first(), QStringLiteral(":/sandpad/docs/README.md"));
        QVERIFY(pages.contains(QStringLiteral(":/sandpad/docs/docs/architecture.md")));
        DocumentationBrowser docs;
        QVERIFY(docs.browser()->toPlainText().contains(QStringLiteral("Sandpad")));
        docs.showPage(QStringLiteral(":/sandpad/docs/docs/providers.md"));
        QVERIFY(docs.browser()->source().toString().endsWith(QStringLiteral("docs/providers.md")));
        QVERIFY(!docs.browser()->toPlainText().isEmpty());
    }
};

QTEST_MAIN(TestKeyboard)
#include "test_keyboard.moc"
