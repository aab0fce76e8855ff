#pragma once

#include "core/language/Language.h"
#include "core/sandbox/Sandbox.h"

#include <QString>

namespace sandpad {

class UsageLedger;

// The end of a notebook session's sandbox (restart, idle, its tab closed, a deadline that killed
// it), confirmed from the host and recorded in the ledger as its own row at $0.
struct SessionEnd {
    QString provider;
    Language language = Language::Python;
    QString title;
    QString why;             // "restarted", "idle for 30 min", "ended by its owner", ...
    CleanupReport cleanup;

    // One ledger row (source "session", cost 0); false when it could not be written.
    bool record(UsageLedger* ledger) const;
};

} // namespace sandpad
