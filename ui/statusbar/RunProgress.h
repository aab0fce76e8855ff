#pragma once

#include "ui/statusbar/RunStatusBar.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <functional>

namespace sandpad {

class Run;
class RunController;

// Live feedback in the status bar while a run is in flight: its provider, how it got its sandbox
// (RunMode), the elapsed time (ticking every second) and the session's cost so far.
class RunProgress : public QObject {
    Q_OBJECT
public:
    using ModeSource = std::function<RunStatusBar::RunMode(const Run& run)>;
    using CostSource = std::function<qint64()>; // the session's cost so far, in micro-dollars

    RunProgress(RunController* runs, RunStatusBar* status, CostSource costSoFar, QObject* parent = nullptr);

    // The hook for session runs: without one a run is Pooled when its provider served a
    // pre-started sandbox (RunControl::isPrestarted, ExecutionResult::prestarted), else Fresh.
    void setModeSource(ModeSource source) { m_modeSource = std::move(source); }
    RunStatusBar::RunMode modeOf(const Run& run) const;
    static RunStatusBar::RunMode sandboxMode(const Run& run); // Pooled or Fresh
    // Shows the current state now (the timer calls it every second).
    void update();
    bool isTicking() const { return m_tick.isActive(); }

private:
    void onStarted(Run* run);

    RunStatusBar* m_status;
    CostSource m_costSoFar;
    ModeSource m_modeSource;
    QPointer<Run> m_run;
    QElapsedTimer m_elapsed;
    QTimer m_tick;
};

} // namespace sandpad
