#include "ui/outputs/MathOutputView.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QPixmap>
#include <algorithm>

namespace sandpad {

MathOutputView::MathOutputView(const RunOutput& math, QWidget* parent)
    : QWidget(parent), m_math(math), m_picture(new QLabel(this)), m_text(new QLabel(this))
{
    m_picture->setAccessibleName(tr("Rendered math"));
    m_text->setAccessibleName(tr("Math as text"));
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setWordWrap(true);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    m_text->setFont(mono);
    const QString plain = m_math.plain.isEmpty() ? m_math.text : m_math.plain;
    m_text->setText(plain);
    setToolTip(tr("LaTeX: %1").arg(m_math.text.left(2000)));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->setSpacing(16);
    // Its width is the view's to give (fitPicture), not the formula's: a wide one no longer
    // widens the notebook's entry past the view.
    m_picture->setMinimumWidth(1);
    layout->addWidget(m_picture);
    layout->addWidget(m_text, 1);
    updatePicture();
}

bool MathOutputView::hasPicture() const
{
    return !m_picture->pixmap().isNull();
}

void MathOutputView::updatePicture()
{
    QImage image;
    if (m_math.png.isEmpty() || !image.loadFromData(m_math.png, "PNG")) {
        m_picture->hide();
        if (!m_math.plain.isEmpty() && m_math.plain != m_math.text)
            m_text->setText(m_math.plain + QStringLiteral("\n") + m_math.text);
        return;
    }
    // Black glyphs on transparency: on a dark window they would vanish, so they are inverted.
    if (palette().color(QPalette::Window).lightness() < 128) {
        image = image.convertToFormat(QImage::Format_ARGB32);
        image.invertPixels(QImage::InvertRgb);
    }
    m_image = image;
    m_shownWidth = -1; // a new picture (the palette's)
    m_picture->show();
    fitPicture();
}

void MathOutputView::fitPicture()
{
    if (m_image.isNull())
        return;
    // The text form keeps a third of the view at most (it wraps), the formula has the rest.
    const int text = std::min(m_text->sizeHint().width(), width() / 3);
    const int room = std::max(40, width() - text - layout()->spacing());
    const QImage shown = m_image.width() > room && width() > 0
                             ? m_image.scaledToWidth(room, Qt::SmoothTransformation) : m_image;
    if (shown.width() != m_shownWidth) {
        m_shownWidth = shown.width();
        m_picture->setPixmap(QPixmap::fromImage(shown));
    }
}

void MathOutputView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitPicture();
}

void MathOutputView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updatePicture();
}

} // namespace sandpad
