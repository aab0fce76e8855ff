#pragma once

#include "core/language/Language.h"
#include "core/sandbox/Deadline.h"
#include "core/sandbox/RunInput.h"

#include <QString>
#include <variant>

namespace sandpad {

// Source code given by the caller.
struct AdHocSource {
    Language language = Language::Python;
    QString code;
    QString title;        // shown in the notebook and in tracebacks, e.g. "Untitled 1"
};

// A stored revision of a saved document. There is deliberately no field for source code: the
// Executor loads the authorized stored revision and runs exactly that text.
struct SavedRevisionRef {
    QString documentId;
    QString revisionId;   // empty: the document's head revision
};

struct ExecutionRequest {
    std::variant<AdHocSource, SavedRevisionRef> source;
    // This run's own cap, clamped to [1, Deadline::kMaxSeconds]; the Executor's config (the
    // settings) bounds it, so the default leaves the decision to the settings.
    int deadlineSeconds = Deadline::kMaxSeconds;
    // Input files placed read-only in the run's working directory, and its stdin (empty unless given).
    RunInput input;

    static ExecutionRequest adHoc(Language language, const QString& code, const QString& title = {});
    static ExecutionRequest savedRevision(const QString& documentId, const QString& revisionId = {});
    bool isSavedRevision() const { return std::holds_alternative<SavedRevisionRef>(source); }
};

} // namespace sandpad
