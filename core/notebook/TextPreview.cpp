#include "core/notebook/TextPreview.h"

#include <QCoreApplication>
#include <QList>
#include <QLocale>
#include <algorithm>

namespace sandpad {

namespace {

// A marker needs room; a budget smaller than this ends the excerpt instead.
constexpr qsizetype kMinLineRoom = 160;

// Characters a text document would turn into a block of its own (QTextCursor::insertText):
// shown as U+FFFD so that one line stays one block.
constexpr char16_t kParagraphSeparator = 0x2029, kBeginningOfFrame = 0xfdd0, kEndOfFrame = 0xfdd1;

bool needsCleaning(const QString& text)
{
    return text.contains(QLatin1Char('\r')) || text.contains(QChar(kParagraphSeparator))
           || text.contains(QChar(kBeginningOfFrame)) || text.contains(QChar(kEndOfFrame));
}

// What a console shows of one line: "\r\n" ends it like "\n", and a carriage return starts the
// line over (a progress bar shows its last state).
QStringView afterCarriageReturn(QStringView line)
{
    if (line.endsWith(QLatin1Char('\r')))
        line.chop(1);
    const qsizetype cr = line.contains(QLatin1Char('\r')) ? line.lastIndexOf(QLatin1Char('\r')) : -1;
    return cr < 0 ? line : line.mid(cr + 1);
}

// One line as shown: whole, or cut to fit `limit` with the marker (never between the two
// halves of a surrogate pair).
QString shownLine(QStringView line, qsizetype limit)
{
    QString shown;
    if (line.size() <= limit) {
        shown = line.toString();
    } else {
        const QString marker = TextPreview::lineCutMarker(line.size());
        qsizetype keep = std::max<qsizetype>(0, limit - marker.size());
        if (keep > 0 && line.at(keep - 1).isHighSurrogate())
            --keep;
        shown = line.left(keep).toString() + marker;
    }
    for (QChar& c : shown)
        if (c == QChar(kParagraphSeparator) || c == QChar(kBeginningOfFrame) || c == QChar(kEndOfFrame))
            c = QChar::ReplacementCharacter;
    return shown;
}

} // namespace

QString TextPreview::formatCount(qint64 n)
{
    QLocale locale;
    if (locale.language() == QLocale::C)
        locale = QLocale(QLocale::English);
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale.toString(n);
}

namespace {

// The markers' texts, with %1 for the count.
QString lineCutText()
{
    return QCoreApplication::translate("TextPreview", "… [line cut: %1 characters; Save or Copy has the whole text]");
}

QString leftOutText(TextPreview::Keep keep)
{
    return keep == TextPreview::Keep::Tail
               ? QCoreApplication::translate("TextPreview", "… [%1 earlier lines not shown; Save or Copy has the whole text]")
               : QCoreApplication::translate("TextPreview", "… [%1 more lines not shown; Save or Copy has the whole text]");
}

} // namespace

QString TextPreview::lineCutMarker(qint64 lineChars)
{
    return lineCutText().arg(formatCount(lineChars));
}

QString TextPreview::linesLeftOutMarker(qint64 lines, Keep keep)
{
    return leftOutText(keep).arg(formatCount(lines));
}

bool TextPreview::hasCutLine(const QString& shown)
{
    const QString text = lineCutText();
    return shown.contains(QStringView(text).left(text.indexOf(QLatin1String("%1")))); // "… [line cut: "
}

bool TextPreview::hasLinesLeftOut(const QString& shown)
{
    for (const Keep keep : {Keep::Head, Keep::Tail}) {
        const QString text = leftOutText(keep);
        if (shown.contains(QStringView(text).mid(text.indexOf(QLatin1String("%1")) + 2))) // " earlier lines not shown; …"
            return true;
    }
    return false;
}

TextPreview TextPreview::make(const QString& text, Keep keep, const Limits& limits)
{
    TextPreview p;
    p.m_wholeChars = text.size();
    const qsizetype n = text.size();
    // The common case, a short text, is returned as it is.
    if (n <= std::min(limits.maxLineChars, limits.maxChars) && text.count(QLatin1Char('\n')) < limits.maxLines
        && !needsCleaning(text)) {
        p.m_text = text;
        return p;
    }
    const bool endsWithNewline = text.endsWith(QLatin1Char('\n'));
    const qsizetype contentEnd = endsWithNewline ? n - 1 : n; // the lines are [0, contentEnd)
    QList<QString> lines;
    qsizetype used = 0;
    qint64 leftOut = 0;
    bool changed = false, cutLine = false;
    auto take = [&](QStringView raw) {
        const QStringView line = afterCarriageReturn(raw);
        const qsizetype room = std::min(limits.maxLineChars, limits.maxChars - used);
        if (lines.size() >= limits.maxLines || room <= 0 || (room < kMinLineRoom && room < line.size()))
            return false;
        QString shown = shownLine(line, room);
        cutLine = cutLine || line.size() > room;
        changed = changed || shown != raw;
        used += shown.size() + 1;
        lines.append(std::move(shown));
        return true;
    };
    if (keep == Keep::Head) {
        qsizetype pos = 0;
        while (pos <= contentEnd) {
            const qsizetype nl = text.indexOf(QLatin1Char('\n'), pos);
            const qsizetype end = nl < 0 || nl > contentEnd ? contentEnd : nl;
            if (!take(QStringView(text).mid(pos, end - pos))) {
                leftOut = QStringView(text).mid(pos, contentEnd - pos).count(QLatin1Char('\n')) + 1;
                break;
            }
            if (end >= contentEnd)
                break;
            pos = end + 1;
        }
    } else {
        const bool hasNewline = QStringView(text).left(contentEnd).contains(QLatin1Char('\n'));
        qsizetype end = contentEnd;
        while (end >= 0) {
            const qsizetype nl = end == 0 || !hasNewline ? -1 : text.lastIndexOf(QLatin1Char('\n'), end - 1);
            const qsizetype start = nl + 1;
            if (!take(QStringView(text).mid(start, end - start))) {
                leftOut = QStringView(text).left(start).count(QLatin1Char('\n')) + 1;
                break;
            }
            if (nl < 0)
                break;
            end = nl;
        }
        std::reverse(lines.begin(), lines.end());
    }
    p.m_cut = cutLine || leftOut > 0;
    if (!changed && leftOut == 0) {
        p.m_text = text;
        return p;
    }
    if (leftOut > 0) {
        if (keep == Keep::Tail)
            lines.prepend(linesLeftOutMarker(leftOut, keep));
        else
            lines.append(linesLeftOutMarker(leftOut, keep));
    }
    p.m_text = lines.join(QLatin1Char('\n'));
    if (endsWithNewline && !(leftOut > 0 && keep == Keep::Head))
        p.m_text += QLatin1Char('\n');
    return p;
}

} // namespace sandpad
