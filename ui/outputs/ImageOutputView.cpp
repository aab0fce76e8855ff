#include "ui/outputs/ImageOutputView.h"

#include <QImage>
#include <QPixmap>

namespace sandpad {

ImageOutputView::ImageOutputView(const QByteArray& png, const QString& description, QWidget* parent) : QLabel(parent)
{
    setAccessibleName(tr("Image output"));
    setToolTip(description);
    QImage image;
    if (!image.loadFromData(png, "PNG")) {
        setText(tr("This image cannot be shown."));
        return;
    }
    if (image.width() > kMaxWidth)
        image = image.scaledToWidth(kMaxWidth, Qt::SmoothTransformation);
    setPixmap(QPixmap::fromImage(image));
    m_drawn = true;
}

} // namespace sandpad
