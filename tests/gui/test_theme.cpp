// View > Theme: the light and dark palettes, going back to the desktop's own, the setting that
// remembers the choice, and the menu that offers it.
#include "TestRecords.h"

#include "core/settings/AppSettings.h"
#include "ui/console/ChartThumbnail.h"
#include "ui/console/OutputView.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"
#include "ui/statusbar/RunStatusBar.h"
#include "ui/theme/ThemeIcons.h"
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
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QJsonObject>
#include <QTextBlock>
#include <QToolBar>
#include <QtTest>

using namespace sandpad;

class TestTheme : public QObject {
    Q_OBJECT

    static bool darkBase(const QPalette& p) { return p.color(QPalette::Base).lightness() < 128; }

    // The colour the first fragment of the given text has in the view (its own, else the
    // view's text colour: it follows the palette).
    static QColor colourOf(const OutputView* view, const QString& text)
    {
        for (QTextBlock b = view->document()->begin(); b.isValid(); b = b.next())
            for (auto it = b.begin(); !it.atEnd(); ++it)
                if (it.fragment().text().contains(text)) {
                    const QTextCharFormat f = it.fragment().charFormat();
                    return f.hasProperty(QTextFormat::ForegroundBrush) ? f.foreground().color()
                                                                      : view->palette().color(QPalette::Text);
                }
        return {};
    }
    static int contrast(const QColor& a, const QColor& b) { return qAbs(a.lightness() - b.lightness()); }

    // The whole card is readable: its background, its output's text, its error output, its
    // chart thumbnail all in the current theme.
    static void checkEntryReadable(RunEntry* entry, bool dark)
    {
        const QColor card = entry->palette().color(QPalette::Window);
        QCOMPARE(card.lightness() < 128, dark);
        const QColor text = entry->palette().color(QPalette::WindowText);
        QVERIFY2(contrast(card, text) > 120, qPrintable(card.name() + QStringLiteral(" vs ") + text.name()));
        const OutputView* view = entry->outputView();
        QCOMPARE(view->palette().color(QPalette::Base).lightness() < 128, dark);
        QVERIFY(contrast(colourOf(view, QStringLiteral("printed")), view->palette().color(QPalette::Base)) > 120);
        const QColor err = colourOf(view, QStringLiteral("warned"));
        QVERIFY2(contrast(err, view->palette().color(QPalette::Base)) > 60, qPrintable(err.name()));
        auto* thumb = entry->findChild<ChartThumbnail*>();
        QVERIFY(thumb);
        const QImage image = thumb->icon().pixmap(thumb->iconSize()).toImage();
        QCOMPARE(image.pixelColor(image.width() / 2, 4).lightness() < 128, dark); // its paper
    }

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

    void existingEntriesFollowAThemeChange()
    {
        Theme::apply(QStringLiteral("light"));
        RunNotebook notebook;
        ExecutionResult record = runResult(QStringLiteral("r1"), QStringLiteral("old run"), QStringLiteral("success"));
        record.stdoutText = QStringLiteral("printed\n");
        record.stderrText = QStringLiteral("warned\n");
        RunChart chart;
        chart.kind = RunChart::Kind::Interactive;
        QVERIFY(chart.setSpec(QJsonObject{{"type", "bar"}, {"title", "Sales"}, {"elements", QJsonArray{}}}));
        record.charts = {chart};
        RunEntry* entry = notebook.addFinished(new Run(record));
        notebook.resize(600, 400);
        notebook.show();
        QCoreApplication::processEvents();
        checkEntryReadable(entry, false);

        Theme::apply(QStringLiteral("dark"));
        QCoreApplication::processEvents();
        checkEntryReadable(entry, true);
        notebook.select(nullptr);
        notebook.select(entry); // selected and back: still the dark card
        QVERIFY(entry->palette().color(QPalette::Window).lightness() < 128);

        Theme::apply(QStringLiteral("light"));
        QCoreApplication::processEvents();
        checkEntryReadable(entry, false);
        Theme::apply(QStringLiteral("system"));
    }

