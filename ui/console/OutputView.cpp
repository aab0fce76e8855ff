#include "ui/console/OutputView.h"

#include <QEvent>
#include <QResizeEvent>
#include <QStyle>
#include <QFontDatabase>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>

namespace sandpad {

OutputView::OutputView(QWidget* parent) : QPlainTextEdit(parent), m_writer(document(), kMaxLineChars)
{
    setAccessibleName(tr("Run output"));
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setMaximumBlockCount(kMaxViewLines);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    document()->setDocumentMargin(4);
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(font);
    updateFormats();
    m_timer.setInterval(kFlushIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &OutputView::flush);
    updateHeight();
    hide(); // shown with the first output
}

namespace {
// Which kind of text a fragment is, kept in its format so that a theme change can recolour the
// text already shown (stdout has no colour of its own: it follows the palette by itself).
constexpr int kKindProperty = QTextFormat::UserProperty + 1;
enum Kind { StderrText = 1, MarkerText = 2 };
} // namespace

void OutputView::updateFormats()
{
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    m_stdoutFormat = QTextCharFormat();
    m_stderrFormat = QTextCharFormat();
    m_stderrFormat.setProperty(kKindProperty, int(StderrText));
    m_stderrFormat.setForeground(dark ? QColor("#ff8a80") : QColor("#b3261e"));
    m_stderrFormat.setBackground(dark ? QColor(90, 30, 30, 110) : QColor("#fdecea"));
    QTextCharFormat marker;
    marker.setProperty(kKindProperty, int(MarkerText));
    marker.setFontItalic(true);
    marker.setForeground(palette().color(QPalette::PlaceholderText));
    m_writer.setMarkerFormat(marker);
    recolour(marker);
}

void OutputView::recolour(const QTextCharFormat& marker)
{
    // The shown text is bounded (kMaxViewChars), so walking its fragments is cheap. Ranges
    // first: changing a format merges and splits the fragments being walked.
    struct Range { int start, end, kind; };
    QList<Range> ranges;
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const int kind = fragment.charFormat().property(kKindProperty).toInt();
            if (kind == StderrText || kind == MarkerText)
                ranges.append({fragment.position(), fragment.position() + fragment.length(), kind});
        }
    }
    if (ranges.isEmpty())
        return;
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    for (const Range& r : ranges) {
        cursor.setPosition(r.start);
        cursor.setPosition(r.end, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(r.kind == StderrText ? m_stderrFormat : marker);
    }
    cursor.endEditBlock();
}

void OutputView::changeEvent(QEvent* event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateFormats();
}

void OutputView::append(OutputStream stream, const QString& text)
{
    if (text.isEmpty())
        return;
    if (!m_fullCut) {
        if (m_full.size() + text.size() > kMaxKeptChars)
            m_fullCut = true;
        else
            m_full += text;
    }
    queue(stream, text);
}

void OutputView::appendShownOnly(OutputStream stream, const QString& text)
{
    if (!text.isEmpty())
        queue(stream, text);
}

void OutputView::queue(OutputStream stream, const QString& text)
{
    m_totalLines += text.count(QLatin1Char('\n'));
    if (!m_pending.isEmpty() && m_pending.last().stream == stream)
        m_pending.last().text += text;
    else
        m_pending.append({stream, text});
    m_pendingChars += text.size();
    if (!m_timer.isActive()) {
        // The first output after a quiet spell is shown at once (within a frame); while output
        // keeps coming, the timer batches it so a flood costs one insert per interval.
        m_timer.start();
        QMetaObject::invokeMethod(this, &OutputView::flush, Qt::QueuedConnection);
    }
}

void OutputView::flush()
{
    flushBatch(false);
}

void OutputView::finishOutput()
{
    flushBatch(true);
}

