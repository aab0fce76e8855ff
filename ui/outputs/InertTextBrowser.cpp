#include "ui/outputs/InertTextBrowser.h"

#include <QResizeEvent>
#include <QTextDocument>
#include <algorithm>

namespace sandpad {

InertTextBrowser::InertTextBrowser(QWidget* parent) : QTextBrowser(parent)
{
    setOpenLinks(false);
    setOpenExternalLinks(false);
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    // The palette's colours (light or dark theme): the text has none of its own.
    viewport()->setAutoFillBackground(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QVariant InertTextBrowser::loadResource(int, const QUrl&)
{
    ++m_requests;
    return {};
}

QSize InertTextBrowser::sizeHint() const
{
    const int height = int(document()->size().height()) + 2 * frameWidth() + 4;
    return {QTextBrowser::sizeHint().width(), std::min(height, 2000)};
}

void InertTextBrowser::resizeEvent(QResizeEvent* event)
{
    QTextBrowser::resizeEvent(event);
    document()->setTextWidth(viewport()->width());
    setFixedHeight(sizeHint().height());
}

} // namespace sandpad
