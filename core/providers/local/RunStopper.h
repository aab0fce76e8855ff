#pragma once

#include "core/sandbox/Sandbox.h"

#include <QTimer>
#include <functional>

namespace sandpad {

class RunControl;

namespace localsandbox {

// Ends a local run with `kill` at its deadline or on a cancel request (delivered queued into the
// run's thread, whose local QEventLoop waits for the sandbox). Shared by the cold and the
// pre-started run; created in the run's thread before the sandbox starts.
class RunStopper {
public:
    RunStopper(RunControl& control, std::function<void()> kill);

    // Starts the deadline clock; a cancel requested before the connection was made kills now.
    void start(qint64 timeoutMs);
    void stop() { m_deadline.stop(); }

    bool timedOut() const { return m_timedOut; }
    bool cancelled() const { return m_cancelled; }
    bool stopped() const { return m_timedOut || m_cancelled; }
    // What a stopped run reports (a cancel wins over a deadline reached meanwhile).
    CommandOutcome outcome() const;

private:
    void stopBy(bool& reason);

    RunControl& m_control;
    std::function<void()> m_kill;
    QTimer m_deadline;
    qint64 m_timeoutMs = 0;
    bool m_timedOut = false;
    bool m_cancelled = false;
};

} // namespace localsandbox
} // namespace sandpad
