#include "ui/editor/OpenProgress.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QProgressDialog>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>

namespace sandpad {

void OpenProgress::run(QWidget* parent, const QString& label, FileReadControl& control, const std::function<void()>& work)
{
    QEventLoop loop;
    std::atomic<bool> finished{false};
    // The flag is set before the quit is posted: whichever phase below sees it, no wait is lost.
    std::unique_ptr<QThread> thread(QThread::create([&] {
        work();
        finished = true;
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    }));
    thread->start();

    QTimer delay;
    delay.setSingleShot(true);
    QObject::connect(&delay, &QTimer::timeout, &loop, &QEventLoop::quit);
    delay.start(kDialogDelayMs);
    if (!finished)
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    delay.stop();

    if (!finished) {
        auto tr = [](const char* text) { return QCoreApplication::translate("sandpad::OpenProgress", text); };
        QProgressDialog dialog(label, tr("Cancel"), 0, 1000, parent);
        dialog.setObjectName(dialogName());
        dialog.setWindowTitle(tr("Opening"));
        dialog.setWindowModality(Qt::ApplicationModal);
        dialog.setMinimumDuration(0);
        dialog.setAutoClose(false);
        dialog.setAutoReset(false);
        dialog.setMinimumWidth(420);
        QObject::connect(&dialog, &QProgressDialog::canceled, &dialog, [&] {
            control.cancel = true;
            dialog.setLabelText(tr("Cancelling…"));
        });
        QTimer poll;
        poll.setInterval(50);
        QObject::connect(&poll, &QTimer::timeout, &dialog, [&] {
            const qint64 total = control.total, done = control.done;
            if (control.cancel)
                return;
            if (total > 0 && done < total) {
                dialog.setValue(int(done * 1000 / total));
            } else if (total > 0 && dialog.maximum() != 0) {
                // Read: what is left (decoding, a notebook's cells) has no measure.
                dialog.setRange(0, 0);
                dialog.setLabelText(label + u'\n' + tr("Reading its contents…"));
            }
        });
        dialog.show();
        poll.start();
        if (!finished)
            loop.exec();
        poll.stop();
    }
    thread->wait();
}

} // namespace sandpad
