#pragma once

#include <QString>

namespace sandpad {

// A small Markdown to HTML conversion for the HTML report's markdown cells: headings, paragraphs,
// fenced and indented code, bullet and numbered lists, block quotes, rules; inline code,
// **bold**, *italic* and links (http, https and mailto only; an image is shown as its link,
// never loaded). Every piece of the text is escaped: raw HTML in the Markdown is shown as text,
// so the report can hold no script or markup from the notebook.
class MarkdownHtml {
public:
    static QString toHtml(const QString& markdown);
    static QString inlineHtml(const QString& text); // one line's inline markup
};

} // namespace sandpad
