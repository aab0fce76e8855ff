#pragma once

#include "core/language/Language.h"
#include "core/sandbox/Deadline.h"

#include <QString>

namespace sandpad {

// What a sandbox is created with (from the user's settings and the request).
struct SandboxOptions {
    Language language = Language::Python;
    int deadlineSeconds = Deadline::kDefaultSeconds;
    bool allowNetwork = false;
    qint64 memoryLimitMb = 1024;
    QString pipWheelDir;            // a local folder of wheels for offline `!pip install`
    QString pipIndexUrl;            // or an index URL (needs the network)
    QString runId;                  // names the run on a remote sandbox's label (orphan records)
    bool coldOnly = false;          // set by the Executor when the run installs packages: a
                                    // pre-started (pooled) sandbox must not be used
};

} // namespace sandpad
