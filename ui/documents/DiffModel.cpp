#include "ui/documents/DiffModel.h"

#include <QFontDatabase>
#include <QPoint>
#include <algorithm>

namespace sandpad {

DiffModel::DiffModel(QObject* parent)
    : QAbstractTableModel(parent), m_font(QFontDatabase::systemFont(QFontDatabase::FixedFont))
{
    setPalette(QPalette());
}

void DiffModel::setDiff(const LineDiffResult& diff)
{
    beginResetModel();
    m_diff = diff;
    m_pairs = InlineDiff::pairedLines(m_diff);
    m_pairsByNew.clear();
    for (auto it = m_pairs.cbegin(); it != m_pairs.cend(); ++it)
        m_pairsByNew.insert(it.value(), it.key());
    m_inline.clear();
    rebuild();
    endResetModel();
}

void DiffModel::setLayout(Layout layout)
{
    if (layout == m_layout)
        return;
    beginResetModel();
    m_layout = layout;
    rebuild();
    endResetModel();
}

void DiffModel::setContextLines(int lines)
{
    beginResetModel();
    m_context = lines;
    rebuild();
    endResetModel();
}

void DiffModel::setPalette(const QPalette& palette)
{
    // Tints that read on both light and dark bases: blend a hue into the base colour.
    const QColor base = palette.color(QPalette::Base);
    const bool dark = base.lightnessF() < 0.5;
    auto blend = [&](const QColor& tint, qreal amount) {
        return QColor::fromRgbF(base.redF() * (1 - amount) + tint.redF() * amount,
                                base.greenF() * (1 - amount) + tint.greenF() * amount,
                                base.blueF() * (1 - amount) + tint.blueF() * amount);
    };
    const QColor green = dark ? QColor(60, 200, 90) : QColor(40, 170, 60);
    const QColor red = dark ? QColor(230, 70, 70) : QColor(220, 50, 50);
    m_added = blend(green, dark ? 0.28 : 0.20);
    m_removed = blend(red, dark ? 0.28 : 0.20);
    m_addedStrong = blend(green, dark ? 0.45 : 0.35);
    m_removedStrong = blend(red, dark ? 0.45 : 0.35);
    m_addedInline = blend(green, dark ? 0.55 : 0.45);
    m_removedInline = blend(red, dark ? 0.55 : 0.45);
    m_fold = palette.color(QPalette::AlternateBase);
    m_dim = palette.color(QPalette::PlaceholderText);
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

void DiffModel::rebuild()
{
    m_rows.clear();
    const QList<DiffBlock>& blocks = m_diff.blocks;
    const int context = m_diff.identical() ? -1 : m_context;
    for (qsizetype b = 0; b < blocks.size(); ++b) {
        const DiffBlock& blk = blocks[b];
        if (blk.op == DiffOp::Equal) {
            // Keep `context` lines next to changes; fold the rest.
            int head = b > 0 ? context : 0;                       // after the previous change
            int tail = b + 1 < blocks.size() ? context : 0;       // before the next change
            if (context < 0 || head + tail >= blk.count) {
                head = blk.count;
                tail = 0;
            }
            for (int i = 0; i < head; ++i)
                m_rows.push_back(Row{blk.oldStart + i, blk.newStart + i, DiffOp::Equal, DiffOp::Equal, 0});
            const int folded = blk.count - head - tail;
            if (folded > 0)
                m_rows.push_back(Row{blk.oldStart + head, blk.newStart + head, DiffOp::Equal, DiffOp::Equal, folded});
            for (int i = blk.count - tail; i < blk.count; ++i)
                if (i >= head)
                    m_rows.push_back(Row{blk.oldStart + i, blk.newStart + i, DiffOp::Equal, DiffOp::Equal, 0});
            continue;
        }
        if (m_layout == Layout::Unified) {
            for (int i = 0; i < blk.count; ++i) {
                if (blk.op == DiffOp::Removed)
                    m_rows.push_back(Row{blk.oldStart + i, -1, DiffOp::Removed, DiffOp::Removed, 0});
                else
                    m_rows.push_back(Row{-1, blk.newStart + i, DiffOp::Added, DiffOp::Added, 0});
            }
            continue;
        }
        // Side by side: a removed run followed by an added run is shown paired, line for line.
        int removed = 0, added = 0, oldStart = blk.oldStart, newStart = blk.newStart;
        if (blk.op == DiffOp::Removed) {
            removed = blk.count;
            if (b + 1 < blocks.size() && blocks[b + 1].op == DiffOp::Added) {
                added = blocks[b + 1].count;
                newStart = blocks[b + 1].newStart;
                ++b;
            }
        } else {
            added = blk.count;
        }
        for (int i = 0; i < std::max(removed, added); ++i) {
            Row r;
            if (i < removed) {
                r.oldLine = oldStart + i;
                r.oldOp = DiffOp::Removed;
            }
            if (i < added) {
                r.newLine = newStart + i;
                r.newOp = DiffOp::Added;
            }
            m_rows.push_back(r);
        }
    }
}

int DiffModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int DiffModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid())
        return 0;
    return m_layout == Layout::Unified ? 3 : 4;
}

