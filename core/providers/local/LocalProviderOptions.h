#pragma once

#include <QString>

namespace sandpad {

// Overrides for the local provider; empty fields mean the defaults:
// python "/usr/bin/python3", node from PATH, bwrap from PATH (else /usr/bin/bwrap).
struct LocalProviderOptions {
    QString python;
    QString node;
    QString bwrap;
};

} // namespace sandpad
