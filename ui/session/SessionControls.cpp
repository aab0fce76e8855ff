#include "ui/session/SessionControls.h"

#include "core/run/Run.h"
#include "ui/console/RunCoordinator.h"
#include "ui/console/RunNotebook.h"
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
#include <QTimer>

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
    : QObject(window), m_sessions(sessions), m_tabs(tabs), m_runner(runner), m_window(window)
{
    restartSession = new QAction(tr("Restart &Session"), window);
    restartSession->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0));
    restartSession->setStatusTip(tr("End this tab's session: the next run starts from nothing in a fresh sandbox"));
    runAllFresh = new QAction(tr("Run All from a &Fresh Session"), window);
    runAllFresh->setStatusTip(tr("Restart this tab's session and run its cells one by one, stopping at the first error: "
                                 "does the notebook reproduce?"));
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
        if (EditorPage* page = m_tabs->currentPage())
            runAllFromFreshSession(page);
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
        if (m_notebook)
            m_notebook->setModeText(m_sessions->modeText(page));
        const QSignalBlocker block(freshPerRun);
        freshPerRun->setChecked(m_sessions->isFresh(page));
        restartSession->setEnabled(m_sessions->usesSession(page));
        if (m_sessions->usesSession(page))
            variables->setSession(m_sessions->session(page));
        else
            variables->setSnapshot(m_sessions->snapshot(page)); // the last fresh run's, at its end
        runAllFresh->setEnabled(m_sessions->usesSession(page));
    }
}

void SessionControls::refreshCurrent()
{
    refresh(m_tabs->currentPage());
}

void SessionControls::setNotebook(RunNotebook* notebook)
{
    m_notebook = notebook;
    refreshCurrent();
}

QList<CodeEditor::Cell> SessionControls::runnableCells(CodeEditor* editor)
{
    QList<CodeEditor::Cell> cells;
    CodeEditor::Cell cell;
    QStringList body;
    bool code = true; // the text before the first separator is code
    auto close = [&](int lastLine) {
        while (!body.isEmpty() && body.last().trimmed().isEmpty()) { // the blank lines before the next cell
            body.removeLast();
            --lastLine;
        }
        cell.endLine = lastLine;
        cell.text = body.join(u'\n');
        if (code && !cell.text.trimmed().isEmpty())
            cells << cell;
        body.clear();
    };
    for (int i = 0; i < editor->lines(); ++i) {
        QString line = editor->text(i);
        while (line.endsWith(u'\n') || line.endsWith(u'\r'))
            line.chop(1);
        if (editor->isCellSeparator(line)) {
            close(i); // 1-based: the line before the separator
            cell = CodeEditor::Cell{};
            cell.startLine = i + 2;
            code = !line.contains(QLatin1String("[markdown]")) && !line.contains(QLatin1String("[raw]"));
            continue;
        }
        body << line;
    }
    close(editor->lines());
    return cells;
}

bool SessionControls::runAllFromFreshSession(EditorPage* page)
{
    if (!page || isRunningAll() || !m_sessions->usesSession(page))
        return false;
    page->editor()->updateCellSeparators();
    const QList<CodeEditor::Cell> cells = runnableCells(page->editor());
    m_sessions->restart(page);
    if (cells.isEmpty()) {
        m_window->statusBar()->showMessage(tr("The session was restarted; the tab has no code to run."), 8000);
        return true;
    }
    m_runAllPage = page;
    m_cells = cells;
    m_cellTotal = int(cells.size());
    m_cellNumber = 0;
    runNextCell();
    return m_cellNumber > 0;
}

void SessionControls::runNextCell()
{
    if (m_cells.isEmpty() || !m_runAllPage) {
        m_cells.clear();
        return;
    }
    const CodeEditor::Cell cell = m_cells.takeFirst();
    ++m_cellNumber;
    EditorPage* page = m_runAllPage;
    const QString title = m_cellTotal == 1 && cell.startLine == 1
                              ? page->title()
                              : tr("%1 · lines %2–%3").arg(page->title()).arg(cell.startLine).arg(cell.endLine);
    Run* run = m_runner->runCode(page, cell.text, title, cell.startLine);
    if (!run) {
        m_cells.clear();
        m_window->statusBar()->showMessage(tr("Run All stopped: another run is going on."), 0);
        return;
    }
    m_window->statusBar()->showMessage(tr("Run All from a fresh session: cell %1 of %2").arg(m_cellNumber).arg(m_cellTotal), 0);
    connect(run, &Run::finished, this, [this](const ExecutionResult& result) {
        // After the run's own observers (the controller lets the next run start then).
        QTimer::singleShot(0, this, [this, status = result.status] { onCellFinished(status); });
    });
}

void SessionControls::onCellFinished(RunStatus status)
{
    if (status != RunStatus::Success) {
        const int remaining = int(m_cells.size());
        m_cells.clear();
        const QString why = status == RunStatus::Error ? tr("an error") : status == RunStatus::Cancelled ? tr("an interrupt")
                          : status == RunStatus::Timeout ? tr("its deadline") : tr("a failure of the sandbox");
        m_window->statusBar()->showMessage(
            tr("Run All stopped at cell %1 of %2 (%3); %n cell(s) after it did not run.", nullptr, remaining)
                .arg(m_cellNumber).arg(m_cellTotal).arg(why), 0);
        return;
    }
    if (m_cells.isEmpty()) {
        m_window->statusBar()->showMessage(tr("Run All from a fresh session: all %n cell(s) ran.", nullptr, m_cellTotal), 10000);
        return;
    }
    runNextCell();
}

} // namespace sandpad
