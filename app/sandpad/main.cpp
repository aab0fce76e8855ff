// The desktop client: opens the workspace, builds the executor from the settings and shows the
// main window. File > Open Workspace… swaps in another data dir. Test and screenshot hooks:
//   --run-example NAME / --screenshot FILE   tests/screenshots/take-screenshots.sh
//   --type-text TEXT   after start, inserts TEXT into the current editor tab as if typed (the
//                      recovery crash test types through it, then kills the app with SIGKILL)
//   --restore-all      restores every tab the recovery journal holds without asking
#include "MainWindow.h"
#include "WorkspaceServices.h"
#include "console/RunController.h"
#include "editor/CodeEditor.h"
#include "editor/EditorTabs.h"
#include "workspace/Workspace.h"
#include "engine/Executor.h"
#include "settings/AppSettings.h"
#include "theme/Theme.h"
#include "storage/Database.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QTimer>

#include <cstdio>
#include <memory>
#include <utility>

using namespace sandpad;

namespace {

void applySettings(Workspace& workspace)
{
    AppSettings settings = AppSettings::load();
    settings.applyEnvironment();
    settings.sanitize();
    workspace.applySettings(settings); // a provider problem shows in the status bar
}

// The open workspace and its window; File > Open Workspace… replaces both.
class Session : public QObject {
public:
    bool start(const QString& dataDir)
    {
        m_workspace = openWorkspaceInteractive(dataDir, nullptr);
        if (!m_workspace)
            return false;
        applySettings(*m_workspace);
        buildWindow();
        return true;
    }

    MainWindow* window() const { return m_window.get(); }
    Workspace* workspace() const { return m_workspace.get(); }
    bool restoreAll = false;
    QString typeText;

    void shutdown()
    {
        if (m_workspace)
            m_workspace->executor().waitForAll();
        m_window.reset();
        m_workspace.reset();
    }

private:
    void buildWindow()
    {
        MainWindowServices services = workspaceServices(*m_workspace);
        services.openWorkspace = [this](QWidget* parent) { switchWorkspace(parent); };
        m_window = std::make_unique<MainWindow>(services);
        m_window->show();
        MainWindow* window = m_window.get();
        Workspace* workspace = m_workspace.get();
        // Both after the window is on screen: start-up never waits for sandboxes or the dialog.
        QTimer::singleShot(0, window, [workspace] { startSandboxPool(*workspace); });
        // The test hooks apply to the first window only.
        QTimer::singleShot(0, window, [window, restore = std::exchange(restoreAll, false),
                                       text = std::exchange(typeText, QString())] {
            window->offerRecovery(restore);
            if (!text.isEmpty())
                if (CodeEditor* editor = window->tabs()->currentEditor())
                    editor->insert(text);
        });
    }

    void switchWorkspace(QWidget* parent)
    {
        const QString dir = QFileDialog::getExistingDirectory(parent, tr("Open Workspace"),
                                                              m_workspace ? m_workspace->dataDir() : QString());
        if (dir.isEmpty() || (m_workspace && QDir(dir) == QDir(m_workspace->dataDir())))
            return;
        auto next = openWorkspaceInteractive(dir, parent);
        if (!next)
            return;
        // Closing asks about unsaved tabs; the app must not quit when its only window closes here.
        QApplication::setQuitOnLastWindowClosed(false);
        if (!m_window->close()) {
            QApplication::setQuitOnLastWindowClosed(true);
            return;
        }
        // Not inside the window's own action handler: replace it from the event loop.
        m_next = std::move(next);
        QTimer::singleShot(0, this, [this] {
            drainSandboxPool(*m_workspace);
            shutdown();
            m_workspace = std::move(m_next);
            applySettings(*m_workspace);
            buildWindow();
            QApplication::setQuitOnLastWindowClosed(true);
        });
    }

    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<Workspace> m_next; // opened, waiting for the old window to go
};

} // namespace

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

    Session session;
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
