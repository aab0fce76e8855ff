#include "core/ipynb/MarkdownHtml.h"

#include <QRegularExpression>
#include <QStringList>

namespace sandpad {

namespace {

bool safeUrl(const QString& url)
{
    const QString u = url.trimmed().toLower();
    return u.startsWith(QLatin1String("http://")) || u.startsWith(QLatin1String("https://"))
           || u.startsWith(QLatin1String("mailto:"));
}

// Emphasis and links over text that is already escaped (so the markup added here is the only markup).
QString emphasis(const QString& escaped)
{
    QString s = escaped;
    static const QRegularExpression image(QStringLiteral("!\\[([^\\]]*)\\]\\(([^)\\s]+)\\)"));
    static const QRegularExpression link(QStringLiteral("\\[([^\\]]+)\\]\\(([^)\\s]+)\\)"));
    static const QRegularExpression bold(QStringLiteral("\\*\\*(\\S(?:.*?\\S)?)\\*\\*|__(\\S(?:.*?\\S)?)__"));
    static const QRegularExpression italic(QStringLiteral("(?<![\\w*])\\*(\\S(?:.*?\\S)?)\\*(?![\\w*])|(?<!\\w)_(\\S(?:.*?\\S)?)_(?!\\w)"));
    auto replace = [](QString text, const QRegularExpression& re, auto make) {
        QString out;
        qsizetype last = 0;
        for (auto it = re.globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            out += text.mid(last, m.capturedStart() - last) + make(m);
            last = m.capturedEnd();
        }
        return out + text.mid(last);
    };
    s = replace(s, image, [](const QRegularExpressionMatch& m) {
        const QString alt = m.captured(1).isEmpty() ? QStringLiteral("image") : m.captured(1);
        return safeUrl(m.captured(2)) ? QStringLiteral("<a href=\"%1\">[%2]</a>").arg(m.captured(2), alt)
                                      : QStringLiteral("[%1]").arg(alt);
    });
    s = replace(s, link, [](const QRegularExpressionMatch& m) {
        return safeUrl(m.captured(2)) ? QStringLiteral("<a href=\"%1\">%2</a>").arg(m.captured(2), m.captured(1))
                                      : m.captured(1);
    });
    s = replace(s, bold, [](const QRegularExpressionMatch& m) {
        return QStringLiteral("<strong>%1</strong>").arg(m.captured(1).isEmpty() ? m.captured(2) : m.captured(1));
    });
    s = replace(s, italic, [](const QRegularExpressionMatch& m) {
        return QStringLiteral("<em>%1</em>").arg(m.captured(1).isEmpty() ? m.captured(2) : m.captured(1));
    });
    return s;
}

} // namespace

QString MarkdownHtml::inlineHtml(const QString& text)
{
    // Code spans first: nothing inside them is markup.
    QString out;
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype open = text.indexOf(QLatin1Char('`'), i);
        const qsizetype close = open < 0 ? -1 : text.indexOf(QLatin1Char('`'), open + 1);
        if (close < 0) {
            out += emphasis(text.mid(i).toHtmlEscaped());
            break;
        }
        out += emphasis(text.mid(i, open - i).toHtmlEscaped());
        out += QStringLiteral("<code>") + text.mid(open + 1, close - open - 1).toHtmlEscaped() + QStringLiteral("</code>");
        i = close + 1;
    }
    return out;
}

QString MarkdownHtml::toHtml(const QString& markdown)
{
    static const QRegularExpression heading(QStringLiteral("^(#{1,6})\\s+(.*?)\\s*#*\\s*$"));
    static const QRegularExpression bullet(QStringLiteral("^\\s*[-*+]\\s+(.*)$"));
    static const QRegularExpression numbered(QStringLiteral("^\\s*\\d+[.)]\\s+(.*)$"));
    static const QRegularExpression rule(QStringLiteral("^\\s*([-*_])(\\s*\\1){2,}\\s*$"));
    QString text = markdown;
    text.remove(QLatin1Char('\r'));
    const QStringList lines = text.split(QLatin1Char('\n'));

    QString html;
    QStringList paragraph;
    QString list; // "ul" or "ol" while one is open
    auto closeParagraph = [&] {
        if (!paragraph.isEmpty())
            html += QStringLiteral("<p>") + inlineHtml(paragraph.join(QLatin1Char(' '))) + QStringLiteral("</p>\n");
        paragraph.clear();
    };
    auto closeList = [&] {
        if (!list.isEmpty())
            html += QStringLiteral("</%1>\n").arg(list);
        list.clear();
    };
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString& line = lines.at(i);
        if (line.trimmed().startsWith(QLatin1String("```")) || line.trimmed().startsWith(QLatin1String("~~~"))) {
            closeParagraph();
            closeList();
            const QString fence = line.trimmed().left(3);
            QStringList code;
            for (++i; i < lines.size() && !lines.at(i).trimmed().startsWith(fence); ++i)
                code << lines.at(i);
            html += QStringLiteral("<pre><code>") + code.join(QLatin1Char('\n')).toHtmlEscaped() + QStringLiteral("</code></pre>\n");
            continue;
        }
        if (line.trimmed().isEmpty()) {
            closeParagraph();
            closeList();
            continue;
        }
        if (const auto m = heading.match(line); m.hasMatch()) {
            closeParagraph();
            closeList();
            const int level = int(m.captured(1).size());
            html += QStringLiteral("<h%1>%2</h%1>\n").arg(level).arg(inlineHtml(m.captured(2)));
            continue;
        }
        if (rule.match(line).hasMatch()) {
            closeParagraph();
            closeList();
            html += QStringLiteral("<hr>\n");
            continue;
        }
        const auto b = bullet.match(line);
        const auto n = b.hasMatch() ? QRegularExpressionMatch() : numbered.match(line);
        if (b.hasMatch() || n.hasMatch()) {
            closeParagraph();
            const QString kind = b.hasMatch() ? QStringLiteral("ul") : QStringLiteral("ol");
            if (list != kind) {
                closeList();
                html += QStringLiteral("<%1>\n").arg(kind);
                list = kind;
            }
            html += QStringLiteral("<li>") + inlineHtml((b.hasMatch() ? b : n).captured(1)) + QStringLiteral("</li>\n");
            continue;
        }
        if (line.startsWith(QLatin1Char('>'))) {
            closeParagraph();
            closeList();
            QStringList quote;
            for (; i < lines.size() && lines.at(i).startsWith(QLatin1Char('>')); ++i)
                quote << lines.at(i).mid(lines.at(i).startsWith(QLatin1String("> ")) ? 2 : 1);
            --i;
            html += QStringLiteral("<blockquote>\n") + toHtml(quote.join(QLatin1Char('\n'))) + QStringLiteral("</blockquote>\n");
            continue;
        }
        if (line.startsWith(QLatin1String("    ")) && paragraph.isEmpty() && list.isEmpty()) {
            QStringList code;
            for (; i < lines.size() && (lines.at(i).startsWith(QLatin1String("    ")) || lines.at(i).trimmed().isEmpty()); ++i)
                code << lines.at(i).mid(4);
            --i;
            while (!code.isEmpty() && code.last().trimmed().isEmpty())
                code.removeLast();
            html += QStringLiteral("<pre><code>") + code.join(QLatin1Char('\n')).toHtmlEscaped() + QStringLiteral("</code></pre>\n");
            continue;
        }
        closeList();
        paragraph << line.trimmed();
    }
    closeParagraph();
    closeList();
    return html;
}

} // namespace sandpad
