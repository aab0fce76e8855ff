#include "ui/console/RunController.h"

#include "core/engine/Executor.h"
#include "core/notebook/RunHistory.h"
#include "core/run/Run.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"

namespace sandpad {

RunController::RunController(Executor* executor, RunNotebook* notebook, QObject* parent)
    : QObject(parent), m_executor(executor), m_notebook(notebook)
{
    m_savePool.setMaxThreadCount(1);
}

RunController::~RunController()
{
    waitForSaves();
}

void RunController::setHistory(RunHistory* history, bool saveRuns)
{
    m_history = history;
    m_saveToHistory = saveRuns;
    if (history)
        m_notebook->setWholeRunSource([history](const QString& runId) { return history->find(runId); });
    else
        m_notebook->setWholeRunSource({});
}

void RunController::waitForSaves()
{
    m_savePool.waitForDone();
}

Run* RunController::start(const ExecutionRequest& request, const RunOrigin& origin)
{
    if (!m_executor)
        return nullptr;
    return startWith([&] { return m_executor->start(request, origin); });
}

Run* RunController::startWith(const std::function<Run*()>& start)
{
    if (isRunning())
        return nullptr;
    Run* run = start();
    if (!run)
        return nullptr;
    m_run = run;
    // The entry first: it has shown the result by the time the others hear of it.
    m_entry = m_notebook->addRunning(run);
    connect(run, &Run::finished, this, &RunController::onFinished);
    emit runningChanged(true);
    emit runStarted(run);
    return run;
}

RunEntry* RunController::currentEntry() const
{
    return m_entry;
}

void RunController::stop()
{
    if (m_run)
        m_run->cancel();
}

void RunController::onFinished()
{
    if (!m_run)
        return;
    if (m_history && m_saveToHistory) {
        // Storing megabytes of output takes a while: keep it off the GUI thread (in order).
        RunHistory* history = m_history;
        m_savePool.start([history, result = m_run->result()] { history->save(result); });
    }
    m_run->disconnect(this);
    m_run = nullptr;
    emit runningChanged(false);
}

int RunController::loadHistory(int limit)
{
    if (!m_history)
        return 0;
    waitForSaves();
    const QList<RunHistory::Preview> previews = m_history->recentPreviews(limit);
    for (const RunHistory::Preview& preview : previews)
        m_notebook->addFinished(new Run(preview.run), preview.cuts);
    return int(previews.size());
}

} // namespace sandpad
