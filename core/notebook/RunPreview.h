#pragma once

#include "notebook/RunRecord.h"
#include "notebook/TextPreview.h"

#include <QString>

namespace sandpad {

// The bounded form of a run for display: every text of the record cut by TextPreview to the
// limits below, so that a run that printed megabytes costs the notebook kilobytes. The history
// stores one with each run (run_previews) and the notebook reloads those at start instead of
// the whole runs; RunEntry shows a whole record's result, error and code through the same
// limits.
class RunPreview {
public:
    static constexpr int kFormat = 1; // stored with each preview; another value is rebuilt
    enum class Part { Stdout, Stderr, Result, ErrorName, ErrorValue, Traceback, Code, Message, Reason };

    // Shown: what an entry shows of a whole record (a run of this session). Stored: the
    // history's previews, tighter, since a start shows 50 of them at once.
    enum class Use { Shown, Stored };

    // Output and tracebacks keep their tail (the end is what matters), the rest their head.
    static TextPreview::Keep keep(Part part);
    static TextPreview::Limits limits(Part part, Use use = Use::Shown);
    static TextPreview of(Part part, const QString& text, Use use = Use::Shown)
    {
        return TextPreview::make(text, keep(part), limits(part, use));
    }

    // The record with every text bounded for storing (Use::Stored) and preview set (charts
    // are kept as they are).
    static RunRecord make(const RunRecord& whole);
    // The fields of a preview that the runs table's leading columns do not hold, as JSON.
    static QString toJson(const RunRecord& preview);
    // Fills those fields of `record` from toJson()'s text; false when it is not one.
    static bool fromJson(const QString& json, RunRecord* record);
};

} // namespace sandpad
