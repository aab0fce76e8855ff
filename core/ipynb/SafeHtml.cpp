#include "core/ipynb/SafeHtml.h"

#include <QHash>
#include <QLocale>
#include <QObject>
#include <QSet>
#include <QUrl>

namespace sandpad {

namespace {

using Profile = SafeHtml::Profile;

bool isNameChar(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'-' || c == u':'
           || c == u'_';
}

bool isSpace(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\n' || c == u'\r' || c == u'\f';
}

// Elements kept as they are (their attributes checked one by one).
const QSet<QString>& displayElements()
{
    static const QSet<QString> set{
        // structure
        "div", "p", "span", "br", "hr", "wbr", "blockquote", "section", "article", "aside", "header", "footer",
        "main", "nav", "figure", "figcaption", "details", "summary", "center", "address",
        // text formatting
        "b", "i", "em", "strong", "u", "s", "strike", "del", "ins", "small", "big", "sub", "sup", "mark", "q",
        "cite", "abbr", "dfn", "bdi", "tt", "font",
        // code
        "code", "pre", "kbd", "samp", "var",
        // headings
        "h1", "h2", "h3", "h4", "h5", "h6",
        // lists
        "ul", "ol", "li", "dl", "dt", "dd",
        // tables
        "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td", "colgroup", "col",
        // links: the href is checked
        "a"};
    return set;
}

// SafeTableHtml's set: what a pandas table is made of.
const QSet<QString>& tableElements()
{
    static const QSet<QString> set{"table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td",
                                   "div", "span", "b", "i", "em", "strong", "br", "p", "small"};
    return set;
}

const QSet<QString>& voidElements()
{
    static const QSet<QString> set{"br", "hr", "wbr", "col", "img", "input", "meta", "link", "base", "area",
                                   "embed", "source", "track", "param", "keygen", "frame", "basefont", "isindex"};
    return set;
}

// Removed with everything inside them, read as raw text up to their closing tag.
const QSet<QString>& rawTextElements()
{
    static const QSet<QString> set{"script", "style", "textarea", "title", "xmp", "iframe", "noembed",
                                   "noframes", "noscript", "plaintext", "template"};
    return set;
}

// Removed with everything inside them (their content is markup, nested like any other).
const QSet<QString>& droppedSubtrees()
{
    static const QSet<QString> set{"svg", "math", "object", "applet", "select", "button", "head", "frameset",
                                   "video", "audio", "canvas", "map", "picture", "datalist"};
    return set;
}

// Tags removed alone (their text, if any, stays): forms' parts and fetching elements.
const QSet<QString>& droppedTags()
{
    static const QSet<QString> set{"form", "input", "label", "fieldset", "legend", "output", "meta", "link",
                                   "base", "embed", "source", "track", "param", "area", "frame", "keygen",
                                   "img", "image", "basefont", "isindex", "portal", "dialog", "slot"};
    return set;
}

// Text between tags, escaped again: entities that are well formed stay, every other '&', '<',
// '>' and '"' is escaped.
void appendText(QString& out, QStringView text)
{
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = text[i];
        if (c == u'&') {
            // &name; &#123; &#x1F; -- kept when well formed
            qsizetype j = i + 1;
            bool ok = false;
            if (j < n && text[j] == u'#') {
                ++j;
                const bool hex = j < n && (text[j] == u'x' || text[j] == u'X');
                if (hex)
                    ++j;
                const qsizetype start = j;
                while (j < n && j - start < 7
                       && (text[j].isDigit() || (hex && QStringLiteral("abcdefABCDEF").contains(text[j]))))
                    ++j;
                ok = j > start && j < n && text[j] == u';';
            } else {
                const qsizetype start = j;
                while (j < n && j - start < 32 && text[j].isLetterOrNumber() && text[j].unicode() < 128)
                    ++j;
                ok = j > start && text[start].isLetter() && j < n && text[j] == u';';
            }
            if (ok) {
                out += text.mid(i, j - i + 1);
                i = j;
            } else {
                out += QLatin1String("&amp;");
            }
        } else if (c == u'<') {
            out += QLatin1String("&lt;");
        } else if (c == u'>') {
            out += QLatin1String("&gt;");
        } else if (c == u'"') {
            out += QLatin1String("&quot;");
        } else if (c.unicode() < 0x20 && c != u'\n' && c != u'\t' && c != u'\r') {
            // control characters: not text a page shows
        } else {
            out += c;
        }
    }
}

QString attributeText(const QString& value)
{
    QString out;
    appendText(out, value);
    return out;
}

struct Tag {
    QString name;   // lower case
    bool closing = false;
    bool selfClosing = false;
    QList<std::pair<QString, QString>> attributes; // names lower case, values as written
};

// Reads the tag at text[i] == '<' (a letter or '/' follows). Returns the index after its '>',
// or -1 when the tag never ends (a '>' outside quotes).
qsizetype readTag(QStringView text, qsizetype i, Tag* tag)
{
    const qsizetype n = text.size();
    qsizetype j = i + 1;
    if (j < n && text[j] == u'/') {
        tag->closing = true;
        ++j;
    }
    const qsizetype nameStart = j;
    while (j < n && isNameChar(text[j]))
        ++j;
    tag->name = text.mid(nameStart, j - nameStart).toString().toLower();
    while (j < n) {
        while (j < n && (isSpace(text[j]) || text[j] == u'/')) {
            if (text[j] == u'/' && j + 1 < n && text[j + 1] == u'>')
                tag->selfClosing = true;
            ++j;
        }
        if (j >= n)
            return -1;
        if (text[j] == u'>')
            return j + 1;
        const qsizetype attrStart = j;
        while (j < n && !isSpace(text[j]) && text[j] != u'=' && text[j] != u'>' && text[j] != u'/')
            ++j;
        if (j == attrStart)
            ++j; // a lone '=': skip it
        QString name = text.mid(attrStart, j - attrStart).toString().toLower();
        while (j < n && isSpace(text[j]))
            ++j;
        QString value;
        if (j < n && text[j] == u'=') {
            ++j;
            while (j < n && isSpace(text[j]))
                ++j;
            if (j < n && (text[j] == u'"' || text[j] == u'\'')) {
                const QChar quote = text[j];
                const qsizetype end = text.indexOf(quote, j + 1);
                if (end < 0)
                    return -1;
                value = text.mid(j + 1, end - j - 1).toString();
                j = end + 1;
            } else {
                const qsizetype valueStart = j;
                while (j < n && !isSpace(text[j]) && text[j] != u'>')
                    ++j;
                value = text.mid(valueStart, j - valueStart).toString();
            }
        }
        if (!name.isEmpty() && tag->attributes.size() < 64)
            tag->attributes.append({name, value});
    }
    return -1;
}

// A link the desktop may open on a click: http(s) with a host, or mailto.
std::optional<QString> safeHref(QString href)
{
    href.replace(QLatin1String("&amp;"), QLatin1String("&"));
    href = href.trimmed();
    const QUrl url(href, QUrl::StrictMode);
    if (!url.isValid())
        return std::nullopt;
    const QString scheme = url.scheme().toLower();
    if ((scheme == u"http" || scheme == u"https") && !url.host().isEmpty())
        return url.toString(QUrl::FullyEncoded);
    if (scheme == u"mailto" && !url.path().isEmpty())
        return url.toString(QUrl::FullyEncoded);
    return std::nullopt;
}

std::optional<int> smallNumber(const QString& value, int lo, int hi)
{
    bool ok = false;
    const int n = value.trimmed().toInt(&ok);
    if (!ok || n < lo || n > hi)
        return std::nullopt;
    return n;
}

class Reducer {
public:
    explicit Reducer(Profile profile) : m_profile(profile) {}

