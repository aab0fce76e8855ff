#include "core/ipynb/SafeTableHtml.h"

#include <QRegularExpression>
#include <QSet>

namespace sandpad {

namespace {

// Text between tags, escaped again: entities that are well formed stay, every other '&', '<',
// '>' and '"' is escaped.
QString retext(const QString& text)
{
    static const QRegularExpression entity(QStringLiteral("^&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"));
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('&')) {
            const auto m = entity.match(QStringView(text).mid(i));
            if (m.hasMatch()) {
                out += m.captured(0);
                i += m.capturedLength() - 1;
            } else {
                out += QStringLiteral("&amp;");
            }
        } else if (c == QLatin1Char('<')) {
            out += QStringLiteral("&lt;");
        } else if (c == QLatin1Char('>')) {
            out += QStringLiteral("&gt;");
        } else if (c == QLatin1Char('"')) {
            out += QStringLiteral("&quot;");
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

std::optional<QString> SafeTableHtml::sanitize(const QString& html)
{
    static const QSet<QString> allowed{"table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td",
                                       "div", "span", "b", "i", "em", "strong", "br", "p", "small"};
    static const QRegularExpression tag(QStringLiteral("<(/?)([A-Za-z][A-Za-z0-9]*)\\b([^<>]*)>"));
    static const QRegularExpression style(QStringLiteral("<style\\b[^<>]*>[^<]*</style\\s*>"),
                                          QRegularExpression::CaseInsensitiveOption);
    QString source = html;
    source.remove(style);
    QString out;
    bool sawTable = false;
    qsizetype last = 0;
    for (auto it = tag.globalMatch(source); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += retext(source.mid(last, m.capturedStart() - last));
        last = m.capturedEnd();
        const QString name = m.captured(2).toLower();
        if (!allowed.contains(name))
            return std::nullopt;
        sawTable = sawTable || name == QLatin1String("table");
        out += QStringLiteral("<%1%2>").arg(m.captured(1), name); // attributes dropped, all of them
    }
    out += retext(source.mid(last));
    if (!sawTable)
        return std::nullopt;
    return out;
}

} // namespace sandpad
