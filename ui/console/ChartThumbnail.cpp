#include "ui/console/ChartThumbnail.h"

#include "core/charts/ChartSpec.h"
#include "ui/charts/ChartSketch.h"

#include <QEvent>
#include <QJsonObject>
#include <QPainter>

namespace sandpad {

namespace {
// About what 2 MiB of chart JSON holds: a larger chart is left to the viewer (validating it again
// here would hold up the notebook).
constexpr qsizetype kSketchLimitValues = 100'000;
constexpr qsizetype kMaxTitleChars = 200; // a title is the program's text: a tooltip of megabytes freezes

QString shortTitle(const RunChart& chart, const QString& fallback)
{
    QString title = chart.spec ? chart.spec->title() : fallback;
    if (title.size() > kMaxTitleChars)
        title = title.left(kMaxTitleChars - 1) + QChar(0x2026);
    return title;
}
} // namespace

ChartThumbnail::ChartThumbnail(const RunChart& chart, int index, QWidget* parent)
    : QToolButton(parent), m_chart(chart)
{
    const QSize size(132, 88);
    setIcon(QIcon(render(chart, size, palette())));
    setIconSize(size);
    setAutoRaise(true);
    const QString title = shortTitle(chart, QString());
    setToolTip((title.isEmpty() ? tr("Chart %1").arg(index + 1) : title)
               + (chart.kind == RunChart::Kind::Png && chart.spec ? tr(" (interactive chart; its picture too)") : QString()));
    setAccessibleName(tr("Chart %1: %2").arg(index + 1).arg(title.isEmpty() ? tr("image") : title));
}

void ChartThumbnail::changeEvent(QEvent* event)
{
    QToolButton::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        setIcon(QIcon(render(m_chart, iconSize(), palette())));
}

QPixmap ChartThumbnail::render(const RunChart& chart, const QSize& size, const QPalette& palette)
{
    QPixmap pixmap(size);
    pixmap.fill(palette.color(QPalette::Base));
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    if (chart.kind == RunChart::Kind::Png) {
        QImage image;
        image.loadFromData(chart.png, "PNG");
        if (!image.isNull()) {
            const QImage scaled = image.scaled(size, Qt::KeepAspectRatio, Qt::SmoothTransformation);
            p.drawImage((size.width() - scaled.width()) / 2, (size.height() - scaled.height()) / 2, scaled);
        }
        if (chart.spec) { // a figure with an extracted chart opens interactive: say so
            QFont f = p.font();
            f.setPointSizeF(std::max(6.5, f.pointSizeF() - 2));
            p.setFont(f);
            const QString badge = QObject::tr("interactive");
            const QRectF box(size.width() - p.fontMetrics().horizontalAdvance(badge) - 10, size.height() - p.fontMetrics().height() - 4,
                             p.fontMetrics().horizontalAdvance(badge) + 6, p.fontMetrics().height() + 2);
            p.fillRect(box, palette.color(QPalette::Highlight));
            p.setPen(palette.color(QPalette::HighlightedText));
            p.drawText(box, Qt::AlignCenter, badge);
        }
    } else {
        const ChartSpec* spec = chart.spec.get(); // shared with the run: not parsed again
        const QString type = spec ? spec->typeName() : QString();
        const QRectF area(10, 8, size.width() - 20, size.height() - 30);
        p.setPen(QPen(palette.color(QPalette::PlaceholderText), 1));
        p.drawLine(area.bottomLeft(), area.bottomRight());
        p.drawLine(area.bottomLeft(), area.topLeft());
        // The chart's own data, drawn small. A very large chart is left to the viewer, as is one
        // that does not fit the schema.
        if (spec && spec->valueTotal() <= kSketchLimitValues)
            ChartSketch::draw(p, *spec, area.adjusted(3, 3, -3, -3), palette);
        p.setPen(palette.color(QPalette::Text));
        QFont f = p.font();
        f.setPointSizeF(std::max(7.0, f.pointSizeF() - 1));
        p.setFont(f);
        const QString title = shortTitle(chart, type);
        p.drawText(QRectF(4, size.height() - 20, size.width() - 8, 18), Qt::AlignCenter,
                   p.fontMetrics().elidedText(title, Qt::ElideRight, size.width() - 8));
    }
    p.setPen(QPen(palette.color(QPalette::Mid), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(0.5, 0.5, size.width() - 1, size.height() - 1));
    return pixmap;
}

} // namespace sandpad
