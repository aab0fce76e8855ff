#pragma once

#include "core/ipynb/Notebook.h"

#include <QString>

namespace sandpad {

// A notebook (cells and their outputs, as they would be written to .ipynb) as one self-contained
// HTML file: inline CSS, images as data: URIs, no script and nothing loaded from the network (a
// Content-Security-Policy says so to the browser too). Every text is escaped; markdown cells go
// through MarkdownHtml; an HTML output (text/html) is shown only when it is a table that
// SafeTableHtml rebuilds (else its text/plain form: HTML could carry scripts); SVG only as an
// <img> (where it runs nothing).
class HtmlReport {
public:
    static QString render(const Notebook& notebook, const QString& title);
    static bool writeFile(const Notebook& notebook, const QString& title, const QString& path, QString* error);
};

} // namespace sandpad
