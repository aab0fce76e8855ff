#include "ui/documents/DiffLineDelegate.h"

#include "ui/documents/DiffModel.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>

namespace sandpad {

void DiffLineDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const QVariantList spans = index.data(DiffModel::InlineSpansRole).toList();
    if (spans.isEmpty()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    // The line's tint first, then the changed stretches over it, then the text (no background).
    painter->save();
    painter->fillRect(opt.rect, opt.backgroundBrush);
    const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QFontMetrics metrics(opt.font);
    const QString text = opt.text;
    const QColor strong = index.data(DiffModel::InlineColorRole).value<QColor>();
    painter->setClipRect(textRect);
    for (const QVariant& value : spans) {
        const QPoint span = value.toPoint();
        if (span.x() >= text.size())
            continue;
        const int x = textRect.left() + margin + metrics.horizontalAdvance(text.left(span.x()));
        const int width = metrics.horizontalAdvance(text.mid(span.x(), span.y()));
        painter->fillRect(QRect(x, opt.rect.top() + 1, std::max(width, 2), opt.rect.height() - 2), strong);
    }
    painter->restore();
    opt.backgroundBrush = Qt::NoBrush;
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
}

} // namespace sandpad
