#include "ui/theme/ThemeIcons.h"

#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>

namespace sandpad {

namespace {

bool darkWindow(const QPalette& palette) { return palette.color(QPalette::Window).lightness() < 128; }

QPixmap draw(ThemeIcons::Kind kind, const QColor& colour, int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    const qreal s = size;
    switch (kind) {
    case ThemeIcons::Kind::Run: {
        QPainterPath triangle;
        triangle.moveTo(0.25 * s, 0.15 * s);
        triangle.lineTo(0.85 * s, 0.5 * s);
        triangle.lineTo(0.25 * s, 0.85 * s);
        triangle.closeSubpath();
        p.drawPath(triangle);
        break;
    }
    case ThemeIcons::Kind::RunCell: { // a triangle and a bar: run this and move on
        QPainterPath triangle;
        triangle.moveTo(0.12 * s, 0.15 * s);
        triangle.lineTo(0.66 * s, 0.5 * s);
        triangle.lineTo(0.12 * s, 0.85 * s);
        triangle.closeSubpath();
        p.drawPath(triangle);
        p.drawRect(QRectF(0.72 * s, 0.15 * s, 0.14 * s, 0.7 * s));
        break;
    }
    case ThemeIcons::Kind::Stop:
        p.drawRoundedRect(QRectF(0.2 * s, 0.2 * s, 0.6 * s, 0.6 * s), 0.08 * s, 0.08 * s);
        break;
    }
    return pixmap;
}

} // namespace

QColor ThemeIcons::glyphColour(Kind kind, const QPalette& palette)
{
    const bool dark = darkWindow(palette);
    if (kind == Kind::Stop)
        return dark ? QColor(0xf2, 0x8b, 0x82) : QColor(0xc5, 0x22, 0x1f);
    return dark ? QColor(0x81, 0xc9, 0x95) : QColor(0x1e, 0x8e, 0x3e);
}

QIcon ThemeIcons::icon(Kind kind, const QPalette& palette)
{
    QIcon icon;
    const QColor normal = glyphColour(kind, palette);
    const QColor disabled = palette.color(QPalette::Disabled, QPalette::WindowText);
    for (int size : {16, 24, 32, 48}) {
        icon.addPixmap(draw(kind, normal, size), QIcon::Normal);
        icon.addPixmap(draw(kind, disabled, size), QIcon::Disabled);
    }
    return icon;
}

} // namespace sandpad
