#pragma once

#include "core/diff/InlineDiff.h"
#include "core/diff/LineDiff.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QFont>
#include <QHash>
#include <QPalette>
#include <vector>

namespace sandpad {

// The rows of a DiffView: a LineDiffResult laid out as a unified or side-by-side table, with
// long unchanged stretches folded into one "n unchanged lines" row.
class DiffModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Layout { Unified, SideBySide };
    enum Role {
        OldOpRole = Qt::UserRole + 1, NewOpRole,   // int(DiffOp) or -1 for no line
        // A text cell of a replaced line: the changed stretches within it, as QPoint(start,
        // length) in the shown text (DisplayRole), for DiffLineDelegate; empty when none.
        InlineSpansRole,
        InlineColorRole,                           // the stronger tint those stretches get
    };

    explicit DiffModel(QObject* parent = nullptr);

    void setDiff(const LineDiffResult& diff);
    const LineDiffResult& diff() const { return m_diff; }
    void setLayout(Layout layout);
    Layout layout() const { return m_layout; }
    void setContextLines(int lines);      // < 0: the whole file
    int contextLines() const { return m_context; }
    void setPalette(const QPalette& palette);   // derives light or dark highlight colours
    void setFont(const QFont& font) { m_font = font; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    bool isChangeRow(int row) const;
    bool isFoldRow(int row) const;
    int textColumnCount() const { return m_layout == Layout::Unified ? 1 : 2; }
    QColor addedColor() const { return m_added; }
    QColor removedColor() const { return m_removed; }
    // The within-line changes of an old line replaced by a paired new one (InlineDiff), if any.
    std::optional<InlineChanges> inlineChanges(int oldLine) const;

private:
    struct Row {
        int oldLine = -1, newLine = -1;   // indices into the diff's lines, -1 for none
        DiffOp oldOp = DiffOp::Equal, newOp = DiffOp::Equal;
        int folded = 0;                   // > 0: a fold row standing for this many equal lines
    };
    void rebuild();
    QString lineText(const QString& line) const;
    QVariantList inlineSpans(const Row& r, bool oldSide, bool unified) const;

    LineDiffResult m_diff;
    Layout m_layout = Layout::Unified;
    int m_context = 3;
    std::vector<Row> m_rows;
    QColor m_added, m_removed, m_addedStrong, m_removedStrong, m_addedInline, m_removedInline, m_fold, m_dim;
    QHash<int, int> m_pairs, m_pairsByNew;  // replaced lines: old -> new, new -> old
    mutable QHash<int, std::optional<InlineChanges>> m_inline; // by old line, computed when shown
    QFont m_font;
};

} // namespace sandpad
