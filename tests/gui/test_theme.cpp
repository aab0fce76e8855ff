// View > Theme: the light and dark palettes, going back to the desktop's own, the setting that
// remembers the choice, and the menu that offers it.
#include "core/settings/AppSettings.h"
#include "ui/editor/CodeEditor.h"
#include "ui/MainWindowActions.h"
#include "ui/theme/Theme.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QStyle>
#include <QTemporaryDir>
#include <Qsci/qscilexer.h>
#include <QtTest>

using namespace sandpad;

class TestTheme : public QObject {
    Q_OBJECT

    static bool darkBase(const QPalette& p) { return p.color(QPalette::Base).lightness() < 128; }

private slots:
    void settingIsSavedLoadedAndSanitized()
    {
        QTemporaryDir dir;
        QSettings ini(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        AppSettings defaults;
        QCOMPARE(defaults.theme, QStringLiteral("system"));
        AppSettings s;
        s.theme = QStringLiteral("dark");
        s.save(ini);
        QCOMPARE(AppSettings::load(ini).theme, QStringLiteral("dark"));

        AppSettings bad;
        bad.theme = QStringLiteral(" Purple ");
        const QStringList notes = bad.sanitize();
        QCOMPARE(bad.theme, QStringLiteral("system"));
        QCOMPARE(notes.size(), 1);
        QVERIFY(notes.first().contains(QStringLiteral("Purple")));
        AppSettings upper;
        upper.theme = QStringLiteral("LIGHT");
        QVERIFY(upper.sanitize().isEmpty());
        QCOMPARE(upper.theme, QStringLiteral("light"));
    }

    void darkLightAndBackToSystem()
    {
        const QPalette system = QApplication::palette();
        const QString systemStyle = QApplication::style()->name();
        CodeEditor editor;
        editor.setLanguage(Language::Python);
        editor.setText(QStringLiteral("print('hi')\n"));

        Theme::apply(QStringLiteral("dark"));
        QCOMPARE(Theme::current(), QStringLiteral("dark"));
        QVERIFY(darkBase(QApplication::palette()));
        QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
        QCoreApplication::processEvents();
        QVERIFY2(editor.lexer()->defaultPaper().lightness() < 128, "the editor follows the dark palette");
        // Text must stay readable: strong contrast between text and base.
        const QPalette dark = QApplication::palette();
        QVERIFY(qAbs(dark.color(QPalette::Text).lightness() - dark.color(QPalette::Base).lightness()) > 150);

        Theme::apply(QStringLiteral("light"));
        QVERIFY(!darkBase(QApplication::palette()));
        QCoreApplication::processEvents();
        QVERIFY(editor.lexer()->defaultPaper().lightness() >= 128);

        Theme::apply(QStringLiteral("system"));
        QCOMPARE(Theme::current(), QStringLiteral("system"));
        QCOMPARE(QApplication::style()->name(), systemStyle);
        QCOMPARE(QApplication::palette().color(QPalette::Base), system.color(QPalette::Base));
        QCOMPARE(QApplication::palette().color(QPalette::Text), system.color(QPalette::Text));

        Theme::apply(QStringLiteral("no such theme")); // means the system's
        QCOMPARE(Theme::current(), QStringLiteral("system"));
    }

    void viewMenuOffersEveryThemeWithTheCurrentChecked()
    {
        Theme::apply(QStringLiteral("dark"));
        QMainWindow window;
        MainWindowActions actions(&window);
        QCOMPARE(actions.themes->actions().size(), Theme::names().size());
        QVERIFY(actions.themes->isExclusive());
        QAction* checked = actions.themes->checkedAction();
        QVERIFY(checked);
        QCOMPARE(checked->data().toString(), QStringLiteral("dark"));
        QCOMPARE(actions.themeMenu->actions().size(), 3);
        Theme::apply(QStringLiteral("system"));
    }
};

QTEST_MAIN(TestTheme)
#include "test_theme.moc"
