#include "ui/MainWindowActions.h"

#include "ui/examples/ExamplesMenu.h"
#include "ui/theme/Theme.h"
#include "ui/theme/ThemeIcons.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QEvent>
#include <QMainWindow>
#include <QMenuBar>
#include <QStyle>
#include <QToolBar>

namespace sandpad {

namespace {
QAction* make(QMainWindow* w, const QString& text, const QList<QKeySequence>& keys,
              const QString& tip = {}, QStyle::StandardPixmap icon = QStyle::SP_CustomBase)
{
    auto* a = new QAction(text, w);
    a->setShortcuts(keys);
    a->setShortcutContext(Qt::WindowShortcut);
    QString tipText = tip.isEmpty() ? QString(text).remove(QLatin1Char('&')).remove(QStringLiteral("…")) : tip;
    if (!keys.isEmpty())
        tipText += QStringLiteral(" (%1)").arg(keys.first().toString(QKeySequence::NativeText));
    a->setToolTip(tipText);
    a->setStatusTip(tipText);
    if (icon != QStyle::SP_CustomBase)
        a->setIcon(w->style()->standardIcon(icon));
    w->addAction(a); // shortcuts work even when the menu bar is hidden
    return a;
}
} // namespace

MainWindowActions::MainWindowActions(QMainWindow* w) : QObject(w)
{
    newTab = make(w, tr("&New Tab"), {QKeySequence::New}, {}, QStyle::SP_FileIcon);
    open = make(w, tr("&Open…"), {QKeySequence::Open}, {}, QStyle::SP_DialogOpenButton);
    // Two kinds of saving: a file on disk, or a document in the workspace that keeps every
    // revision. Save does what the tab is (a document tab: a new revision; else its file).
    save = make(w, tr("&Save"), {QKeySequence::Save},
                tr("Save: a document tab gets a new revision, any other tab is written to its file"),
                QStyle::SP_DialogSaveButton);
    saveAs = make(w, tr("Save to &File…"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)},
                  tr("Write this tab to a file on disk (no revisions)"));
    closeTab = make(w, tr("&Close Tab"), {QKeySequence(Qt::CTRL | Qt::Key_W)});
    saveAsDocument = make(w, tr("Save as &Document (with Revisions)…"), {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_D)},
                          tr("Store this tab in the workspace as a document that keeps every revision"));
    openWorkspace = make(w, tr("Open &Workspace…"), {}, tr("Open another data folder (its documents, history and usage)"));
    exportNotebook = make(w, tr("&Notebook (.ipynb)…"), {},
                          tr("Write this tab as a Jupyter notebook, with each cell's last outputs"));
    exportHtml = make(w, tr("&HTML Report…"), {},
                      tr("Write this tab and its cells' last outputs as one self-contained HTML file"));
    quit = make(w, tr("&Quit"), {QKeySequence(Qt::CTRL | Qt::Key_Q)});
    quit->setMenuRole(QAction::QuitRole);

    find = make(w, tr("&Find…"), {QKeySequence::Find});
    replace = make(w, tr("&Replace…"), {QKeySequence(Qt::CTRL | Qt::Key_H)});
    toggleComment = make(w, tr("Toggle &Comment"), {QKeySequence(Qt::CTRL | Qt::Key_Slash)},
                         tr("Comment the selected lines out, or back in"));
    complete = make(w, tr("Co&mplete"), {QKeySequence(Qt::CTRL | Qt::Key_Space)},
                    tr("Names that fit here (also offered after a dot and as you type)"));
    nextTab = make(w, tr("Ne&xt Tab"), {QKeySequence(Qt::CTRL | Qt::Key_Tab), QKeySequence(Qt::CTRL | Qt::Key_PageDown)});
    previousTab = make(w, tr("Pre&vious Tab"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab),
                                                QKeySequence(Qt::CTRL | Qt::Key_PageUp)});

    runAll = make(w, tr("&Run All"), {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)},
                  tr("Run the whole tab"), QStyle::SP_MediaPlay);
    runCell = make(w, tr("Run &Cell and Advance"), {QKeySequence(Qt::SHIFT | Qt::Key_Return), QKeySequence(Qt::SHIFT | Qt::Key_Enter)},
                   tr("Run the current # %% cell and move to the next"), QStyle::SP_MediaSeekForward);
    runSelection = make(w, tr("Run &Selection"), {QKeySequence(Qt::Key_F9)}, tr("Run the selected text"));
    stop = make(w, tr("S&top"), {QKeySequence(Qt::CTRL | Qt::Key_Period)}, tr("Stop the running snippet"),
                QStyle::SP_MediaStop);
    stop->setEnabled(false);

    focusEditor = make(w, tr("Go to &Editor"), {QKeySequence(Qt::CTRL | Qt::Key_1)});
    focusNotebook = make(w, tr("Go to &Output"), {QKeySequence(Qt::CTRL | Qt::Key_2)});
    saveOutput = make(w, tr("Save &Output…"), {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S)});
    clearNotebook = make(w, tr("C&lear Output"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L)});

    settings = make(w, tr("&Settings…"), {QKeySequence(Qt::CTRL | Qt::Key_Comma)});
    settings->setMenuRole(QAction::PreferencesRole);
    usage = make(w, tr("&Usage…"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U)});
    about = make(w, tr("&About Sandpad"), {});
    keyboardShortcuts = make(w, tr("&Keyboard Shortcuts"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Slash)},
                             tr("Every key of the window, from its actions"));
    documentation = make(w, tr("&Documentation"), {}, tr("The bundled documentation (README, docs/)"));
    helpAtCursor = make(w, tr("&Help for the Name at the Cursor"), {QKeySequence(Qt::Key_F1), QKeySequence(Qt::CTRL | Qt::Key_I)},
                        tr("The signature and documentation of the Python name under the cursor, in the help pane"));

    examples = new ExamplesMenu(w);

    QMenuBar* bar = w->menuBar();
    QMenu* file = bar->addMenu(tr("&File"));
    file->addActions({newTab, open, save, saveAs, saveAsDocument});
    QMenu* exportMenu = file->addMenu(tr("E&xport"));
    exportMenu->addActions({exportNotebook, exportHtml});
    file->addAction(closeTab);
    file->addSeparator();
    file->addAction(openWorkspace);
    file->addSeparator();
    file->addAction(saveOutput);
    file->addSeparator();
    file->addAction(quit);
    QMenu* edit = bar->addMenu(tr("&Edit"));
    edit->addActions({find, replace});
    edit->addSeparator();
    edit->addActions({toggleComment, complete});
    edit->addSeparator();
    edit->addAction(settings);
    QMenu* run = bar->addMenu(tr("&Run"));
    run->addActions({runAll, runCell, runSelection});
    run->addSeparator();
    run->addAction(stop);
    bar->addMenu(examples);
    fileMenu = file;
    QMenu* view = bar->addMenu(tr("&View"));
    viewMenu = view;
    view->addActions({focusEditor, focusNotebook, nextTab, previousTab, clearNotebook});
    view->addSeparator();
    themeMenu = view->addMenu(tr("&Theme"));
    themes = new QActionGroup(this);
    themes->setExclusive(true);
    for (const QString& name : Theme::names()) {
        QAction* a = themeMenu->addAction(Theme::displayName(name));
        a->setCheckable(true);
        a->setData(name);
        a->setChecked(name == Theme::current());
        themes->addAction(a);
    }
    view->addSeparator();
    view->addAction(usage);
    QMenu* help = bar->addMenu(tr("&Help"));
    help->addActions({helpAtCursor, keyboardShortcuts, documentation});
    help->addSeparator();
    help->addAction(about);

    toolBar = w->addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    toolBar->setAccessibleName(tr("Main toolbar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->setMovable(false);
    toolBar->addActions({newTab, open, save});
    toolBar->addSeparator();
    toolBar->addActions({runAll, runCell, stop});
    toolBar->addSeparator();
    toolBar->addActions({settings, usage});

    m_window = w;
    updateIcons();
    w->installEventFilter(this);
}

void MainWindowActions::updateIcons()
{
    const QPalette palette = m_window->palette();
    runAll->setIcon(ThemeIcons::icon(ThemeIcons::Kind::Run, palette));
    runCell->setIcon(ThemeIcons::icon(ThemeIcons::Kind::RunCell, palette));
    stop->setIcon(ThemeIcons::icon(ThemeIcons::Kind::Stop, palette));
}

bool MainWindowActions::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::PaletteChange)
        updateIcons(); // a theme change: icons readable on the new toolbar
    return QObject::eventFilter(watched, event);
}

} // namespace sandpad
