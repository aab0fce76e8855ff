#pragma once

#include <QElapsedTimer>
#include <QTimer>

namespace sandpad {

// The longest gap between the ticks of a 10 ms timer since start(): how long the event loop was
// kept from running while a test floods a view with output.
class EventLoopProbe {
public:
    EventLoopProbe();
    void start();
    void stop() { m_ticker.stop(); }
    qint64 worstGapMs() const { return m_worst; }
    qint64 elapsedMs() const { return m_clock.elapsed(); }

private:
    QElapsedTimer m_clock;
    QTimer m_ticker;
    qint64 m_last = 0;
    qint64 m_worst = 0;
};

} // namespace sandpad
