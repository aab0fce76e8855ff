#pragma once

#include "core/files/FileRead.h"

#include <QString>
#include <functional>

class QWidget;

namespace sandpad {

// Opening a file off the GUI thread (File > Open, a tab restored at start): `work` (reading with
// core/files/FileRead into `control`, then decoding or parsing) runs on a worker thread while
// this waits in an event loop, so the window keeps repainting and its timers keep running. Then,
// unless cancelled, `guiStep` runs on the GUI thread again and again, the event loop running
// between, until it returns true: a big text goes into the editor (filled on a worker, it may report
// its progress in control.done / control.total). For the first kDialogDelayMs user input waits
// (the tabs stay as the caller saw them); after that a modal progress dialog shows `label` and
// the progress, and its Cancel sets control.cancel. Returns when all of it is done or cancelled.
class OpenProgress {
public:
    static void run(QWidget* parent, const QString& label, FileReadControl& control, const std::function<void()>& work,
                    const std::function<bool()>& guiStep = {});

    static constexpr int kDialogDelayMs = 300;
    // The dialog's object name, for tests that press its Cancel.
    static QString dialogName() { return QStringLiteral("sandpadOpenProgress"); }
};

} // namespace sandpad
