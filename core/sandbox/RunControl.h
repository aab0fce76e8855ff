#pragma once

#include <QObject>
#include <atomic>

namespace sandpad {

// Lets another thread cancel a run that a provider is executing (blocking) on a worker thread.
// Providers that wait in a local QEventLoop connect to cancelRequested (delivered queued into
// the worker's loop, so no polling is needed); providers may also check isCancelled().
class RunControl : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    bool isCancelled() const { return m_cancelled.load(); }
    // Thread-safe; may be called from any thread, more than once.
    void cancel();

signals:
    void cancelRequested();

private:
    std::atomic<bool> m_cancelled{false};
};

} // namespace sandpad
