#include "core/diff/LineDiff.h"

#include <QHash>
#include <algorithm>
#include <unordered_map>
#include <vector>

namespace sandpad {

namespace {

// Myers' greedy forward search with a trace of each round's V (only the live diagonals), then a
// backtrack. Returns false when more than maxD edits would be needed.
bool myers(const int* a, int n, const int* b, int m, int maxD, std::vector<char>& ops)
{
    const int off = maxD + 1;
    std::vector<int> v(2 * static_cast<size_t>(maxD) + 3, 0);
    std::vector<std::vector<int>> trace;
    for (int d = 0; d <= maxD; ++d) {
        // V before round d: diagonals -d-1 .. d+1 are all the backtrack can look at.
        trace.emplace_back(v.begin() + (off - d - 1), v.begin() + (off + d + 2));
        for (int k = -d; k <= d; k += 2) {
            int x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1]
                                                                               : v[off + k - 1] + 1;
            int y = x - k;
            while (x < n && y < m && a[x] == b[y]) {
                ++x;
                ++y;
            }
            v[off + k] = x;
            if (x >= n && y >= m) {
                std::vector<char> rev;
                rev.reserve(static_cast<size_t>(n + m));
                int bx = n, by = m;
                for (int dd = d; dd >= 0; --dd) {
                    const std::vector<int>& t = trace[static_cast<size_t>(dd)];
                    auto at = [&](int kk) { return t[static_cast<size_t>(kk + dd + 1)]; };
                    const int kk = bx - by;
                    const int prevK = (kk == -dd || (kk != dd && at(kk - 1) < at(kk + 1))) ? kk + 1
                                                                                           : kk - 1;
                    const int prevX = at(prevK);
                    const int prevY = prevX - prevK;
                    while (bx > prevX && by > prevY) {
                        rev.push_back('=');
                        --bx;
                        --by;
                    }
                    if (dd > 0) {
                        if (bx == prevX) {
                            rev.push_back('+');
                            --by;
                        } else {
                            rev.push_back('-');
                            --bx;
                        }
                    }
                    bx = prevX;
                    by = prevY;
                }
                ops.assign(rev.rbegin(), rev.rend());
                return true;
            }
        }
    }
    return false;
}

// Lines that occur exactly once in a and once in b, matched, then the longest run of matches in
// increasing order in both (patience diff's anchors).
std::vector<std::pair<int, int>> uniqueAnchors(const int* a, int n, const int* b, int m)
{
    struct Seen { int countA = 0, posA = -1, countB = 0, posB = -1; };
    std::unordered_map<int, Seen> seen;
    seen.reserve(static_cast<size_t>(n + m));
    for (int i = 0; i < n; ++i) {
        Seen& s = seen[a[i]];
        ++s.countA;
        s.posA = i;
    }
    for (int j = 0; j < m; ++j) {
        auto it = seen.find(b[j]);
        if (it != seen.end()) {
            ++it->second.countB;
            it->second.posB = j;
        }
    }
    std::vector<std::pair<int, int>> pairs;
    for (int i = 0; i < n; ++i) {
        const Seen& s = seen[a[i]];
        if (s.countA == 1 && s.countB == 1)
            pairs.emplace_back(i, s.posB);
    }
    // Longest increasing subsequence of the b positions (pairs are already ordered by a).
    std::vector<int> tails, prev(pairs.size(), -1);
    for (int k = 0; k < static_cast<int>(pairs.size()); ++k) {
        auto it = std::lower_bound(tails.begin(), tails.end(), pairs[static_cast<size_t>(k)].second,
                                   [&](int idx, int value) { return pairs[static_cast<size_t>(idx)].second < value; });
        if (it != tails.begin())
            prev[static_cast<size_t>(k)] = *(it - 1);
        if (it == tails.end())
            tails.push_back(k);
        else
            *it = k;
    }
    std::vector<std::pair<int, int>> lis;
    for (int k = tails.empty() ? -1 : tails.back(); k >= 0; k = prev[static_cast<size_t>(k)])
        lis.push_back(pairs[static_cast<size_t>(k)]);
    std::reverse(lis.begin(), lis.end());
    return lis;
}

// Diffs a[0..n) against b[0..m) into ops. Myers within the budget; when that runs out, splits at
// unique common lines and diffs the gaps; a gap still too hard becomes one replace block.
// Returns false when any part had to be coarse.
bool diffRange(const int* a, int n, const int* b, int m, const LineDiff::Options& options,
               std::vector<char>& ops, int depth)
{
    int prefix = 0;
    while (prefix < n && prefix < m && a[prefix] == b[prefix])
        ++prefix;
    int suffix = 0;
    while (suffix < n - prefix && suffix < m - prefix && a[n - 1 - suffix] == b[m - 1 - suffix])
        ++suffix;
    ops.insert(ops.end(), static_cast<size_t>(prefix), '=');
    a += prefix;
    b += prefix;
    n -= prefix + suffix;
    m -= prefix + suffix;
    bool exact = true;
    if (n == 0 || m == 0) {
        ops.insert(ops.end(), static_cast<size_t>(n), '-');
        ops.insert(ops.end(), static_cast<size_t>(m), '+');
    } else {
        const qint64 work = qint64(n) + m;
        const int cap = static_cast<int>(std::min<qint64>(
            {qint64(options.maxEditDistance), work, options.maxWork / work}));
        std::vector<char> sub;
        if (cap > 0 && myers(a, n, b, m, cap, sub)) {
            ops.insert(ops.end(), sub.begin(), sub.end());
        } else {
            const auto anchors = depth < 3 ? uniqueAnchors(a, n, b, m)
                                           : std::vector<std::pair<int, int>>();
            if (anchors.empty()) {
                ops.insert(ops.end(), static_cast<size_t>(n), '-');
                ops.insert(ops.end(), static_cast<size_t>(m), '+');
                exact = false;
            } else {
                int x = 0, y = 0;
                for (const auto& [ai, bj] : anchors) {
                    exact &= diffRange(a + x, ai - x, b + y, bj - y, options, ops, depth + 1);
                    ops.push_back('=');
                    x = ai + 1;
                    y = bj + 1;
                }
                exact &= diffRange(a + x, n - x, b + y, m - y, options, ops, depth + 1);
            }
        }
    }
    ops.insert(ops.end(), static_cast<size_t>(suffix), '=');
    return exact;
}

void append(QList<DiffBlock>& blocks, DiffOp op, int oldStart, int newStart, int count)
{
    if (count <= 0)
        return;
    if (!blocks.isEmpty() && blocks.last().op == op) {
        blocks.last().count += count;
        return;
    }
    blocks.append(DiffBlock{op, oldStart, newStart, count});
}

} // namespace

