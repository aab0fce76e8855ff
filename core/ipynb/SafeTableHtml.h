#pragma once

#include <QString>
#include <optional>

namespace sandpad {

// An HTML output (text/html) the report may show as a table: only when it is nothing but tables
// (table, caption, thead, tbody, tfoot, tr, th, td; div, span, b, i, em, strong, br around them;
// a <style> block, as pandas writes one, is dropped). The HTML is rebuilt from its pieces: tags
// without any attribute, text escaped again; anything else (a script, an image, a link, an
// event attribute's tag) and the whole output is refused, and the report shows its text form.
// SafeHtml's Tables profile (the notebook's HTML outputs use its Display profile).
class SafeTableHtml {
public:
    static std::optional<QString> sanitize(const QString& html);
};

} // namespace sandpad
