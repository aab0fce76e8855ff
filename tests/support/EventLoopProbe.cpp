#include "EventLoopProbe.h"

#include <algorithm>

namespace sandpad {

EventLoopProbe::EventLoopProbe()
{
    m_ticker.setInterval(10);
    QObject::connect(&m_ticker, &QTimer::timeout, &m_ticker, [this] {
        m_worst = std::max(m_worst, m_clock.elapsed() - m_last);
        m_last = m_clock.elapsed();
    });
}

void EventLoopProbe::start()
{
    m_clock.start();
    m_ticker.start();
}

} // namespace sandpad
