#pragma once

#include <QList>
#include <QSet>
#include <QString>

namespace sandpad::localsandbox {

// The processes of a session's sandbox other than its PID 1 and its interpreter, seen from the
// host (docs/local-sandbox.md, "Sessions"): what an execution left behind (a subprocess, a
// double-forked daemon, which PID 1 adopts). Killed and confirmed gone before the execution is
// billed, so nothing an execution started outlives it.
class StrayProcesses {
public:
    // The live processes below pid1, except `keep` itself (its descendants count). A process is
    // live while any of its threads is (its leader may have ended alone). *seen: every pid of
    // the tree, zombies included.
    static QList<int> find(int pid1, int keep, QSet<int>* seen = nullptr);
    // SIGKILLs them through pidfds until none is left, each exit confirmed by its pidfd. False,
    // with the reason, when some are still there after timeoutMs. *killed counts them.
    static bool killAll(int pid1, int keep, int timeoutMs, int* killed, QString* detail);
};

} // namespace sandpad::localsandbox
