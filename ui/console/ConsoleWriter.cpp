#include "ui/console/ConsoleWriter.h"

#include "core/notebook/TextPreview.h"

#include <QTextBlock>
#include <QTextDocument>
#include <algorithm>

namespace sandpad {

namespace {

bool splitsBlock(QChar c)
{
    return c == QChar::ParagraphSeparator || c.unicode() == 0xfdd0 || c.unicode() == 0xfdd1;
}

} // namespace

ConsoleWriter::ConsoleWriter(QTextDocument* document, qsizetype maxLineChars)
    : m_document(document), m_cursor(document), m_maxLineChars(maxLineChars)
{
    m_markerFormat.setFontItalic(true);
}

int ConsoleWriter::endPosition() const
{
    // setPosition, never movePosition(End): moving lays the block out (a cut line is 10,000
    // characters), setting a position inside an edit block does not.
    return m_document->characterCount() - 1;
}

void ConsoleWriter::begin()
{
    m_cursor.beginEditBlock();
}

void ConsoleWriter::end(bool final)
{
    if (m_lineChars > m_maxLineChars)
        updateMarker(final);
    flushBuffer();
    m_cursor.endEditBlock();
}

void ConsoleWriter::reset()
{
    m_buffer.clear();
    m_newlinePending = false;
    m_carriageReturnPending = false;
    resetLine();
}

void ConsoleWriter::resetLine()
{
    m_lineShown = 0;
    m_lineChars = 0;
    m_markerChars = 0;
    m_markerCount = 0;
}

void ConsoleWriter::write(QStringView text, const QTextCharFormat& format)
{
    if (text.isEmpty())
        return;
    if (m_carriageReturnPending) {
        m_carriageReturnPending = false;
        if (text.front() != QLatin1Char('\n')) // "\r" and then "\n" is a line end, kept below
            eraseOpenLine();
    }
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype nl = text.indexOf(QLatin1Char('\n'), i);
        QStringView line = text.mid(i, (nl < 0 ? text.size() : nl) - i);
        if (line.endsWith(QLatin1Char('\r'))) {
            line.chop(1);
            if (nl < 0)
                m_carriageReturnPending = true; // what comes next says whether the line restarts
        }
        // Only what follows the last carriage return is shown; text before it in this batch is
        // never inserted at all.
        // (indexOf first: it is vectorised, lastIndexOf is not, and most lines have no "\r".)
        if (const qsizetype cr = line.contains(QLatin1Char('\r')) ? line.lastIndexOf(QLatin1Char('\r')) : -1; cr >= 0) {
            eraseOpenLine();
            line = line.mid(cr + 1);
        }
        appendPiece(line, format);
        if (nl < 0)
            break;
        endLine(format);
        i = nl + 1;
    }
}

void ConsoleWriter::appendPiece(QStringView piece, const QTextCharFormat& format)
{
    if (piece.isEmpty())
        return;
    if (m_newlinePending) {
        buffer(u"\n", format);
        m_newlinePending = false;
    }
    m_lineChars += piece.size();
    const qsizetype room = m_maxLineChars - m_lineShown;
    if (room <= 0)
        return; // the line is cut: only its count grows
    qsizetype take = std::min(room, piece.size());
    if (take < piece.size() && piece.at(take - 1).isHighSurrogate())
        --take; // never half a surrogate pair
    QStringView shown = piece.left(take);
    if (std::any_of(shown.begin(), shown.end(), splitsBlock)) {
        QString clean = shown.toString();
        for (QChar& c : clean)
            if (splitsBlock(c))
                c = QChar::ReplacementCharacter;
        buffer(clean, format);
    } else {
        buffer(shown, format);
    }
    m_lineShown = take < piece.size() ? m_maxLineChars : m_lineShown + take;
}

void ConsoleWriter::endLine(const QTextCharFormat& format)
{
    if (m_lineChars > m_maxLineChars)
        updateMarker(true);
    if (m_newlinePending)
        buffer(u"\n", format); // the line before was empty
    m_newlinePending = true;
    resetLine();
}

void ConsoleWriter::eraseOpenLine()
{
    if (!m_newlinePending) {
        flushBuffer();
        const QTextBlock last = m_document->lastBlock();
        QTextCursor c(m_document);
        c.setPosition(endPosition());
        if (last.blockNumber() > 0) {
            // Take the newline before it too: the line before is the last one again.
            c.setPosition(last.position() - 1, QTextCursor::KeepAnchor);
            m_newlinePending = true;
        } else {
            c.setPosition(0, QTextCursor::KeepAnchor);
        }
        c.removeSelectedText();
    }
    resetLine();
}

void ConsoleWriter::updateMarker(bool now)
{
    if (m_markerCount == m_lineChars)
        return;
    if (m_markerChars > 0 && !now && m_markerAge.elapsed() < kMarkerIntervalMs)
        return;
    m_markerAge.start();
    flushBuffer();
    if (m_markerChars == 0)
        ++m_linesCut;
    const QString marker = QLatin1Char(' ') + TextPreview::lineCutMarker(m_lineChars);
    QTextCursor c(m_document);
    c.setPosition(endPosition());
    if (m_markerChars > 0)
        c.setPosition(c.position() - m_markerChars, QTextCursor::KeepAnchor);
    c.insertText(marker, m_markerFormat);
    m_markerChars = marker.size();
    m_markerCount = m_lineChars;
}

void ConsoleWriter::buffer(QStringView text, const QTextCharFormat& format)
{
    if (!m_buffer.isEmpty() && format != m_bufferFormat)
        flushBuffer();
    if (m_buffer.isEmpty())
        m_bufferFormat = format;
    m_buffer += text;
}

void ConsoleWriter::flushBuffer()
{
    if (m_buffer.isEmpty())
        return;
    m_cursor.setPosition(endPosition());
    m_cursor.insertText(m_buffer, m_bufferFormat);
    m_buffer.clear();
}

} // namespace sandpad
