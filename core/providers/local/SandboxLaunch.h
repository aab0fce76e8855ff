#pragma once

#include "core/sandbox/Sandbox.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace sandpad {

struct LocalSandboxConfig;

namespace localsandbox {

// The local sandbox's policy as one command line (docs/local-sandbox.md): setpriv (under root),
// bwrap with its namespaces, mounts and seccomp filter, and sandpad-init as PID 1 with the
// program's limits. Nothing of the host's file system is bound in but the read-only system: the
// files a sandbox needs (init, passwd, the program, the font cache) are copied in by bwrap from
// descriptors (`--file FD`), listed in `data` in fd order from kFirstDataFd.
struct SandboxLaunch {
    enum class Mode {
        Cold, // the program runs at once with the run's limits
        Warm  // a pre-started wrapper: generous CPU/AS until the job arrives (applyJobLimits)
    };

    QStringList argv;          // program first (setpriv or bwrap)
    QList<QByteArray> data;    // content of fd kFirstDataFd + i

    // `files` are placed under /sandpad (the work dir, a tmpfs the program may write to).
    // With `go`, PID 1 waits for a byte on its lifeline (kLifelineFd) before it starts the program.
    static SandboxLaunch build(const LocalSandboxConfig& config, const SandboxCommand& command,
                               const QList<SandboxFile>& files, Mode mode, bool go);

    // The environment setpriv/bwrap themselves are started with: nothing of the app's.
    static QList<QByteArray> hostEnvironment();
    // The sandbox's own /etc/passwd and /etc/group.
    static QByteArray passwdText();
    static QByteArray groupText();
    // sandpad-init, from the resources (empty if missing from this build).
    static QByteArray initProgram();
    // Tests only: another PID 1 build for the sandboxes started after it (empty: the real one).
    static void replaceInitProgram(const QByteArray& program);
};

} // namespace localsandbox
} // namespace sandpad
