#include "AppSession.h"

#include "core/completion/CompletionService.h"
#include "core/engine/Executor.h"
#include "core/workspace/Workspace.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorTabs.h"
#include "ui/MainWindow.h"
#include "WorkspaceServices.h"

#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QTimer>
#include <utility>

namespace sandpad {

AppSession::AppSession(QObject* parent) : QObject(parent)
{
    if (qEnvironmentVariable("SANDPAD_LANGUAGE_SERVICE") != QLatin1String("off"))
        m_completion = std::make_unique<CompletionService>();
}

AppSession::~AppSession()
{
    shutdown();
}

bool AppSession::start(const QString& dataDir)
{
    auto workspace = openWorkspaceInteractive(dataDir, nullptr);
    if (!workspace)
        return false;
    adopt(std::move(workspace));
    return true;
}

void AppSession::shutdown()
{
    if (m_workspace)
        m_workspace->executor().waitForAll();
    m_window.reset();
    m_workspace.reset();
    if (m_completion)
        m_completion->shutdown(); // its sandbox confirmed gone before the app exits
}

void AppSession::adopt(std::unique_ptr<Workspace> workspace)
{
    m_workspace = std::move(workspace);
    m_workspace->loadSettings(); // a provider problem shows in the status bar
    buildWindow();
}

void AppSession::buildWindow()
{
    MainWindowServices services = workspaceServices(*m_workspace);
    services.openWorkspace = [this](QWidget* parent) { switchWorkspace(parent); };
    services.completion = m_completion.get();
    m_window = std::make_unique<MainWindow>(services);
    followSettings(*m_workspace, *m_window);
    m_window->show();
    MainWindow* window = m_window.get();
    Workspace* workspace = m_workspace.get();
    // Both after the window is on screen: start-up never waits for sandboxes or the dialog.
    QTimer::singleShot(0, window, [workspace] { workspace->startSandboxPool(); });
    QTimer::singleShot(0, window, [window, restore = std::exchange(restoreAll, false),
                                   text = std::exchange(typeText, QString())] {
        window->restoreOpenTabs(); // a normal quit's tabs; then what a crash left, if anything
        window->offerRecovery(restore);
        if (!text.isEmpty())
            if (CodeEditor* editor = window->tabs()->currentEditor())
                editor->insert(text);
    });
}

void AppSession::switchWorkspace(QWidget* parent)
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
        shutdown(); // the old provider's pre-started sandboxes go with its workspace
        adopt(std::move(m_next));
        QApplication::setQuitOnLastWindowClosed(true);
    });
}

} // namespace sandpad