    SafeHtml::Reduced run(QStringView text)
    {
        SafeHtml::Reduced r;
        m_out.reserve(text.size() + 64);
        const qsizetype n = text.size();
        qsizetype textStart = 0;
        qsizetype i = 0;
        auto flushText = [&](qsizetype end) {
            if (end > textStart && m_skipDepth == 0)
                appendText(m_out, text.mid(textStart, end - textStart));
        };
        while (i < n) {
            const qsizetype lt = text.indexOf(u'<', i);
            if (lt < 0)
                break;
            i = lt;
            const QChar next = i + 1 < n ? text[i + 1] : QChar();
            if (text.mid(i).startsWith(QLatin1String("<!--"))) {
                flushText(i);
                const qsizetype end = text.indexOf(QLatin1String("-->"), i + 4);
                if (end < 0)
                    return refuse(QObject::tr("a comment (<!--) never ends"));
                i = textStart = end + 3;
                continue;
            }
            if (next == u'!' || next == u'?') { // <!DOCTYPE ...>, <?xml ...?>, <![CDATA[...]]>
                flushText(i);
                const qsizetype end = text.indexOf(u'>', i + 2);
                if (end < 0)
                    return refuse(QObject::tr("a declaration (<!…) never ends"));
                i = textStart = end + 1;
                continue;
            }
            const bool tagStart = next.isLetter() && next.unicode() < 128;
            const bool closeStart = next == u'/' && i + 2 < n && text[i + 2].isLetter() && text[i + 2].unicode() < 128;
            if (!tagStart && !closeStart) {
                ++i; // a '<' of the text: escaped with it
                continue;
            }
            flushText(i);
            Tag tag;
            const qsizetype end = readTag(text, i, &tag);
            if (end < 0)
                return refuse(QObject::tr("a tag (<%1) never ends").arg(tag.name.left(40)));
            i = textStart = end;
            if (!tag.closing && rawTextElements().contains(tag.name)) {
                // Its content is not markup: skip to its closing tag (or the end).
                if (m_profile == Profile::Tables && tag.name != u"style")
                    return refuse(QObject::tr("it has a <%1> element").arg(tag.name));
                ++m_removed;
                const QString close = QStringLiteral("</") + tag.name;
                qsizetype at = i;
                qsizetype closeAt = -1;
                while ((at = text.indexOf(close, at, Qt::CaseInsensitive)) >= 0) {
                    const qsizetype after = at + close.size();
                    if (after >= n || !isNameChar(text[after])) {
                        closeAt = at;
                        break;
                    }
                    at = after;
                }
                if (closeAt < 0) {
                    if (m_profile == Profile::Tables)
                        return refuse(QObject::tr("a <style> never ends"));
                    i = textStart = n; // the rest is the element's
                    break;
                }
                // The report's rule: a style block with markup inside is no style block (refused,
                // not half stripped).
                if (m_profile == Profile::Tables && text.mid(i, closeAt - i).contains(u'<'))
                    return refuse(QObject::tr("a <style> holds markup"));
                const qsizetype gt = text.indexOf(u'>', closeAt);
                i = textStart = gt < 0 ? n : gt + 1;
                continue;
            }
            if (!handle(tag))
                return refuse(m_why);
        }
        flushText(n);
        while (!m_stack.isEmpty())
            closeTop();
        if (m_profile == Profile::Tables && !m_sawTable)
            return refuse(QObject::tr("it has no table"));
        r.html = std::move(m_out);
        r.removed = m_removed;
        r.links = m_links;
        return r;
    }

private:
    struct Open {
        QString name;    // as read
        QString emitted; // the tag written for it ("span" for a link without a safe href)
    };

