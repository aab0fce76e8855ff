#include "ui/console/RunCoordinator.h"

#include "core/documents/DocumentStore.h"
#include "core/run/Run.h"
#include "core/run/TracebackLines.h"
#include "ui/charts/ChartPane.h"
#include "ui/charts/PngView.h"
#include "ui/console/RunController.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/MainWindowActions.h"
#include "ui/session/TabSessions.h"
#include "ui/editor/AttachmentStrip.h"
#include "ui/statusbar/RunStatusBar.h"

#include <QAction>
#include <QPointer>
#include <QTimer>

namespace sandpad {

RunCoordinator::RunCoordinator(RunController* runs, EditorTabs* tabs, RunNotebook* notebook, ChartPane* charts,
                               RunStatusBar* status, MainWindowActions* actions, DocumentStore* documents,
                               QObject* parent)
    : QObject(parent), m_runs(runs), m_tabs(tabs), m_notebook(notebook), m_charts(charts), m_status(status),
      m_actions(actions), m_documents(documents)
{
    connect(actions->runAll, &QAction::triggered, this, &RunCoordinator::runAll);
    connect(actions->runCell, &QAction::triggered, this, &RunCoordinator::runCurrentCell);
    connect(actions->runSelection, &QAction::triggered, this, &RunCoordinator::runSelection);
    connect(actions->stop, &QAction::triggered, this, &RunCoordinator::stop);
    connect(runs, &RunController::runningChanged, this, &RunCoordinator::onRunningChanged);
    connect(runs, &RunController::runStarted, this, [this](Run* run) {
        // The result is shown when it is validated; its cost when the run is recorded.
        connect(run, &Run::validated, this, [this, run] { showOutcome(run); });
        connect(run, &Run::finished, this, [this, run] { onRunFinished(run); });
    });
    connect(notebook, &RunNotebook::tracebackLineActivated, this, &RunCoordinator::onTracebackLine);
    connect(notebook, &RunNotebook::entrySelected, this, [this] {
        if (RunEntry* e = m_notebook->selectedEntry(); e && !e->isRunning())
            showRunCharts(e);
    });
    connect(notebook, &RunNotebook::chartActivated, this, [this](const QString& runId, int index) {
        if (RunEntry* e = m_notebook->entry(runId)) {
            showRunCharts(e);
            m_charts->selectChart(index);
        }
    });
}

bool RunCoordinator::runAll()
{
    EditorPage* page = m_tabs->currentPage();
    if (!page)
        return false;
    // A stored revision runs as itself (authorized by the store), not as editor text.
    if (page->isReadOnlyRevision())
        return runRevision(page->documentId(), page->baseRevisionId());
    return startRun(page, page->editor()->text(), page->title(), 1);
}

bool RunCoordinator::runCurrentCell()
{
    EditorPage* page = m_tabs->currentPage();
    if (!page)
        return false;
    CodeEditor* editor = page->editor();
    editor->updateCellSeparators();
    const CodeEditor::Cell cell = editor->currentCell();
    const QString title = editor->cellSeparatorLines().isEmpty()
                              ? page->title()
                              : tr("%1 · lines %2–%3").arg(page->title()).arg(cell.startLine).arg(cell.endLine);
    const bool started = startRun(page, cell.text, title, cell.startLine);
    if (started) {
        const int next = editor->nextCellLine();
        if (next > 0)
            editor->goToLine(next);
    }
    return started;
}

bool RunCoordinator::runSelection()
{
    EditorPage* page = m_tabs->currentPage();
    if (!page)
        return false;
    CodeEditor* editor = page->editor();
    if (!editor->hasSelectedText())
        return runAll();
    int line1 = 0, index1 = 0, line2 = 0, index2 = 0;
    editor->getSelection(&line1, &index1, &line2, &index2);
    return startRun(page, editor->selectedText(), tr("%1 · selection").arg(page->title()), line1 + 1);
}

Run* RunCoordinator::runCode(EditorPage* page, const QString& code, const QString& title, int firstLine)
{
    return page ? startRun(page, code, title, firstLine) : nullptr;
}

Run* RunCoordinator::startRun(EditorPage* page, const QString& code, const QString& title, int firstLine)
{
    if (m_runs->isRunning())
        return nullptr;
    if (const QString problem = page->attachments()->problem(); !problem.isEmpty()) {
        m_status->showMessage(problem, 10000); // a missing attached file: no run without it
        return nullptr;
    }
    page->editor()->clearErrorMarks();
    RunOrigin origin;
    origin.title = title;
    origin.firstLine = firstLine;
    origin.source = page;
    if (m_sessions && m_sessions->usesSession(page))
        return m_runs->startWith([&] { return m_sessions->execute(page, page->language(), code, title, origin); });
    ExecutionRequest request = ExecutionRequest::adHoc(page->language(), code, title);
    request.input = page->attachments()->runInput(); // the tab's files and Input box
    Run* run = m_runs->start(request, origin);
    if (run && m_sessions)
        m_sessions->followFreshRun(page, run); // its variables at the end, for the Variables dock
    return run;
}

void RunCoordinator::stop()
{
    Run* run = m_runs->currentRun();
    auto* page = run ? qobject_cast<EditorPage*>(run->origin().source.data()) : nullptr;
    if (m_sessions && page && m_sessions->interrupt(page))
        return;
    m_runs->stop();
}

bool RunCoordinator::runRevision(const QString& documentId, const QString& revisionId)
{
    if (m_runs->isRunning()) {
        m_status->showMessage(tr("A run is in progress."), 5000);
        return false;
    }
    DocumentStore* store = m_documents;
    const auto doc = store ? store->document(documentId) : std::nullopt;
    // The title and the shown code are for the notebook only: the Executor loads and authorizes
    // the stored text itself (a refusal shows in the entry).
    const QString revId = revisionId.isEmpty() && doc ? doc->headRevisionId : revisionId;
    const auto rev = store && !revId.isEmpty() ? store->revision(revId) : std::nullopt;
    const QString docTitle = doc ? doc->title : documentId;
    RunOrigin origin;
    origin.title = tr("%1 · revision %2").arg(docTitle, revId.left(8));
    origin.code = rev ? rev->content : QString();
    origin.language = languageFromTitle(docTitle).value_or(Language::Python);
    return m_runs->start(ExecutionRequest::savedRevision(documentId, revId), origin) != nullptr;
}

void RunCoordinator::onRunFinished(Run* run)
{
    const ExecutionResult& result = run->result();
    m_sessionTotal += result.costMicros;
    m_status->setLastRunCost(result.costMicros);
    m_status->setSessionTotal(m_sessionTotal);
    // Shown already when validated, unless cleanup turned it into an infrastructure error.
    const bool shown = m_shownAtValidation.remove(run->id());
    if (!shown || (result.status != RunStatus::Success && result.status != RunStatus::Error))
        showOutcome(run);
}

void RunCoordinator::showOutcome(Run* run)
{
    const ExecutionResult& result = run->result();
    if (result.costPending)
        m_shownAtValidation.insert(run->id());
    RunEntry* entry = m_notebook->entry(run->id());
    if (entry) {
        m_notebook->select(entry);
        showRunCharts(entry);
        // The end of the newest run is shown, unless the user scrolled away to read something
        // else (ScrollFollower's rule: they get back to following by scrolling to the end).
        if (entry == m_notebook->entries().constLast() && m_notebook->isFollowing())
            m_notebook->showLatest();
    }
    if (result.error) {
        const RunOrigin& origin = run->origin();
        auto* page = qobject_cast<EditorPage*>(origin.source.data());
        if (const auto line = TracebackLines::innermost(result.error->traceback, result.language, result.title); line && page)
            page->editor()->markErrorLine(*line + origin.firstLine - 1,
                                          result.error->name + QStringLiteral(": ") + result.error->value);
    }
}

EditorPage* RunCoordinator::pageTitled(const QString& runTitle) const
{
    // A run reloaded from the history has no tab: the one it ran from, by the title it gave the
    // run ("a.py" or "a.py · lines 3–9"), when that tab is open.
    const QString title = runTitle.section(QStringLiteral(" · "), 0, 0);
    for (int i = 0; !title.isEmpty() && i < m_tabs->count(); ++i)
        if (EditorPage* page = m_tabs->page(i); page && page->title() == title)
            return page;
    return nullptr;
}

void RunCoordinator::onTracebackLine(RunEntry* entry, int line)
{
    const Run* run = entry ? entry->run() : nullptr;
    auto* origin = run ? qobject_cast<EditorPage*>(run->origin().source.data()) : nullptr;
    EditorPage* page = origin ? origin : run ? pageTitled(run->origin().title) : nullptr;
    if (!page)
        page = m_tabs->currentPage();
    if (!page)
        return;
    m_tabs->setCurrentWidget(page);
    page->editor()->goToLine(line + (run ? run->origin().firstLine : 1) - 1);
}

void RunCoordinator::onRunningChanged(bool running)
{
    m_actions->runAll->setEnabled(!running);
    m_actions->runCell->setEnabled(!running);
    m_actions->runSelection->setEnabled(!running);
    m_actions->stop->setEnabled(running);
    m_status->setRunning(running);
}

void RunCoordinator::showRunCharts(RunEntry* entry)
{
    // Keep the pane (and the user's zoom) when the run is already shown.
    if (!entry || !entry->run() || entry->runId() == m_chartRunId)
        return;
    m_chartRunId = entry->runId();
    m_charts->setCharts(entry->run()->result().charts); // shared with the run, not copied or parsed
    // The image view measures its pane only once it is laid out: fit again after that.
    QTimer::singleShot(0, m_charts->pngView(), [pane = QPointer<ChartPane>(m_charts)] {
        if (pane && pane->currentView() == pane->pngView() && pane->pngView()->fitMode())
            pane->pngView()->fitToPane();
    });
}

} // namespace sandpad
