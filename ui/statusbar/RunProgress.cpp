#include "ui/statusbar/RunProgress.h"

#include "core/run/Run.h"
#include "core/sandbox/RunControl.h"
#include "ui/console/RunController.h"

namespace sandpad {

RunProgress::RunProgress(RunController* runs, RunStatusBar* status, CostSource costSoFar, QObject* parent)
    : QObject(parent), m_status(status), m_costSoFar(std::move(costSoFar))
{
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &RunProgress::update);
    connect(runs, &RunController::runStarted, this, &RunProgress::onStarted);
}

void RunProgress::onStarted(Run* run)
{
    m_run = run;
    m_elapsed.start();
    m_tick.start();
    connect(run, &Run::finished, this, [this, run] {
        if (m_run == run) {
            m_tick.stop();
            m_run = nullptr;
        }
        m_status->setLastRun(run->provider(), modeOf(*run));
    });
    update();
}

void RunProgress::update()
{
    if (!m_run || m_run->isFinished()) {
        m_tick.stop();
        return;
    }
    m_status->setRunProgress(m_run->provider(), modeOf(*m_run), m_elapsed.elapsed(), m_costSoFar ? m_costSoFar() : 0);
}

RunStatusBar::RunMode RunProgress::modeOf(const Run& run) const
{
    return m_modeSource ? m_modeSource(run) : sandboxMode(run);
}

RunStatusBar::RunMode RunProgress::sandboxMode(const Run& run)
{
    // The provider says whether it served a pre-started sandbox: live, then in the result.
    const bool pooled = run.control().isPrestarted() || (run.hasResult() && run.result().prestarted);
    return pooled ? RunStatusBar::RunMode::Pooled : RunStatusBar::RunMode::Fresh;
}

} // namespace sandpad