    SafeHtml::Reduced refuse(const QString& why)
    {
        SafeHtml::Reduced r;
        r.why = why;
        return r;
    }

    void closeTop()
    {
        const Open top = m_stack.takeLast();
        m_out += QStringLiteral("</%1>").arg(top.emitted);
    }

    // Closes open elements back to (and including) the nearest `name`, unless one of `stops`
    // comes first; true when it found one.
    bool closeTo(const QString& name, std::initializer_list<const char*> stops)
    {
        for (qsizetype k = m_stack.size() - 1; k >= 0; --k) {
            if (m_stack[k].name == name) {
                while (m_stack.size() > k)
                    closeTop();
                return true;
            }
            for (const char* stop : stops)
                if (m_stack[k].name == QLatin1String(stop))
                    return false;
        }
        return false;
    }

    // The implied ends of HTML: a new <p>, <li>, <tr>, <td>... ends the one still open.
    void impliedEnds(const QString& name)
    {
        if (name == u"li")
            closeTo(QStringLiteral("li"), {"ul", "ol", "table"});
        else if (name == u"dt" || name == u"dd") {
            if (!closeTo(QStringLiteral("dt"), {"dl", "table"}))
                closeTo(QStringLiteral("dd"), {"dl", "table"});
        } else if (name == u"tr")
            closeTo(QStringLiteral("tr"), {"table"});
        else if (name == u"td" || name == u"th") {
            if (!closeTo(QStringLiteral("td"), {"tr", "table"}))
                closeTo(QStringLiteral("th"), {"tr", "table"});
        } else if (name == u"thead" || name == u"tbody" || name == u"tfoot") {
            for (const char* part : {"thead", "tbody", "tfoot"})
                closeTo(QLatin1String(part), {"table"});
        }
        static const QSet<QString> endsP{"p", "div", "ul", "ol", "dl", "pre", "table", "blockquote", "h1", "h2",
                                         "h3", "h4", "h5", "h6", "hr", "section", "header", "footer", "li"};
        if (endsP.contains(name) && !m_stack.isEmpty() && m_stack.last().name == u"p")
            closeTop();
    }

