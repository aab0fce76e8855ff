#include "console/ChartThumbnail.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QPainterPath>

namespace sandpad {

ChartThumbnail::ChartThumbnail(const RunChartRecord& chart, int index, QWidget* parent)
    : QToolButton(parent)
{
    const QSize size(132, 88);
    setIcon(QIcon(render(chart, size, palette())));
    setIconSize(size);
    setAutoRaise(true);
    QString title;
    if (chart.kind == RunChartRecord::Kind::Interactive)
        title = QJsonDocument::fromJson(chart.specJson.toUtf8()).object().value(QStringLiteral("title")).toString();
    setToolTip(title.isEmpty() ? tr("Chart %1").arg(index + 1) : title);
    setAccessibleName(tr("Chart %1: %2").arg(index + 1).arg(title.isEmpty() ? tr("image") : title));
}

QPixmap ChartThumbnail::render(const RunChartRecord& chart, const QSize& size, const QPalette& palette)
{
    QPixmap pixmap(size);
    pixmap.fill(palette.color(QPalette::Base));
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    if (chart.kind == RunChartRecord::Kind::Png) {
        QImage image;
        image.loadFromData(chart.png, "PNG");
        if (!image.isNull()) {
            const QImage scaled = image.scaled(size, Qt::KeepAspectRatio, Qt::SmoothTransformation);
            p.drawImage((size.width() - scaled.width()) / 2, (size.height() - scaled.height()) / 2, scaled);
        }
    } else {
        const QJsonObject spec = QJsonDocument::fromJson(chart.specJson.toUtf8()).object();
        const QString type = spec.value(QStringLiteral("type")).toString();
        const QRectF area(10, 8, size.width() - 20, size.height() - 30);
        p.setPen(QPen(palette.color(QPalette::PlaceholderText), 1));
        p.drawLine(area.bottomLeft(), area.bottomRight());
        p.drawLine(area.bottomLeft(), area.topLeft());
        const QColor accent("#1f77b4"), second("#ff7f0e");
        if (type == QLatin1String("bar")) {
            const double heights[] = {0.5, 0.8, 0.35, 0.65, 0.9};
            const double w = area.width() / 11;
            for (int i = 0; i < 5; ++i) {
                const QRectF bar(area.left() + w * (2 * i + 1), area.bottom() - area.height() * heights[i],
                                 w, area.height() * heights[i]);
                p.fillRect(bar, i % 2 ? second : accent);
            }
        } else if (type == QLatin1String("scatter")) {
            p.setPen(Qt::NoPen);
            const double pts[][2] = {{.1, .3}, {.2, .5}, {.3, .35}, {.45, .6}, {.55, .5}, {.62, .8},
                                     {.7, .65}, {.8, .85}, {.9, .7}, {.35, .2}};
            int i = 0;
            for (const auto& pt : pts) {
                p.setBrush(i++ % 2 ? second : accent);
                p.drawEllipse(QPointF(area.left() + pt[0] * area.width(), area.bottom() - pt[1] * area.height()), 3, 3);
            }
        } else {
            QPainterPath path;
            for (int i = 0; i <= 40; ++i) {
                const double x = area.left() + area.width() * i / 40.0;
                const double y = area.center().y() - area.height() * 0.4 * std::sin(i / 40.0 * 6.28);
                i == 0 ? path.moveTo(x, y) : path.lineTo(x, y);
            }
            p.setPen(QPen(accent, 2));
            p.setBrush(Qt::NoBrush);
            p.drawPath(path);
        }
        p.setPen(palette.color(QPalette::Text));
        QFont f = p.font();
        f.setPointSizeF(std::max(7.0, f.pointSizeF() - 1));
        p.setFont(f);
        const QString title = spec.value(QStringLiteral("title")).toString(type);
        p.drawText(QRectF(4, size.height() - 20, size.width() - 8, 18), Qt::AlignCenter,
                   p.fontMetrics().elidedText(title, Qt::ElideRight, size.width() - 8));
    }
    p.setPen(QPen(palette.color(QPalette::Mid), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(0.5, 0.5, size.width() - 1, size.height() - 1));
    return pixmap;
}

} // namespace sandpad
