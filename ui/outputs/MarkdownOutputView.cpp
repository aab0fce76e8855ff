#include "ui/outputs/MarkdownOutputView.h"

#include <QTextDocument>

namespace sandpad {

MarkdownOutputView::MarkdownOutputView(const QString& markdown, QWidget* parent) : InertTextBrowser(parent)
{
    setAccessibleName(tr("Markdown output"));
    document()->setMarkdown(markdown, QTextDocument::MarkdownDialectGitHub);
}

} // namespace sandpad