void OutputView::flushBatch(bool final)
{
    if (m_pending.isEmpty() && !final) {
        m_timer.stop();
        return;
    }
    // Only the last kMaxViewLines lines (about kMaxViewChars characters of them, long lines
    // counted as cut) can stay in the document: skip older pending text here instead of
    // inserting it and letting the document throw it away (bounded work per flush).
    qsizetype firstKept = 0, cutAt = 0;
    bool cut = false;
    int newlines = 0;
    qint64 shownChars = 0, lineChars = 0;
    for (qsizetype i = m_pending.size() - 1; i >= 0 && !cut; --i) {
        const QString& t = m_pending[i].text;
        qsizetype pos = t.size();
        if (!t.contains(QLatin1Char('\n'))) { // vectorised; the backward search below is not
            lineChars += pos;
            continue;
        }
        while (pos > 0) {
            const qsizetype nl = t.lastIndexOf(QLatin1Char('\n'), pos - 1);
            if (nl < 0) {
                lineChars += pos;
                break;
            }
            lineChars += pos - nl - 1; // the line after this newline is complete now
            shownChars += std::min<qint64>(lineChars, kMaxLineChars + 100) + 1;
            lineChars = 0;
            const bool finalNewline = i == m_pending.size() - 1 && nl == t.size() - 1;
            if (!finalNewline && (++newlines >= kMaxViewLines || shownChars > kMaxViewChars)) {
                firstKept = i;
                cutAt = nl + 1;
                cut = true;
                break;
            }
            pos = nl;
        }
    }

    QScrollBar* bar = verticalScrollBar();
    const bool atBottom = bar->value() >= bar->maximum() - 2;
    if (cut) {
        document()->clear(); // everything shown is older than what is kept
        m_writer.reset();
        m_linesDropped = true;
    }
    m_writer.begin();
    for (qsizetype i = firstKept; i < m_pending.size(); ++i) {
        const QStringView text = i == firstKept ? QStringView(m_pending[i].text).mid(cutAt)
                                                : QStringView(m_pending[i].text);
        m_writer.write(text, m_pending[i].stream == OutputStream::Stderr ? m_stderrFormat : m_stdoutFormat);
    }
    m_writer.end(final);
    m_pending.clear();
    m_pendingChars = 0;
    m_timer.stop();
    dropTopToBudget();

    m_linesDropped = m_linesDropped || m_totalLines > kMaxViewLines;
    const bool truncatedNow = m_linesDropped || m_writer.linesCut() > 0;
    // Also when only what is cut changed, so that the entry's notice names it.
    if (truncatedNow != m_truncated || m_writer.linesCut() != m_notifiedLinesCut
        || m_linesDropped != m_notifiedDropped) {
        m_truncated = truncatedNow;
        m_notifiedLinesCut = m_writer.linesCut();
        m_notifiedDropped = m_linesDropped;
        emit truncatedChanged(m_truncated);
    }
    if (isHidden() && !document()->isEmpty())
        show();
    updateHeight();
    if (atBottom)
        bar->setValue(bar->maximum());
    emit flushed();
}

void OutputView::dropTopToBudget()
{
    // Lines that each fit can still add up (2,000 lines of 10,000 characters): drop whole
    // blocks from the top until the document is within its budget again (never the last one,
    // the line being written).
    const qsizetype excess = document()->characterCount() - kMaxViewChars;
    if (excess <= 0)
        return;
    QTextBlock block = document()->firstBlock();
    qsizetype dropped = 0;
    while (block.isValid() && block != document()->lastBlock() && dropped < excess) {
        dropped += block.length();
        block = block.next();
    }
    if (dropped == 0)
        return;
    QTextCursor c(document());
    c.beginEditBlock(); // (outside one, setPosition lays the block out)
    c.setPosition(0);
    c.setPosition(block.position(), QTextCursor::KeepAnchor);
    c.removeSelectedText();
    c.endEditBlock();
    m_linesDropped = true;
}

int OutputView::visibleRows() const
{
    // Rows, not blocks: a cut line of 2,000 characters wraps to many. Counted from the block
    // lengths (a fixed-width font) rather than a layout, which the tail of a long block would
    // need; only as many blocks as can fill kMaxVisibleLines rows are looked at.
    // The width is taken as if the view's own scroll bar were shown, whether it is or not:
    // counted with the bar's state, rows that come out one short would show the bar, which
    // narrows the view, which changes the count... (a loop of resizes, each laying out again).
    const int advance = std::max(1, fontMetrics().horizontalAdvance(QLatin1Char('m')));
    const int bar = verticalScrollBar()->isVisible() ? 0 : style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    const int width = viewport()->width() - bar - 2 * int(document()->documentMargin());
    const int perRow = std::max(1, width / advance);
    int rows = 0;
    for (QTextBlock b = document()->lastBlock(); b.isValid() && rows < kMaxVisibleLines; b = b.previous()) {
        const int chars = b.length() - 1;
        // Words wrap before the last column: a wrapped line gets a row to spare.
        rows += chars <= perRow ? 1 : (chars + perRow - 1) / perRow + 1;
    }
    return std::clamp(rows, 1, kMaxVisibleLines);
}

void OutputView::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    if (event->oldSize().width() != event->size().width())
        updateHeight(); // the width decides how many rows the lines wrap to
}

void OutputView::updateHeight()
{
    const int lines = visibleRows();
    const int h = lines * fontMetrics().lineSpacing() + 2 * int(document()->documentMargin()) + 4
                  + (horizontalScrollBar()->isVisible() ? horizontalScrollBar()->height() : 0);
    if (height() != h)
        setFixedHeight(h);
}

QSize OutputView::sizeHint() const
{
    return {QPlainTextEdit::sizeHint().width(), height()};
}

} // namespace sandpad
