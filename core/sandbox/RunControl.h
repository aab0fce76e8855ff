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

signals:
    void cancelRequested();

private:
    std::atomic<bool> m_cancelled{false};
    std::atomic<bool> m_prestarted{false};
};

} // namespace sandpad
