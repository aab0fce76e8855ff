#pragma once

#include "engine/ExecutionRequest.h"
#include "engine/ExecutionResult.h"
#include "engine/RunHandle.h"
#include "runtime/Language.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

namespace sandpad {

class Executor;
class RunEntry;
class RunHandle;
class RunHistory;
class RunNotebook;

// Starts runs on the Executor, streams them into a RunNotebook entry and stores finished runs in
// the RunHistory. One run at a time.
class RunController : public QObject {
    Q_OBJECT
public:
    RunController(Executor* executor, RunNotebook* notebook, QObject* parent = nullptr);
    ~RunController() override; // waits for runs being stored

    // The history the notebook is filled from; saveRuns: also store finished runs there (off the
    // GUI thread). Leave it false when the Workspace stores them itself.
    // The notebook reads the whole texts of reloaded runs back from it.
    void setHistory(RunHistory* history, bool saveRuns = false);

    // Starts a run; false when one is already running (or there is no executor).
    bool start(Language language, const QString& code, const QString& title);
    // Runs a stored revision: the Executor loads and authorizes the stored text itself (nothing
    // from the caller is run). title names the entry (document and revision); code is only shown.
    bool startSavedRevision(const QString& documentId, const QString& revisionId, Language language,
                            const QString& title, const QString& shownCode);
    // Cancels the current run (its entry then says cancelled, $0.00).
    void stop();
    bool isRunning() const { return m_handle != nullptr; }
    RunEntry* currentEntry() const { return m_entry; }
    // Fills the notebook from the history (oldest first), with previews: whatever the runs
    // printed, the start reads and holds a bounded amount per run.
    int loadHistory(int limit = 50);
    // Waits until every finished run is stored in the history.
    void waitForSaves();

signals:
    void runningChanged(bool running);
    void runFinished(const sandpad::ExecutionResult& result);

private:
    void onFinished(const ExecutionResult& result);
    bool startRequest(ExecutionRequest request, Language language, const QString& code, const QString& title);
    Executor* m_executor;
    RunNotebook* m_notebook;
    RunHistory* m_history = nullptr;
    bool m_saveToHistory = false;
    QPointer<RunHandle> m_handle;
    QPointer<RunEntry> m_entry;
    QDateTime m_startedAt;
    QThreadPool m_savePool;
};

} // namespace sandpad
