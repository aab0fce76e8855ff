#pragma once

#include <QByteArray>
#include <QString>

namespace sandpad {

// The seccomp-BPF program the local sandbox loads through `bwrap --seccomp FD`. Built once per
// process with libseccomp (default: allow) and cached; the denied calls are listed in
// docs/local-sandbox.md.
class SeccompFilter {
public:
    // The raw `struct sock_filter` array; empty when it could not be built (see buildError()).
    static QByteArray bpf();
    static QString buildError();
    // How many rules were added (for validation output).
    static int ruleCount();
};

} // namespace sandpad
