#include "ui/outputs/MathOutputView.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QPixmap>

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
    m_picture->setPixmap(QPixmap::fromImage(image));
    m_picture->show();
}

void MathOutputView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updatePicture();
}

} // namespace sandpad