QStringList LineDiff::splitLines(const QString& text)
{
    if (text.isEmpty())
        return {};
    QStringList lines = text.split(QLatin1Char('\n'));
    if (text.endsWith(QLatin1Char('\n')))
        lines.removeLast();
    return lines;
}

LineDiffResult LineDiff::compute(const QString& oldText, const QString& newText)
{
    return compute(splitLines(oldText), splitLines(newText), Options{});
}

LineDiffResult LineDiff::compute(const QString& oldText, const QString& newText,
                                 const Options& options)
{
    return compute(splitLines(oldText), splitLines(newText), options);
}

LineDiffResult LineDiff::compute(const QStringList& oldLines, const QStringList& newLines,
                                 const Options& options)
{
    LineDiffResult r;
    r.oldLines = oldLines;
    r.newLines = newLines;
    const int n = static_cast<int>(oldLines.size());
    const int m = static_cast<int>(newLines.size());

    // Compare integers, not strings, in the inner loop.
    QHash<QString, int> ids;
    ids.reserve(n + m);
    std::vector<int> a(static_cast<size_t>(n)), b(static_cast<size_t>(m));
    auto intern = [&](const QString& s) {
        auto it = ids.constFind(s);
        if (it != ids.constEnd())
            return *it;
        const int id = static_cast<int>(ids.size());
        ids.insert(s, id);
        return id;
    };
    for (int i = 0; i < n; ++i)
        a[static_cast<size_t>(i)] = intern(oldLines[i]);
    for (int i = 0; i < m; ++i)
        b[static_cast<size_t>(i)] = intern(newLines[i]);

    int prefix = 0;
    while (prefix < n && prefix < m && a[static_cast<size_t>(prefix)] == b[static_cast<size_t>(prefix)])
        ++prefix;
    int suffix = 0;
    while (suffix < n - prefix && suffix < m - prefix
           && a[static_cast<size_t>(n - 1 - suffix)] == b[static_cast<size_t>(m - 1 - suffix)])
        ++suffix;

    append(r.blocks, DiffOp::Equal, 0, 0, prefix);
    std::vector<char> ops;
    r.coarse = !diffRange(a.data() + prefix, n - prefix - suffix, b.data() + prefix,
                          m - prefix - suffix, options, ops, 0);

    int x = prefix, y = prefix;
    for (char op : ops) {
        if (op == '=') {
            append(r.blocks, DiffOp::Equal, x, y, 1);
            ++x;
            ++y;
        } else if (op == '-') {
            append(r.blocks, DiffOp::Removed, x, y, 1);
            ++x;
            ++r.removed;
        } else {
            append(r.blocks, DiffOp::Added, x, y, 1);
            ++y;
            ++r.added;
        }
    }
    append(r.blocks, DiffOp::Equal, x, y, suffix);
    return r;
}

