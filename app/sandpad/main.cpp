// The desktop client: opens the workspace (AppSession) and shows the main window; File > Open
// Workspace… swaps in another data dir. Test and screenshot hooks:
//   --run-example NAME / --screenshot FILE   tests/screenshots/take-screenshots.sh
//   --type-text TEXT   after start, inserts TEXT into the current editor tab as if typed (the
//                      recovery crash test types through it, then kills the app with SIGKILL)
//   --restore-all      restores every tab the recovery journal holds without asking
#include "AppSession.h"
#include "core/run/Run.h"
#include "core/settings/AppSettings.h"
#include "core/storage/Database.h"
#include "ui/console/RunController.h"
#include "ui/MainWindow.h"
#include "ui/theme/Theme.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>

using namespace sandpad;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("sandpad"));
    QApplication::setOrganizationName(QStringLiteral("sandpad"));
    QApplication::setApplicationVersion(QStringLiteral(SANDPAD_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Run Python and JavaScript snippets in a secure sandbox"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption dataDir(QStringLiteral("data-dir"), QStringLiteral("Workspace folder (default: $SANDPAD_DATA_DIR or the app data folder)."), QStringLiteral("DIR"));
    const QCommandLineOption runExample(QStringLiteral("run-example"), QStringLiteral("Open and run a bundled example."), QStringLiteral("NAME"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Save a screenshot of the window to FILE, then quit."), QStringLiteral("FILE"));
    const QCommandLineOption typeText(QStringLiteral("type-text"), QStringLiteral("Test hook: type TEXT into the current tab after start."), QStringLiteral("TEXT"));
    const QCommandLineOption restoreAll(QStringLiteral("restore-all"), QStringLiteral("Restore every unsaved tab found at start without asking."));
    const QCommandLineOption startupReport(QStringLiteral("report-startup"), QStringLiteral("Benchmark hook: print \"window shown\" once the window is up, then quit."));
    const QCommandLineOption theme(QStringLiteral("theme"), QStringLiteral("Colours for this session: system, light or dark (default: View > Theme)."), QStringLiteral("NAME"));
    parser.addOptions({dataDir, runExample, screenshot, typeText, restoreAll, startupReport, theme});
    parser.process(app);
    Theme::apply(parser.isSet(theme) ? parser.value(theme) : AppSettings::load().theme);

    AppSession session;
    session.restoreAll = parser.isSet(restoreAll);
    session.typeText = parser.value(typeText);
    if (!session.start(parser.isSet(dataDir) ? parser.value(dataDir) : Database::defaultDataDir()))
        return 1;
    MainWindow& window = *session.window();

    auto takeScreenshot = [&] {
        session.window()->grab().save(parser.value(screenshot));
        QApplication::quit();
    };
    if (parser.isSet(runExample)) {
        if (!window.openExample(parser.value(runExample))) {
            qCritical("unknown example: %s", qPrintable(parser.value(runExample)));
            return 2;
        }
        if (parser.isSet(screenshot))
            QObject::connect(window.runs(), &RunController::runStarted, &window, [&](Run* run) {
                QObject::connect(run, &Run::finished, &window, [&] { QTimer::singleShot(1000, &window, takeScreenshot); });
            });
        QTimer::singleShot(300, &window, [&] { window.runAll(); });
    } else if (parser.isSet(screenshot)) {
        QTimer::singleShot(1500, &window, takeScreenshot);
    }
    if (parser.isSet(startupReport)) {
        // Queued behind the window's first show and layout: the earliest moment a user can type.
        QTimer::singleShot(0, &window, [] {
            std::printf("window shown\n");
            std::fflush(stdout);
            QApplication::quit();
        });
    }
    const int status = QApplication::exec();
    session.shutdown();
    return status;
}
