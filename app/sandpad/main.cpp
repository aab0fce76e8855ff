// The desktop client: opens the workspace, builds the executor from the settings and shows the
// main window. --run-example/--screenshot drive it for tests/screenshots/take-screenshots.sh.
#include "MainWindow.h"
#include "WorkspaceServices.h"
#include "workspace/Workspace.h"
#include "engine/Executor.h"
#include "settings/AppSettings.h"
#include "storage/Database.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QTimer>

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
    parser.addOptions({dataDir, runExample, screenshot});
    parser.process(app);

    Workspace workspace(parser.isSet(dataDir) ? parser.value(dataDir) : Database::defaultDataDir());
    if (!workspace.open()) {
        QMessageBox::critical(nullptr, QStringLiteral("Sandpad"), workspace.error());
        return 1;
    }
    AppSettings settings = AppSettings::load();
    settings.applyEnvironment();
    settings.sanitize();
    workspace.applySettings(settings); // a provider problem shows in the status bar

    MainWindow window(workspaceServices(workspace));
    window.show();

    auto takeScreenshot = [&] {
        window.grab().save(parser.value(screenshot));
        QApplication::quit();
    };
    if (parser.isSet(runExample)) {
        if (!window.openExample(parser.value(runExample))) {
            qCritical("unknown example: %s", qPrintable(parser.value(runExample)));
            return 2;
        }
        if (parser.isSet(screenshot))
            QObject::connect(&window, &MainWindow::runFinished, &window,
                             [&] { QTimer::singleShot(1000, &window, takeScreenshot); });
        QTimer::singleShot(300, &window, [&] { window.runAll(); });
    } else if (parser.isSet(screenshot)) {
        QTimer::singleShot(1500, &window, takeScreenshot);
    }
    const int status = QApplication::exec();
    workspace.executor().waitForAll();
    return status;
}
