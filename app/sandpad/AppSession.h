#pragma once

#include <QObject>
#include <QString>
#include <memory>

namespace sandpad {

class CompletionService;
class MainWindow;
class Workspace;

// The open workspace and its window; File > Open Workspace… replaces both.
class AppSession : public QObject {
    Q_OBJECT
public:
    explicit AppSession(QObject* parent = nullptr);
    ~AppSession() override;

    // Opens the workspace in dataDir (asking for another when it cannot be opened), loads its
    // settings and shows the window. False when the user gave up.
    bool start(const QString& dataDir);
    // Waits for runs still going, then closes the window and the workspace.
    void shutdown();

    MainWindow* window() const { return m_window.get(); }
    Workspace* workspace() const { return m_workspace.get(); }

    // Test hooks, for the first window only: restore every journaled tab without asking, and
    // type this text into the current tab.
    bool restoreAll = false;
    QString typeText;

private:
    void adopt(std::unique_ptr<Workspace> workspace);
    void buildWindow();
    void switchWorkspace(QWidget* parent);

    // Jedi for the Python tabs, in a sandbox of its own; one for the app (it outlives a workspace
    // switch), ended after the window. None when SANDPAD_LANGUAGE_SERVICE=off.
    std::unique_ptr<CompletionService> m_completion;
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<Workspace> m_next; // opened, waiting for the old window to go
};

} // namespace sandpad
