#pragma once

#include <QObject>
#include <atomic>

namespace sandpad {

// Lets another thread cancel a run that a provider is executing (blocking) on a worker thread.
// Providers that wait in a local QEventLoop connect to cancelRequested (delivered queued into
// the worker's loop, so no polling is needed); providers may also check isCancelled().
// The other way, the provider tells how it got the run's sandbox (a pre-started one), which the
// Executor records in the result and the status bar shows while the run is going.
class RunControl : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    bool isCancelled() const { return m_cancelled.load(); }
    // Thread-safe; may be called from any thread, more than once.
    void cancel();
    // Thread-safe. Set by a provider whose create() handed out a pre-started sandbox (the local
    // pool): the run did not wait for a sandbox to start.
    void setPrestarted() { m_prestarted.store(true); }
    bool isPrestarted() const { return m_prestarted.load(); }
    // Thread-safe. A session's side job that can give way (a completion) is to end now, as at
    // its deadline, without harm to the session: an execution is waiting for its turn.
    void giveWay();
    bool isGivingWay() const { return m_givingWay.load(); }

signals:
    void cancelRequested();
    void giveWayRequested(); // queued into the worker's loop, like cancelRequested

private:
    std::atomic<bool> m_cancelled{false};
    std::atomic<bool> m_prestarted{false};
    std::atomic<bool> m_givingWay{false};
};

} // namespace sandpad
