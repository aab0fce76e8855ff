#include "TerminalText.h"

#include <algorithm>

namespace sandpad {

namespace {

bool needsEscape(char16_t c)
{
    if (c < 0x20)
        return c != u'\n' && c != u'\t';
    return c == 0x7f || (c >= 0x80 && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

void appendEscape(QString& out, char16_t c)
{
    if (c < 0x80) // C0 and DEL: as in C, Python and JSON strings
        out += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
    else // a code point, not a byte: C1 controls arrive as characters of the decoded text
        out += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
}

} // namespace

QString TerminalText::escape(QStringView chunk)
{
    const auto first = std::find_if(chunk.begin(), chunk.end(), [](QChar c) { return needsEscape(c.unicode()); });
    if (!m_pendingCr && first == chunk.end())
        return chunk.toString();
    QString out;
    out.reserve(chunk.size() + 16);
    if (m_pendingCr) {
        m_pendingCr = false;
        if (chunk.startsWith(u'\n'))
            out += u'\r';
        else if (!chunk.isEmpty())
            appendEscape(out, u'\r');
        else
            m_pendingCr = true; // an empty chunk decides nothing
    }
    qsizetype run = 0; // where the current stretch of plain text began
    for (qsizetype i = first - chunk.begin(); i < chunk.size(); ++i) {
        const char16_t c = chunk[i].unicode();
        if (!needsEscape(c))
            continue;
        out += chunk.mid(run, i - run);
        run = i + 1;
        if (c != u'\r')
            appendEscape(out, c);
        else if (i + 1 == chunk.size())
            m_pendingCr = true; // decided by the next chunk
        else if (chunk[i + 1] == u'\n')
            out += u'\r';
        else
            appendEscape(out, c);
    }
    out += chunk.mid(run);
    return out;
}

QString TerminalText::finish()
{
    if (!m_pendingCr)
        return {};
    m_pendingCr = false;
    return QStringLiteral("\\x0d");
}

QString TerminalText::escaped(QStringView text)
{
    TerminalText t;
    QString shown = t.escape(text);
    return shown + t.finish(); // in this order: the CR escape() held back
}

} // namespace sandpad
