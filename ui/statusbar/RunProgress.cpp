#include "ui/statusbar/RunProgress.h"

#include "core/run/Run.h"
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
    });
    update();
}

void RunProgress::update()
{
    if (!m_run || m_run->isFinished()) {
        m_tick.stop();
        return;
    }
    const RunStatusBar::RunMode mode = m_modeSource ? m_modeSource(*m_run) : RunStatusBar::RunMode::Fresh;
    m_status->setRunProgress(m_run->provider(), mode, m_elapsed.elapsed(), m_costSoFar ? m_costSoFar() : 0);
}

} // namespace sandpad