    QString attributesFor(const Tag& tag, QString* emitted)
    {
        *emitted = tag.name;
        QString attrs;
        for (const auto& [name, value] : tag.attributes) {
            if (tag.name == u"a" && name == u"href") {
                if (const auto href = safeHref(value); href && m_profile == Profile::Display) {
                    attrs += QStringLiteral(" href=\"%1\"").arg(attributeText(*href));
                    m_links << *href;
                }
            } else if (tag.name == u"a" && name == u"title") {
                attrs += QStringLiteral(" title=\"%1\"").arg(attributeText(value.left(500)));
            } else if ((tag.name == u"td" || tag.name == u"th") && (name == u"colspan" || name == u"rowspan")) {
                if (const auto n = smallNumber(value, 1, 1000))
                    attrs += QStringLiteral(" %1=\"%2\"").arg(name).arg(*n);
            } else if (tag.name == u"ol" && name == u"start") {
                if (const auto n = smallNumber(value, -1'000'000, 1'000'000))
                    attrs += QStringLiteral(" start=\"%1\"").arg(*n);
            }
        }
        if (tag.name == u"table" && m_profile == Profile::Display)
            attrs += QStringLiteral(" border=\"1\" cellspacing=\"0\" cellpadding=\"3\""); // ours: a grid to read
        if (tag.name == u"a" && !attrs.contains(QLatin1String(" href=")))
            *emitted = QStringLiteral("span"); // javascript:, data:, relative...: shown as text only
        if (tag.name == u"font" || tag.name == u"center" || tag.name == u"big" || tag.name == u"tt"
            || tag.name == u"strike") {
            static const QHash<QString, QString> modern{{"font", "span"}, {"center", "div"}, {"big", "span"},
                                                        {"tt", "code"}, {"strike", "s"}};
            *emitted = modern.value(tag.name);
        }
        return attrs;
    }

    bool handle(const Tag& tag)
    {
        const QString& name = tag.name;
        if (m_skipDepth > 0) {
            // Inside a removed subtree: only its own nesting matters.
            if (name == m_skipName)
                m_skipDepth += tag.closing ? -1 : (tag.selfClosing ? 0 : 1);
            return true;
        }
        const QSet<QString>& allowed = m_profile == Profile::Tables ? tableElements() : displayElements();
        if (!allowed.contains(name)) {
            if (m_profile == Profile::Tables) {
                m_why = QObject::tr("it has a <%1> element").arg(name.left(40));
                return false;
            }
            if (tag.closing)
                return true;
            if (name == u"img" || name == u"image") {
                // Never fetched: what it would show, in words.
                ++m_removed;
                QString alt;
                for (const auto& [attr, value] : tag.attributes)
                    if (attr == u"alt")
                        alt = value.left(200);
                m_out += QStringLiteral("<span>[");
                appendText(m_out, alt.isEmpty() ? QObject::tr("image not shown") : QObject::tr("image: %1").arg(alt));
                m_out += QStringLiteral("]</span>");
                return true;
            }
            if (droppedSubtrees().contains(name)) {
                ++m_removed;
                if (!tag.selfClosing && !voidElements().contains(name)) {
                    m_skipName = name;
                    m_skipDepth = 1;
                }
                return true;
            }
            if (droppedTags().contains(name))
                ++m_removed;
            return true; // an unknown tag (html, body, a custom element): its text stays
        }
        const bool isVoid = voidElements().contains(name);
        if (tag.closing) {
            if (!isVoid)
                closeTo(name, {});
            return true;
        }
        impliedEnds(name);
        m_sawTable = m_sawTable || name == u"table";
        QString emitted;
        const QString attrs = attributesFor(tag, &emitted);
        if (isVoid) {
            m_out += QStringLiteral("<%1%2>").arg(emitted, attrs);
            return true;
        }
        if (m_stack.size() >= SafeHtml::kMaxDepth) {
            m_why = QObject::tr("it is nested more than %1 elements deep").arg(SafeHtml::kMaxDepth);
            return false;
        }
        m_out += QStringLiteral("<%1%2>").arg(emitted, attrs);
        if (tag.selfClosing) // <div/>: empty, as its writer meant (not left open to the end)
            m_out += QStringLiteral("</%1>").arg(emitted);
        else
            m_stack.append({name, emitted});
        return true;
    }

    Profile m_profile;
    QString m_out;
    QList<Open> m_stack;
    QString m_skipName;
    qsizetype m_skipDepth = 0;
    int m_removed = 0;
    bool m_sawTable = false;
    QStringList m_links;
    QString m_why;
};

} // namespace

SafeHtml::Reduced SafeHtml::reduce(const QString& html, Profile profile)
{
    if (html.size() > kMaxChars) {
        Reduced r;
        r.why = QObject::tr("it has %1 characters; the limit for showing HTML is %2")
                    .arg(QLocale().toString(html.size()), QLocale().toString(kMaxChars));
        return r;
    }
    return Reducer(profile).run(html);
}

} // namespace sandpad
