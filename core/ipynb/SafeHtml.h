#pragma once

#include <QString>
#include <QStringList>
#include <optional>

namespace sandpad {

// Reduces an HTML output (text/html, HTML(...), _repr_html_) to a subset that can be shown
// without running or fetching anything: structure (div, p, section...), text formatting, lists,
// tables, code and headings, rebuilt from a single linear pass over the text. Every tag is
// written again by this class: no attribute survives except a link's http(s)/mailto href, a
// cell's colspan/rowspan and a list's start (checked, numbers only; a table gets a plain grid of
// this class's own), so no script, event
// handler, style, class, image source or CSS url() can reach the view. Scripts, styles,
// iframes, forms and their controls, objects, SVG and MathML are removed with their content;
// an image becomes its alt text ("[image: …]"); tags it does not know are dropped and their
// text kept; unclosed elements are closed, stray closing tags ignored.
//
// Refused (the caller shows the source text, with `why`): over kMaxChars, nested deeper than
// kMaxDepth, a tag, comment or quoted value that never ends. The Tables profile is the
// notebook report's (SafeTableHtml): only table parts and a few inline tags, no links, and
// anything else refuses the whole output.
class SafeHtml {
public:
    enum class Profile { Display, Tables };

    struct Reduced {
        std::optional<QString> html; // the rebuilt HTML; nullopt: refused
        QString why;                 // why it was refused, in words for the user
        int removed = 0;             // elements taken out (scripts, images, forms...)
        QStringList links;           // the hrefs kept, in order
    };

    static constexpr qsizetype kMaxChars = 2'000'000;
    static constexpr int kMaxDepth = 64;

    static Reduced reduce(const QString& html, Profile profile = Profile::Display);
};

} // namespace sandpad