    // How many of the label's pixels are (nearly) the colour.
    static int pixelsOf(QWidget* widget, const QColor& colour)
    {
        const QImage image = widget->grab().toImage();
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                n += qAbs(c.red() - colour.red()) + qAbs(c.green() - colour.green()) + qAbs(c.blue() - colour.blue()) < 24;
            }
        return n;
    }

    // An existing entry's traceback links take the new theme's link colour (they kept the light
    // theme's dark blue on the dark card).
    void existingTracebackLinksFollowAThemeChange()
    {
        Theme::apply(QStringLiteral("light"));
        const QColor lightLink = QApplication::palette().color(QPalette::Link);
        RunNotebook notebook;
        ExecutionResult r = runResult(QStringLiteral("e1"), QStringLiteral("cell.py"), QStringLiteral("error"));
        r.error = RunError{QStringLiteral("ZeroDivisionError"), QStringLiteral("division by zero"),
                           QStringLiteral("Traceback (most recent call last):\n  File \"cell.py\", line 1, in <module>\n"
                                          "ZeroDivisionError: division by zero")};
        RunEntry* entry = notebook.addFinished(new Run(r));
        notebook.resize(700, 400);
        notebook.show();
        QCoreApplication::processEvents();
        QLabel* error = nullptr;
        for (auto* label : entry->findChildren<QLabel*>())
            if (label->accessibleName() == QStringLiteral("Error"))
                error = label;
        QVERIFY(error && error->isVisible());
        QVERIFY(error->text().contains(QStringLiteral("href=\"line:1\"")));
        QVERIFY2(pixelsOf(error, lightLink) > 20, "the light theme's link colour");

        Theme::apply(QStringLiteral("dark"));
        QCoreApplication::processEvents();
        const QColor darkLink = QApplication::palette().color(QPalette::Link);
        QVERIFY(darkLink != lightLink);
        QVERIFY2(pixelsOf(error, darkLink) > 20, "the dark theme's link colour");
        QCOMPARE(pixelsOf(error, lightLink), 0);
        QVERIFY(error->text().contains(QStringLiteral("href=\"line:1\""))); // still the link

        Theme::apply(QStringLiteral("light"));
        QCoreApplication::processEvents();
        QVERIFY(pixelsOf(error, lightLink) > 20);
        QCOMPARE(pixelsOf(error, darkLink), 0);
        Theme::apply(QStringLiteral("system"));
    }

    void runIconsAreReadableInBothThemes()
    {
        for (const QString& name : {QStringLiteral("light"), QStringLiteral("dark")}) {
            Theme::apply(name);
            const QPalette p = QApplication::palette();
            for (auto kind : {ThemeIcons::Kind::Run, ThemeIcons::Kind::RunCell, ThemeIcons::Kind::Stop}) {
                const QColor glyph = ThemeIcons::glyphColour(kind, p);
                QVERIFY2(contrast(glyph, p.color(QPalette::Window)) > 60,
                         qPrintable(name + QStringLiteral(": ") + glyph.name()));
            }
        }
        // The toolbar's icons are drawn again when the theme changes.
        Theme::apply(QStringLiteral("light"));
        QMainWindow window;
        MainWindowActions actions(&window);
        auto centre = [&actions] {
            const QImage image = actions.runAll->icon().pixmap(32).toImage();
            return image.pixelColor(image.width() / 2, image.height() / 2);
        };
        QCOMPARE(centre(), ThemeIcons::glyphColour(ThemeIcons::Kind::Run, QApplication::palette()));
        Theme::apply(QStringLiteral("dark"));
        QCoreApplication::processEvents();
        QCOMPARE(centre(), ThemeIcons::glyphColour(ThemeIcons::Kind::Run, QApplication::palette()));
        Theme::apply(QStringLiteral("system"));
    }

    void statusBarFollowsATheme()
    {
        Theme::apply(QStringLiteral("light"));
        RunStatusBar bar;
        bar.setValidation(RunStatusBar::Validation::Valid);
        QString before;
        for (QLabel* l : bar.findChildren<QLabel*>())
            if (l->accessibleName() == QStringLiteral("Provider"))
                before = l->text();
        Theme::apply(QStringLiteral("dark"));
        QCoreApplication::processEvents();
        QString after;
        for (QLabel* l : bar.findChildren<QLabel*>())
            if (l->accessibleName() == QStringLiteral("Provider"))
                after = l->text();
        QVERIFY2(before != after, qPrintable(after)); // the valid colour lightened for the dark bar
        Theme::apply(QStringLiteral("system"));
    }

    void theCompletionListFollowsATheme()
    {
        // Scintilla's list is a tool-tip window of its own, made at its first showing: shown in
        // one theme, then in the other, it is drawn in the current one (it was seen white in the
        // dark theme).
        Theme::apply(QStringLiteral("light"));
        CodeEditor editor;
        editor.setLanguage(Language::Python);
        editor.resize(500, 300);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        auto listShown = [&editor]() -> QListWidget* {
            editor.setText(QStringLiteral("alphabet = 1\nalphanumeric = 2\nalp"));
            editor.setCursorPosition(2, 3);
            editor.setFocus();
            QTest::keyClick(&editor, Qt::Key_Space, Qt::ControlModifier);
            if (!QTest::qWaitFor([&editor] { return editor.isListActive(); }, 5000))
                return nullptr;
            const auto lists = editor.findChildren<QListWidget*>();
            for (QListWidget* list : lists)
                if (list->isVisible())
                    return list;
            return nullptr;
        };
        QListWidget* list = listShown();
        QVERIFY(list);
        QVERIFY(!darkBase(list->palette()));
        editor.SendScintilla(QsciScintillaBase::SCI_AUTOCCANCEL);
        for (const QString& theme : {QStringLiteral("dark"), QStringLiteral("light"), QStringLiteral("dark")}) {
            Theme::apply(theme);
            QCoreApplication::processEvents();
            list = listShown();
            QVERIFY(list);
            QCOMPARE(darkBase(list->palette()), theme == QStringLiteral("dark"));
            const QImage drawn = list->viewport()->grab().toImage();
            QVERIFY(!drawn.isNull());
            const QColor corner = drawn.pixelColor(drawn.width() - 3, drawn.height() - 3); // below the last item
            QCOMPARE(corner.lightness() < 128, theme == QStringLiteral("dark"));
            editor.SendScintilla(QsciScintillaBase::SCI_AUTOCCANCEL);
        }
        Theme::apply(QStringLiteral("system"));
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