QString LineDiffResult::unifiedText(const QString& oldName, const QString& newName,
                                    int context) const
{
    struct Line { DiffOp op; int o, n; };
    std::vector<Line> lines;
    for (const DiffBlock& blk : blocks)
        for (int i = 0; i < blk.count; ++i) {
            const int o = blk.op == DiffOp::Added ? blk.oldStart : blk.oldStart + i;
            const int nn = blk.op == DiffOp::Removed ? blk.newStart : blk.newStart + i;
            lines.push_back(Line{blk.op, o, nn});
        }

    QString out;
    out += QStringLiteral("--- %1\n+++ %2\n").arg(oldName, newName);
    const int total = static_cast<int>(lines.size());
    int i = 0;
    while (i < total) {
        int start, end; // [start, end) of the hunk
        if (context < 0) {
            if (identical())
                break;
            start = 0;
            end = total;
        } else {
            while (i < total && lines[static_cast<size_t>(i)].op == DiffOp::Equal)
                ++i;
            if (i >= total)
                break;
            start = std::max(0, i - context);
            end = i;
            // Extend while the next change is within 2*context equal lines.
            int lastChange = i;
            for (int j = i; j < total; ++j) {
                if (lines[static_cast<size_t>(j)].op != DiffOp::Equal)
                    lastChange = j;
                else if (j - lastChange > 2 * context)
                    break;
            }
            end = std::min(total, lastChange + 1 + context);
        }
        int oldCount = 0, newCount = 0;
        for (int j = start; j < end; ++j) {
            const DiffOp op = lines[static_cast<size_t>(j)].op;
            oldCount += op != DiffOp::Added;
            newCount += op != DiffOp::Removed;
        }
        const Line& first = lines[static_cast<size_t>(start)];
        const int oldStart = oldCount ? first.o + 1 : first.o;
        const int newStart = newCount ? first.n + 1 : first.n;
        out += QStringLiteral("@@ -%1,%2 +%3,%4 @@\n").arg(oldStart).arg(oldCount).arg(newStart).arg(newCount);
        for (int j = start; j < end; ++j) {
            const Line& l = lines[static_cast<size_t>(j)];
            switch (l.op) {
            case DiffOp::Equal: out += QLatin1Char(' ') + oldLines[l.o]; break;
            case DiffOp::Removed: out += QLatin1Char('-') + oldLines[l.o]; break;
            case DiffOp::Added: out += QLatin1Char('+') + newLines[l.n]; break;
            }
            out += QLatin1Char('\n');
        }
        i = end;
    }
    return out;
}

} // namespace sandpad
