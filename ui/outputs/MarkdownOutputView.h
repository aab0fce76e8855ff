#pragma once

#include "ui/outputs/InertTextBrowser.h"

namespace sandpad {

// A Markdown output, rendered by QTextDocument (GitHub dialect). Nothing it names is loaded:
// no image, file or URL (InertTextBrowser), and a link is not followed, so the run's text cannot
// make the app read or send anything. As tall as its text, no scroll bar.
class MarkdownOutputView : public InertTextBrowser {
    Q_OBJECT
public:
    explicit MarkdownOutputView(const QString& markdown, QWidget* parent = nullptr);
};

} // namespace sandpad