bool DiffModel::isChangeRow(int row) const
{
    if (row < 0 || row >= rowCount())
        return false;
    const Row& r = m_rows[static_cast<size_t>(row)];
    return r.folded == 0 && (r.oldOp != DiffOp::Equal || r.newOp != DiffOp::Equal);
}

bool DiffModel::isFoldRow(int row) const
{
    return row >= 0 && row < rowCount() && m_rows[static_cast<size_t>(row)].folded > 0;
}

QString DiffModel::lineText(const QString& line) const
{
    QString text = line;
    text.replace(QLatin1Char('\t'), QStringLiteral("    "));
    return text;
}

std::optional<InlineChanges> DiffModel::inlineChanges(int oldLine) const
{
    const auto pair = m_pairs.constFind(oldLine);
    if (pair == m_pairs.cend())
        return std::nullopt;
    auto it = m_inline.constFind(oldLine);
    if (it == m_inline.cend())
        it = m_inline.insert(oldLine, InlineDiff::compute(m_diff.oldLines[oldLine], m_diff.newLines[*pair]));
    return *it;
}

QVariantList DiffModel::inlineSpans(const Row& r, bool oldSide, bool unified) const
{
    const int line = oldSide ? r.oldLine : r.newLine;
    const DiffOp op = oldSide ? r.oldOp : r.newOp;
    if (line < 0 || r.folded > 0 || op == DiffOp::Equal)
        return {};
    const int oldLine = op == DiffOp::Removed ? line : m_pairsByNew.value(line, -1);
    const auto changes = oldLine >= 0 ? inlineChanges(oldLine) : std::nullopt;
    if (!changes)
        return {};
    const QString& text = op == DiffOp::Removed ? m_diff.oldLines[line] : m_diff.newLines[line];
    // Offsets in the shown text: lineText() widens each tab to four spaces; unified adds "± ".
    const int lead = unified ? 2 : 0;
    auto shown = [&](int pos) {
        int tabs = 0;
        for (int i = 0; i < pos && i < text.size(); ++i)
            tabs += text[i] == QLatin1Char('\t');
        return lead + pos + 3 * tabs;
    };
    QVariantList spans;
    for (const InlineSpan& span : op == DiffOp::Removed ? changes->removed : changes->added) {
        const int start = shown(span.start);
        spans.append(QPoint(start, shown(span.start + span.length) - start));
    }
    return spans;
}

QVariant DiffModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    const int col = index.column();
    const bool unified = m_layout == Layout::Unified;
    // Which side this column shows: old (0), new (1); unified text shows whichever exists.
    const bool isNumber = unified ? col < 2 : (col == 0 || col == 2);
    const bool oldSide = unified ? (col == 0 || (col == 2 && r.oldLine >= 0 && r.newOp != DiffOp::Added))
                                 : col < 2;
    const int line = oldSide ? r.oldLine : r.newLine;
    const DiffOp op = oldSide ? r.oldOp : r.newOp;

    switch (role) {
    case Qt::DisplayRole:
        if (r.folded > 0) {
            if ((unified && col == 2) || (!unified && (col == 1 || col == 3)))
                return tr("⋯ %n unchanged line(s) ⋯", nullptr, r.folded);
            return {};
        }
        if (line < 0)
            return {};
        if (isNumber)
            return line + 1;
        {
            const QString& text = oldSide ? m_diff.oldLines[line] : m_diff.newLines[line];
            if (!unified)
                return lineText(text);
            const QChar mark = op == DiffOp::Removed ? QLatin1Char('-')
                             : op == DiffOp::Added   ? QLatin1Char('+')
                                                     : QLatin1Char(' ');
            return QString(mark) + QLatin1Char(' ') + lineText(text);
        }
    case Qt::BackgroundRole:
        if (r.folded > 0)
            return m_fold;
        if (line < 0 && !unified && (r.oldOp != DiffOp::Equal || r.newOp != DiffOp::Equal))
            return m_fold;   // the empty side of a paired change
        if (line >= 0 && op == DiffOp::Added)
            return isNumber ? m_addedStrong : m_added;
        if (line >= 0 && op == DiffOp::Removed)
            return isNumber ? m_removedStrong : m_removed;
        return {};
    case Qt::ForegroundRole:
        if (isNumber || r.folded > 0)
            return m_dim;
        return {};
    case Qt::FontRole:
        return m_font;
    case Qt::TextAlignmentRole:
        if (isNumber)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case InlineSpansRole:
        return isNumber ? QVariant() : QVariant(inlineSpans(r, oldSide, unified));
    case InlineColorRole:
        return op == DiffOp::Added ? m_addedInline : m_removedInline;
    case OldOpRole:
        return r.folded > 0 || r.oldLine < 0 ? -1 : static_cast<int>(r.oldOp);
    case NewOpRole:
        return r.folded > 0 || r.newLine < 0 ? -1 : static_cast<int>(r.newOp);
    default:
        return {};
    }
}

QVariant DiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (m_layout == Layout::Unified) {
        switch (section) {
        case 0: return tr("Old");
        case 1: return tr("New");
        default: return tr("Text");
        }
    }
    switch (section) {
    case 0: return tr("Old");
    case 1: return tr("Old text");
    case 2: return tr("New");
    default: return tr("New text");
    }
}

} // namespace sandpad
