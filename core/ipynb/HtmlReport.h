#pragma once

#include "core/ipynb/Notebook.h"

#include <QString>

namespace sandpad {

// A notebook (cells and their outputs, as they would be written to .ipynb) as one self-contained
// HTML file: inline CSS, images as data: URIs, no script and nothing loaded from the network (a
// Content-Security-Policy says so to the browser too). Every text is escaped; markdown cells go
// through MarkdownHtml; HTML outputs (text/html) are shown by their text/plain form, as they
// could carry scripts.
class HtmlReport {
public:
    static QString render(const Notebook& notebook, const QString& title);
    static bool writeFile(const Notebook& notebook, const QString& title, const QString& path, QString* error);
};

} // namespace sandpad
