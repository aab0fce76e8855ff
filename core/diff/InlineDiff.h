#pragma once

#include "core/diff/LineDiff.h"

#include <QHash>
#include <QList>
#include <QString>
#include <optional>

namespace sandpad {

// A stretch of characters of one line: [start, start + length).
struct InlineSpan {
    int start = 0;
    int length = 0;
    bool operator==(const InlineSpan&) const = default;
};

// Within-line changes of a replaced line: the characters of the old line that went and those of
// the new line that came.
struct InlineChanges {
    QList<InlineSpan> removed; // in the old line
    QList<InlineSpan> added;   // in the new line
};

// Within-line highlighting for a line diff. The two lines are compared word by word (names and
// numbers, runs of spaces, each other character alone), so a changed name is marked whole
// rather than as scattered letters. Lines that have too little in common to be edits of each
// other get no within-line marks (the whole line's tint says enough).
class InlineDiff {
public:
    static constexpr int kMaxLineChars = 4000;   // longer lines: no within-line marks
    static constexpr qint64 kMaxWork = 400'000;  // cap on the word table (old x new words)

    // nullopt: the lines are not similar enough (under 40 % of the longer one kept), too long,
    // or equal.
    static std::optional<InlineChanges> compute(const QString& oldLine, const QString& newLine);
    // The lines of the diff's replacements paired: a Removed block directly followed by an Added
    // block pairs its i-th old line with the i-th new one. Old line index -> new line index.
    static QHash<int, int> pairedLines(const LineDiffResult& diff);
};

} // namespace sandpad
