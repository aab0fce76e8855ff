#pragma once

#include "core/run/ExecutionRequest.h"
#include "core/run/Run.h"

#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <functional>

namespace sandpad {

class Executor;
class RunEntry;
class RunHistory;
class RunNotebook;

// Starts runs on the Executor, each shown by a RunNotebook entry that observes its Run, and
// (optionally) stores finished runs in the RunHistory. One run at a time.
class RunController : public QObject {
    Q_OBJECT
public:
    RunController(Executor* executor, RunNotebook* notebook, QObject* parent = nullptr);
    ~RunController() override; // waits for runs being stored

    // The history the notebook is filled from; saveRuns: also store finished runs there (off the
    // GUI thread). Leave it false when the Workspace stores them itself.
    // The notebook reads the whole texts of reloaded runs back from it.
    void setHistory(RunHistory* history, bool saveRuns = false);

    // Starts a run named by origin (what origin leaves empty comes from the request; a stored
    // revision's shown code and title come from the caller, what runs is loaded and authorized
    // by the Executor). Null when one is already running (or there is no executor).
    Run* start(const ExecutionRequest& request, const RunOrigin& origin = {});
    // The same for a run that `start` begins elsewhere (a notebook session's execution).
    Run* startWith(const std::function<Run*()>& start);
    // Cancels the current run (its entry then says cancelled, $0.00).
    void stop();
    bool isRunning() const { return m_run != nullptr; }
    Run* currentRun() const { return m_run; }
    RunEntry* currentEntry() const;
    // Fills the notebook from the history (oldest first), with previews: whatever the runs
    // printed, the start reads and holds a bounded amount per run.
    int loadHistory(int limit = 50);
    // Waits until every finished run is stored in the history.
    void waitForSaves();

signals:
    void runningChanged(bool running);
    // A run of this controller started: observe it (its one finished signal) from here.
    void runStarted(sandpad::Run* run);

private:
    void onFinished();
    Executor* m_executor;
    RunNotebook* m_notebook;
    RunHistory* m_history = nullptr;
    bool m_saveToHistory = false;
    QPointer<Run> m_run;
    QPointer<RunEntry> m_entry;
    QThreadPool m_savePool;
};

} // namespace sandpad
