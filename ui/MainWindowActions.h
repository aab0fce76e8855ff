#pragma once

#include <QObject>

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;
class QToolBar;

namespace sandpad {

class ExamplesMenu;

// Every action of the main window with its shortcut, and the menus and toolbar built from them.
// Owns nothing but the actions; MainWindow connects them.
class MainWindowActions : public QObject {
    Q_OBJECT
public:
    explicit MainWindowActions(QMainWindow* window);

    QAction *newTab, *open, *save, *saveAs, *closeTab, *quit;
    QAction *saveAsDocument, *openWorkspace;
    QAction *exportNotebook, *exportHtml; // File > Export
    QAction *find, *replace, *toggleComment, *complete;
    QAction *nextTab, *previousTab;
    QAction *runAll, *runCell, *runSelection, *stop;
    QAction *focusEditor, *focusNotebook, *clearNotebook, *saveOutput;
    QAction *settings, *usage, *about, *keyboardShortcuts, *documentation, *helpAtCursor;
    ExamplesMenu* examples;
    QToolBar* toolBar;
    QMenu *fileMenu, *viewMenu, *themeMenu;
    QActionGroup* themes; // one checkable action per Theme::names(), the name as data

    // The run icons drawn for the window's palette (again at every theme change).
    void updateIcons();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QMainWindow* m_window = nullptr;
};

} // namespace sandpad
