#include "ui/editor/OpenProgress.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProgressDialog>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>

namespace sandpad {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("sandpad::OpenProgress", text); }

} // namespace

void OpenProgress::run(QWidget* parent, const QString& label, FileReadControl& control, const std::function<void()>& work,
                       const std::function<bool()>& guiStep)
{
    QElapsedTimer clock;
    clock.start();
    QEventLoop loop;
    std::atomic<bool> finished{false};
    // The flag is set before the quit is posted: whichever wait below sees it, none is lost.
    std::unique_ptr<QThread> thread(QThread::create([&] {
        work();
        finished = true;
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    }));

    enum class Phase { Reading, Loading } phase = Phase::Reading;
    std::unique_ptr<QProgressDialog> dialog;
    QTimer poll;
    poll.setInterval(50);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (!dialog && clock.elapsed() >= kDialogDelayMs) {
            dialog = std::make_unique<QProgressDialog>(label, tr("Cancel"), 0, 1000, parent);
            dialog->setObjectName(dialogName());
            dialog->setWindowTitle(tr("Opening"));
            dialog->setWindowModality(Qt::ApplicationModal);
            dialog->setMinimumDuration(0);
            dialog->setAutoClose(false);
            dialog->setAutoReset(false);
            dialog->setMinimumWidth(420);
            QObject::connect(dialog.get(), &QProgressDialog::canceled, dialog.get(), [&] { control.cancel = true; });
            dialog->show();
            loop.quit(); // waited without user input so far: wait again with it (the dialog's Cancel)
        }
        if (!dialog || control.cancel)
            return;
        const qint64 total = control.total, done = control.done;
        if (total > 0 && done < total) {
            dialog->setRange(0, 1000);
            dialog->setValue(int(done * 1000 / total));
            dialog->setLabelText(phase == Phase::Loading ? label + u'\n' + tr("Putting it into the editor…") : label);
        } else if (phase == Phase::Reading && dialog->maximum() != 0) {
            // Read: what is left (decoding, a notebook's cells) has no measure.
            dialog->setRange(0, 0);
            dialog->setLabelText(label + u'\n' + tr("Reading its contents…"));
        }
    });
    auto wait = [&](const std::function<bool()>& done) {
        while (!done())
            loop.exec(dialog ? QEventLoop::AllEvents : QEventLoop::ExcludeUserInputEvents);
    };

    thread->start();
    poll.start();
    wait([&] { return finished.load(); });
    thread->wait();

    if (guiStep && !control.cancel) {
        phase = Phase::Loading;
        bool stepsDone = false;
        QTimer stepper; // a step every few ms: a step may only be waiting for a worker (CodeEditor::startLoad)
        stepper.setInterval(5);
        QObject::connect(&stepper, &QTimer::timeout, &loop, [&] {
            if (control.cancel || guiStep()) {
                stepper.stop();
                stepsDone = true;
                loop.quit();
            }
        });
        stepper.start();
        wait([&] { return stepsDone; });
    }
    poll.stop();
}

} // namespace sandpad
