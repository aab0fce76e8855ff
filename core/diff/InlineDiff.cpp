#include "core/diff/InlineDiff.h"

#include <algorithm>
#include <vector>

namespace sandpad {

namespace {

struct Token {
    int start = 0;
    int length = 0;
};

bool isWordChar(QChar c) { return c.isLetterOrNumber() || c == u'_'; }

QList<Token> tokenize(const QString& line)
{
    QList<Token> tokens;
    int i = 0;
    const int n = int(line.size());
    while (i < n) {
        const int start = i;
        const QChar c = line[i];
        if (isWordChar(c)) {
            while (i < n && isWordChar(line[i]))
                ++i;
        } else if (c.isSpace()) {
            while (i < n && line[i].isSpace())
                ++i;
        } else {
            ++i;
            if (c.isHighSurrogate() && i < n && line[i].isLowSurrogate())
                ++i;
        }
        tokens.append({start, i - start});
    }
    return tokens;
}

// Adjacent or touching spans become one.
void addSpan(QList<InlineSpan>& spans, int start, int length)
{
    if (length <= 0)
        return;
    if (!spans.isEmpty() && spans.last().start + spans.last().length == start)
        spans.last().length += length;
    else
        spans.append({start, length});
}

} // namespace

std::optional<InlineChanges> InlineDiff::compute(const QString& oldLine, const QString& newLine)
{
    if (oldLine == newLine || oldLine.size() > kMaxLineChars || newLine.size() > kMaxLineChars)
        return std::nullopt;
    const QList<Token> a = tokenize(oldLine), b = tokenize(newLine);
    auto same = [&](int i, int j) {
        return a[i].length == b[j].length
               && QStringView(oldLine).mid(a[i].start, a[i].length) == QStringView(newLine).mid(b[j].start, b[j].length);
    };
    // Common words at both ends first: the table is only for the middle.
    int prefix = 0;
    while (prefix < a.size() && prefix < b.size() && same(prefix, prefix))
        ++prefix;
    int suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix && same(int(a.size()) - 1 - suffix, int(b.size()) - 1 - suffix))
        ++suffix;
    const int n = int(a.size()) - prefix - suffix, m = int(b.size()) - prefix - suffix;
    std::vector<char> keptA(size_t(a.size()), 0), keptB(size_t(b.size()), 0);
    for (int i = 0; i < prefix; ++i)
        keptA[size_t(i)] = keptB[size_t(i)] = 1;
    for (int k = 0; k < suffix; ++k)
        keptA[size_t(a.size() - 1 - k)] = keptB[size_t(b.size() - 1 - k)] = 1;
    if (n > 0 && m > 0) {
        if (qint64(n) * m > kMaxWork)
            return std::nullopt;
        // Longest common subsequence of the middle words, by character weight.
        std::vector<int> table(size_t(n + 1) * size_t(m + 1), 0);
        auto at = [&](int i, int j) -> int& { return table[size_t(i) * size_t(m + 1) + size_t(j)]; };
        for (int i = n - 1; i >= 0; --i)
            for (int j = m - 1; j >= 0; --j)
                at(i, j) = std::max({same(prefix + i, prefix + j) ? at(i + 1, j + 1) + a[prefix + i].length : 0,
                                     at(i + 1, j), at(i, j + 1)});
        int i = 0, j = 0;
        while (i < n && j < m) {
            if (same(prefix + i, prefix + j) && at(i, j) == at(i + 1, j + 1) + a[prefix + i].length) {
                keptA[size_t(prefix + i)] = keptB[size_t(prefix + j)] = 1;
                ++i;
                ++j;
            } else if (at(i + 1, j) >= at(i, j + 1)) {
                ++i;
            } else {
                ++j;
            }
        }
    }
    InlineChanges changes;
    int keptChars = 0;
    for (int i = 0; i < a.size(); ++i) {
        if (keptA[size_t(i)])
            keptChars += a[i].length;
        else
            addSpan(changes.removed, a[i].start, a[i].length);
    }
    for (int j = 0; j < b.size(); ++j)
        if (!keptB[size_t(j)])
            addSpan(changes.added, b[j].start, b[j].length);
    // Kept characters that are only spaces or punctuation do not make two lines alike.
    int keptWordChars = 0;
    for (int i = 0; i < a.size(); ++i)
        if (keptA[size_t(i)] && isWordChar(oldLine[a[i].start]))
            keptWordChars += a[i].length;
    const int longer = int(std::max(oldLine.size(), newLine.size()));
    if (longer == 0 || keptChars * 10 < longer * 4 || keptWordChars == 0)
        return std::nullopt;
    return changes;
}

QHash<int, int> InlineDiff::pairedLines(const LineDiffResult& diff)
{
    QHash<int, int> pairs;
    const QList<DiffBlock>& blocks = diff.blocks;
    for (qsizetype b = 0; b + 1 < blocks.size(); ++b) {
        if (blocks[b].op != DiffOp::Removed || blocks[b + 1].op != DiffOp::Added)
            continue;
        const int count = std::min(blocks[b].count, blocks[b + 1].count);
        for (int i = 0; i < count; ++i)
            pairs.insert(blocks[b].oldStart + i, blocks[b + 1].newStart + i);
    }
    return pairs;
}

} // namespace sandpad
