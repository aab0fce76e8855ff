#include "ui/outputs/SvgOutputView.h"

#include <QPainter>
#include <QPixmap>
#include <QRegularExpression>
#include <QSvgRenderer>

namespace sandpad {

SvgOutputView::SvgOutputView(const QString& svg, QWidget* parent) : QLabel(parent)
{
    setAccessibleName(tr("SVG output"));
    // href="…" / xlink:href="…" other than an inline data: URI or a #fragment in the document.
    static const QRegularExpression outside(QStringLiteral(R"((?:href|src)\s*=\s*["']\s*(?!data:|#))"),
                                            QRegularExpression::CaseInsensitiveOption);
    QSvgRenderer renderer;
    if (outside.match(svg).hasMatch())
        m_problem = tr("it refers to an outside file or address, which is not loaded");
    else if (!renderer.load(svg.toUtf8()) || !renderer.isValid())
        m_problem = tr("it is not a valid SVG document");
    if (!m_problem.isEmpty()) {
        setTextFormat(Qt::PlainText);
        setTextInteractionFlags(Qt::TextSelectableByMouse);
        setWordWrap(true);
        setText(tr("This SVG is not drawn: %1.\n%2").arg(m_problem, svg.left(4000)));
        return;
    }
    QSize size = renderer.defaultSize();
    if (size.isEmpty())
        size = QSize(300, 150); // a browser's default for an SVG without a size
    size = size.boundedTo(QSize(kMaxWidth, kMaxHeight)).expandedTo(QSize(1, 1));
    if (renderer.defaultSize().isValid() && !renderer.defaultSize().isEmpty())
        size = renderer.defaultSize().scaled(size.boundedTo(QSize(kMaxWidth, kMaxHeight)), Qt::KeepAspectRatio);
    const qreal dpr = devicePixelRatioF();
    QPixmap pixmap(size * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    renderer.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    setPixmap(pixmap);
    m_drawn = true;
}

} // namespace sandpad
