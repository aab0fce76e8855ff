#pragma once

#include <QElapsedTimer>
#include <QString>
#include <QTextCharFormat>
#include <QTextCursor>

class QTextDocument;

namespace sandpad {

// Writes streamed console text into a QTextDocument the way a console shows it, with work
// bounded per batch whatever the text: "\n" (and "\r\n") ends a line, a lone "\r" starts the
// line over (a progress bar shows its last state), and a line longer than maxLineChars keeps
// its first maxLineChars characters followed by a marker that counts the whole line
// (TextPreview::lineCutMarker; updated while the line grows). The document never ends with an
// empty line: a final newline is held back until more text comes. One line is one block:
// characters a document would split a block at are shown as U+FFFD.
class ConsoleWriter {
public:
    explicit ConsoleWriter(QTextDocument* document, qsizetype maxLineChars);

    void setMarkerFormat(const QTextCharFormat& format) { m_markerFormat = format; }
    qsizetype maxLineChars() const { return m_maxLineChars; }

    // A batch of write() calls between begin() and end() is one edit of the document (and must
    // be: outside an edit block a cursor lays out the block it is in).
    void begin();
    void write(QStringView text, const QTextCharFormat& format);
    // final: the output has ended, the marker of a cut open line gets its last count now.
    void end(bool final = false);
    // The document was cleared: the next text starts an empty document.
    void reset();

    qint64 linesCut() const { return m_linesCut; }

private:
    void appendPiece(QStringView piece, const QTextCharFormat& format);
    void endLine(const QTextCharFormat& format);
    void eraseOpenLine();
    // Sets the marker of the cut open line to its count. Changing the line lays it out again,
    // so while the line keeps growing that happens at most every kMarkerIntervalMs.
    void updateMarker(bool now);
    static constexpr qint64 kMarkerIntervalMs = 500;
    void buffer(QStringView text, const QTextCharFormat& format);
    void flushBuffer();
    void resetLine();
    int endPosition() const;

    QTextDocument* m_document;
    QTextCursor m_cursor;
    qsizetype m_maxLineChars;
    QTextCharFormat m_markerFormat;
    // Consecutive text of one format is inserted at once (a million short lines are a few
    // insertions, not a million).
    QString m_buffer;
    QTextCharFormat m_bufferFormat;
    bool m_newlinePending = false;        // the open line is empty and not in the document yet
    bool m_carriageReturnPending = false; // a "\r" ended the last text: "\n" or a restart follows
    qsizetype m_lineShown = 0;            // characters of the open line written (marker excluded)
    qint64 m_lineChars = 0;               // characters of the open line received
    qsizetype m_markerChars = 0;          // length of the marker ending the document (0: none)
    qint64 m_markerCount = 0;             // the count that marker shows
    QElapsedTimer m_markerAge;
    qint64 m_linesCut = 0;
};

} // namespace sandpad
