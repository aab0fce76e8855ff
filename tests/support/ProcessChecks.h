#pragma once

#include <QByteArray>
#include <QList>

namespace sandpad {

// Looking at host processes from a test (what a sandbox may have left behind).

// Live (not zombie) processes whose parent is `parent`.
QList<int> childProcessesOf(int parent);
// Host processes whose command line (arguments joined by spaces) contains `needle`.
int hostProcessesWith(const QByteArray& needle);
// Host processes descended from `ancestor` whose command line contains `needle` (a count that
// other suites running at once cannot change).
QList<int> descendantsWith(int ancestor, const QByteArray& needle);
// How many of `pids` are still processes whose command line contains `needle`.
int stillRunningWith(const QList<int>& pids, const QByteArray& needle);
// /proc/<pid>/<file>, empty if unreadable.
QByteArray readProcFile(int pid, const char* file);

} // namespace sandpad
