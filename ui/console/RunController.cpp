#include "console/RunController.h"

#include "console/RunEntry.h"
#include "console/RunNotebook.h"
#include "engine/RunRecordConversion.h"
#include "engine/Executor.h"
#include "engine/RunHandle.h"
#include "notebook/RunHistory.h"

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
        m_notebook->setWholeRecordSource([history](const QString& runId) { return history->find(runId); });
    else
        m_notebook->setWholeRecordSource({});
}

void RunController::waitForSaves()
{
    m_savePool.waitForDone();
}

bool RunController::start(Language language, const QString& code, const QString& title)
{
    return startRequest(ExecutionRequest::adHoc(language, code, title), language, code, title);
}

bool RunController::startSavedRevision(const QString& documentId, const QString& revisionId, Language language,
                                       const QString& title, const QString& shownCode)
{
    return startRequest(ExecutionRequest::savedRevision(documentId, revisionId), language, shownCode, title);
}

bool RunController::startRequest(ExecutionRequest request, Language language, const QString& code, const QString& title)
{
    if (isRunning() || !m_executor)
        return false;
    m_startedAt = QDateTime::currentDateTimeUtc();
    const QString provider = m_executor->providerName();
    m_entry = m_notebook->addRunning(title, languageName(language), provider, code);
    RunHandle* handle = m_executor->start(request);
    m_handle = handle;
    connect(handle, &RunHandle::output, m_entry.data(), &RunEntry::appendOutput);
    connect(handle, &RunHandle::finished, this, &RunController::onFinished);
    emit runningChanged(true);
    // A run refused at once may already be finished.
    if (handle->isFinished())
        onFinished(handle->result());
    return true;
}

void RunController::stop()
{
    if (m_handle)
        m_handle->cancel();
}

void RunController::onFinished(const ExecutionResult& result)
{
    if (!m_handle)
        return; // delivered twice
    RunRecord record = toRunRecord(result, m_startedAt);
    if (m_entry && !record.revisionId.isEmpty())
        record.title = m_entry->record().title; // keep "title · revision abc12345" in the entry
    if (m_entry)
        m_entry->finish(record);
    if (m_history && m_saveToHistory) {
        // Storing megabytes of output takes a while: keep it off the GUI thread (in order).
        RunHistory* history = m_history;
        m_savePool.start([history, record] { history->save(record); });
    }
    m_handle->disconnect(this);
    m_handle = nullptr;
    emit runningChanged(false);
    emit runFinished(result);
}

int RunController::loadHistory(int limit)
{
    if (!m_history)
        return 0;
    waitForSaves();
    const QList<RunRecord> records = m_history->recentPreviews(limit);
    for (const RunRecord& record : records)
        m_notebook->addFinished(record);
    return int(records.size());
}

} // namespace sandpad
