#include "core/sandbox/Deadline.h"

#include <algorithm>

namespace sandpad {

Deadline::Deadline(int seconds) : m_seconds(clampSeconds(seconds)) {}

int Deadline::clampSeconds(int seconds)
{
    return std::clamp(seconds, 1, kMaxSeconds);
}

void Deadline::start()
{
    m_timer.setRemainingTime(qint64(m_seconds) * 1000);
    m_started = true;
}

qint64 Deadline::remainingMs() const
{
    if (!m_started)
        return qint64(m_seconds) * 1000;
    return std::max<qint64>(0, m_timer.remainingTime());
}

bool Deadline::expired() const
{
    return m_started && m_timer.hasExpired();
}

} // namespace sandpad
