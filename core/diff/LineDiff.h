#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace sandpad {

enum class DiffOp { Equal, Removed, Added };

// A run of lines with the same fate. Equal: `count` lines at oldStart and newStart; Removed:
// `count` old lines at oldStart (newStart is where they would have been); Added: the reverse.
struct DiffBlock {
    DiffOp op = DiffOp::Equal;
    int oldStart = 0;   // 0-based line index in the old text
    int newStart = 0;   // 0-based line index in the new text
    int count = 0;
};

struct LineDiffResult {
    QStringList oldLines, newLines;
    QList<DiffBlock> blocks;   // in order; covers every line of both texts
    int added = 0, removed = 0;
    bool coarse = false;       // the budget ran out somewhere: a differing stretch is one replace block

    bool identical() const { return added == 0 && removed == 0; }
    // A unified diff ("--- a", "+++ b", "@@ -l,n +l,n @@" hunks) with `context` lines around
    // each change; context < 0 means the whole file in one hunk.
    QString unifiedText(const QString& oldName = QStringLiteral("a"),
                        const QString& newName = QStringLiteral("b"), int context = 3) const;
};

// Line diff: common prefix and suffix are trimmed, then Myers' O(ND) algorithm runs on the middle
// with an edit budget. When the budget runs out the texts are split at lines unique to both
// (patience-style anchors) and the gaps diffed the same way; a gap that is still too hard becomes
// one replace block (coarse). So huge or wildly different inputs finish quickly, never freezing.
class LineDiff {
public:
    struct Options {
        int maxEditDistance = 2000;       // D cap (memory ~ D^2 ints for the backtrack trace)
        qint64 maxWork = 60'000'000;      // cap on (N + M) * D, the comparison work
    };

    static LineDiffResult compute(const QString& oldText, const QString& newText);
    static LineDiffResult compute(const QString& oldText, const QString& newText,
                                  const Options& options);
    static LineDiffResult compute(const QStringList& oldLines, const QStringList& newLines,
                                  const Options& options);
    // Lines without their terminators; "a\n" is one line, "" is no lines.
    static QStringList splitLines(const QString& text);
};

} // namespace sandpad
