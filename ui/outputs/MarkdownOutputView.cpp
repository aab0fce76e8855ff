#include "ui/outputs/MarkdownOutputView.h"

#include <QResizeEvent>
#include <QTextDocument>

namespace sandpad {

MarkdownOutputView::MarkdownOutputView(const QString& markdown, QWidget* parent) : QTextBrowser(parent)
{
    setAccessibleName(tr("Markdown output"));
    setOpenLinks(false);
    setOpenExternalLinks(false);
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    // The palette's colours (light or dark theme): the text has none of its own.
    viewport()->setAutoFillBackground(false);
    document()->setMarkdown(markdown, QTextDocument::MarkdownDialectGitHub);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QVariant MarkdownOutputView::loadResource(int, const QUrl&)
{
    ++m_requests;
    return {};
}

QSize MarkdownOutputView::sizeHint() const
{
    const int height = int(document()->size().height()) + 2 * frameWidth() + 4;
    return {QTextBrowser::sizeHint().width(), std::min(height, 2000)};
}

void MarkdownOutputView::resizeEvent(QResizeEvent* event)
{
    QTextBrowser::resizeEvent(event);
    document()->setTextWidth(viewport()->width());
    setFixedHeight(sizeHint().height());
}

} // namespace sandpad
