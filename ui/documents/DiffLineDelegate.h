#pragma once

#include <QStyledItemDelegate>

namespace sandpad {

// Draws a diff line's text cell with its within-line changes (DiffModel::InlineSpansRole) on a
// stronger tint than the line's own, so what changed in a replaced line stands out.
class DiffLineDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace sandpad
