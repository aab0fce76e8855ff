#pragma once

#include "core/notebook/TextPreview.h"
#include "core/run/ExecutionResult.h"

#include <QString>

namespace sandpad {

// Which texts of a preview (RunHistory::recentPreviews, RunPreview) are cut: a cut text holds a
// bounded excerpt with markers, the whole one is in the history (RunHistory::find).
struct RunPreviewCuts {
    bool stdoutText = false, stderrText = false, result = false, error = false, code = false, message = false;
    bool any() const { return stdoutText || stderrText || result || error || code || message; }
    bool operator==(const RunPreviewCuts&) const = default;
};

// The bounded form of a run for display: every text of the result cut by TextPreview to the
// limits below, so that a run that printed megabytes costs the notebook kilobytes. The history
// stores one with each run (run_previews) and the notebook reloads those at start instead of
// the whole runs; RunEntry shows a whole run's result, error and code through the same limits.
class RunPreview {
public:
    static constexpr int kFormat = 1; // stored with each preview; another value is rebuilt
    enum class Part { Stdout, Stderr, Result, ErrorName, ErrorValue, Traceback, Code, Message, Reason };

    // Shown: what an entry shows of a whole run (a run of this session). Stored: the
    // history's previews, tighter, since a start shows 50 of them at once.
    enum class Use { Shown, Stored };

    // Output and tracebacks keep their tail (the end is what matters), the rest their head.
    static TextPreview::Keep keep(Part part);
    static TextPreview::Limits limits(Part part, Use use = Use::Shown);
    static TextPreview of(Part part, const QString& text, Use use = Use::Shown)
    {
        return TextPreview::make(text, keep(part), limits(part, use));
    }

    // The result with every text bounded for storing (Use::Stored); *cuts says which were cut
    // (charts are kept as they are).
    static ExecutionResult make(const ExecutionResult& whole, RunPreviewCuts* cuts);
    // The fields of a preview that the runs table's leading columns do not hold, as JSON.
    static QString toJson(const ExecutionResult& preview, const RunPreviewCuts& cuts);
    // Fills those fields of `run` and *cuts from toJson()'s text; false when it is not one.
    static bool fromJson(const QString& json, ExecutionResult* run, RunPreviewCuts* cuts);
};

} // namespace sandpad
