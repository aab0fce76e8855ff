#pragma once

#include <QString>

namespace sandpad {

// A process as another one can recognise it later: its pid and its start time (so that a pid
// reused by an unrelated process is not taken for the owner). Linux: /proc/<pid>/stat.
struct ProcessIdentity {
    qint64 pid = 0;
    QString start; // the kernel's start time in clock ticks since boot, and the boot id

    static ProcessIdentity current();
    // The identity of a running pid; an empty start when there is no such process.
    static ProcessIdentity of(qint64 pid);
    // Whether this process is still running (same pid, same start).
    bool alive() const;
};

} // namespace sandpad
