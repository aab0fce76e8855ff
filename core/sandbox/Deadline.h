#pragma once

#include <QDeadlineTimer>

namespace sandpad {

// The wall-clock limit of one run. 300 s by default (the seed's five minutes); never higher.
class Deadline {
public:
    static constexpr int kDefaultSeconds = 300;
    static constexpr int kMaxSeconds = 300;

    explicit Deadline(int seconds = kDefaultSeconds);
    static int clampSeconds(int seconds); // into [1, kMaxSeconds]

    int seconds() const { return m_seconds; }
    void start();                          // starts counting from now
    qint64 remainingMs() const;            // 0 when expired; the full budget before start()
    bool expired() const;

private:
    int m_seconds;
    QDeadlineTimer m_timer{QDeadlineTimer::Forever};
    bool m_started = false;
};

} // namespace sandpad
