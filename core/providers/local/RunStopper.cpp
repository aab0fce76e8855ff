#include "core/providers/local/RunStopper.h"

#include "core/sandbox/RunControl.h"

#include <climits>

namespace sandpad::localsandbox {

RunStopper::RunStopper(RunControl& control, std::function<void()> kill)
    : m_control(control), m_kill(std::move(kill))
{
    m_deadline.setSingleShot(true);
    m_deadline.setTimerType(Qt::PreciseTimer);
    QObject::connect(&m_deadline, &QTimer::timeout, &m_deadline, [this] { stopBy(m_timedOut); });
    // The timer is the context: it lives in the run's thread, so the request is queued there.
    QObject::connect(&control, &RunControl::cancelRequested, &m_deadline,
                     [this] { stopBy(m_cancelled); }, Qt::QueuedConnection);
}

void RunStopper::start(qint64 timeoutMs)
{
    m_timeoutMs = timeoutMs;
    m_deadline.start(static_cast<int>(qMin<qint64>(timeoutMs, INT_MAX)));
    if (m_control.isCancelled()) // cancelled between the caller's check and the connection
        stopBy(m_cancelled);
}

void RunStopper::stopBy(bool& reason)
{
    reason = true;
    m_kill();
}

CommandOutcome RunStopper::outcome() const
{
    CommandOutcome outcome;
    outcome.timedOut = m_timedOut && !m_cancelled;
    outcome.cancelled = m_cancelled;
    outcome.detail = outcome.cancelled
                         ? QStringLiteral("cancelled; sandbox killed")
                         : QStringLiteral("deadline of %1 ms reached; sandbox killed").arg(m_timeoutMs);
    return outcome;
}

} // namespace sandpad::localsandbox
