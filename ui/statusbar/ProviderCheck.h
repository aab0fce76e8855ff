#pragma once

#include "core/sandbox/ValidationReport.h"
#include "ui/statusbar/RunStatusBar.h"

#include <QObject>
#include <QThread>
#include <functional>
#include <memory>
#include <vector>

namespace sandpad {

// Validates the provider off the GUI thread (validation may start interpreters or call a remote
// API) and shows the verdict in the status bar. Checks in flight are joined on destruction, so
// quitting never leaves a half-started sandbox of theirs behind.
class ProviderCheck : public QObject {
    Q_OBJECT
public:
    ProviderCheck(RunStatusBar* status, QObject* parent = nullptr);
    ~ProviderCheck() override;

    // Checks the provider named `provider` with `validate` (blocking; run on a thread of its own).
    // Without a validator the status says so at once.
    void start(const QString& provider, std::function<ValidationReport()> validate);

    // Shows a report in the status bar (start() does, on the GUI thread). A warning about an
    // optional package only (isOptional) leaves the status valid; the tooltip still names it.
    void show(const ValidationReport& report);
    static bool isOptional(const ValidationItem& item);

signals:
    void checked(const sandpad::ValidationReport& report);

private:
    RunStatusBar* m_status;
    // QThreads: a validation runs sandboxes, whose deadline and memory watchdog are Qt timers.
    std::vector<std::unique_ptr<QThread>> m_threads;
};

} // namespace sandpad
