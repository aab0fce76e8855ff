#include "ui/session/SessionControls.h"

#include "ui/console/RunCoordinator.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/session/TabSessions.h"
#include "ui/session/VariableExplorer.h"

#include <QAction>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QPainter>
#include <QStatusBar>

namespace sandpad {

namespace {

// A small dot for the tab: filled for a session, hollow for fresh runs.
QIcon modeIcon(bool session, const QColor& color)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(color, 1.5));
    painter.setBrush(session ? QBrush(color) : QBrush(Qt::NoBrush));
    painter.drawEllipse(QRectF(2, 2, 8, 8));
    return QIcon(pixmap);
}

} // namespace

SessionControls::SessionControls(TabSessions* sessions, EditorTabs* tabs, RunCoordinator* runner, QMainWindow* window,
                                 QMenu* runMenu)
    : QObject(window), m_sessions(sessions), m_tabs(tabs), m_runner(runner)
{
    restartSession = new QAction(tr("Restart &Session"), window);
    restartSession->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0));
    restartSession->setStatusTip(tr("End this tab's session: the next run starts from nothing in a fresh sandbox"));
    runAllFresh = new QAction(tr("Run All from a &Fresh Session"), window);
    runAllFresh->setStatusTip(tr("Restart this tab's session and run the whole tab in it: does the notebook reproduce?"));
    freshPerRun = new QAction(tr("Fresh Sandbox per &Run"), window);
    freshPerRun->setCheckable(true);
    freshPerRun->setStatusTip(tr("Run every cell of this tab alone in a fresh sandbox instead of its session"));
    window->addAction(restartSession);
    if (runMenu) {
        runMenu->addSeparator();
        runMenu->addActions({restartSession, runAllFresh, freshPerRun});
    }
    modeLabel = new QLabel(window);
    modeLabel->setObjectName(QStringLiteral("sessionMode"));
    window->statusBar()->addPermanentWidget(modeLabel);
    variables = new VariableExplorer(window);
    window->addDockWidget(Qt::RightDockWidgetArea, variables);
    window->resizeDocks({variables}, {300}, Qt::Horizontal); // else a sliver that cuts its text
    if (runMenu)
        runMenu->addAction(variables->toggleViewAction());

    connect(restartSession, &QAction::triggered, this, [this] {
        if (EditorPage* page = m_tabs->currentPage())
            m_sessions->restart(page);
    });
    connect(runAllFresh, &QAction::triggered, this, [this] {
        if (EditorPage* page = m_tabs->currentPage()) {
            m_sessions->restart(page);
            m_runner->runAll();
        }
    });
    connect(freshPerRun, &QAction::toggled, this, [this](bool fresh) {
        if (EditorPage* page = m_tabs->currentPage())
            m_sessions->setFresh(page, fresh);
    });
    connect(m_sessions, &TabSessions::modeChanged, this, &SessionControls::refresh);
    connect(m_tabs, &QTabWidget::currentChanged, this, &SessionControls::refreshCurrent);
    connect(m_tabs, &EditorTabs::pageAdded, this, &SessionControls::refresh);
    for (int i = 0; i < m_tabs->count(); ++i)
        refresh(qobject_cast<EditorPage*>(m_tabs->widget(i)));
    refreshCurrent();
}

void SessionControls::refresh(EditorPage* page)
{
    if (!page)
        return;
    const int index = m_tabs->indexOf(page);
    if (index >= 0)
        m_tabs->setTabIcon(index, modeIcon(m_sessions->usesSession(page), m_tabs->palette().color(QPalette::WindowText)));
    if (page == m_tabs->currentPage()) {
        modeLabel->setText(m_sessions->modeText(page));
        const QSignalBlocker block(freshPerRun);
        freshPerRun->setChecked(m_sessions->isFresh(page));
        restartSession->setEnabled(m_sessions->usesSession(page));
        variables->setSession(m_sessions->usesSession(page) ? m_sessions->session(page) : nullptr);
        runAllFresh->setEnabled(m_sessions->usesSession(page));
    }
}

void SessionControls::refreshCurrent()
{
    refresh(m_tabs->currentPage());
}

} // namespace sandpad
