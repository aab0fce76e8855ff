#include "console/OutputView.h"

#include <QEvent>
#include <QFontDatabase>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>

namespace sandpad {

OutputView::OutputView(QWidget* parent) : QPlainTextEdit(parent)
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

void OutputView::updateFormats()
{
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    m_stdoutFormat = QTextCharFormat();
    m_stdoutFormat.setForeground(palette().color(QPalette::Text));
    m_stderrFormat = QTextCharFormat();
    m_stderrFormat.setForeground(dark ? QColor("#ff8a80") : QColor("#b3261e"));
    m_stderrFormat.setBackground(dark ? QColor(90, 30, 30, 110) : QColor("#fdecea"));
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
    if (m_pending.isEmpty()) {
        m_timer.stop();
        return;
    }
    // Only the last kMaxViewLines lines can stay in the document: skip older pending text here
    // instead of inserting it and letting the document throw it away (bounded work per flush).
    qsizetype firstKept = 0, cutAt = 0;
    bool cut = false;
    int newlines = 0;
    for (qsizetype i = m_pending.size() - 1; i >= 0 && !cut; --i) {
        const QString& t = m_pending[i].text;
        qsizetype pos = t.size();
        while (pos > 0) {
            const qsizetype nl = t.lastIndexOf(QLatin1Char('\n'), pos - 1);
            if (nl < 0)
                break;
            const bool finalNewline = i == m_pending.size() - 1 && nl == t.size() - 1;
            if (!finalNewline && ++newlines >= kMaxViewLines) {
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
        m_endsWithNewline = false;
    }
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    cursor.beginEditBlock();
    for (qsizetype i = firstKept; i < m_pending.size(); ++i) {
        QString text = i == firstKept ? m_pending[i].text.mid(cutAt) : m_pending[i].text;
        if (text.isEmpty())
            continue;
        // A trailing newline is held back so that the document never ends with an empty line.
        if (m_endsWithNewline)
            text.prepend(QLatin1Char('\n'));
        m_endsWithNewline = text.endsWith(QLatin1Char('\n'));
        if (m_endsWithNewline)
            text.chop(1);
        cursor.insertText(text, m_pending[i].stream == OutputStream::Stderr ? m_stderrFormat
                                                                            : m_stdoutFormat);
    }
    cursor.endEditBlock();
    m_pending.clear();
    m_pendingChars = 0;
    m_timer.stop();

    const bool truncatedNow = m_totalLines > kMaxViewLines;
    if (truncatedNow != m_truncated) {
        m_truncated = truncatedNow;
        emit truncatedChanged(m_truncated);
    }
    if (isHidden() && !document()->isEmpty())
        show();
    updateHeight();
    if (atBottom)
        bar->setValue(bar->maximum());
    emit flushed();
}

void OutputView::updateHeight()
{
    const int lines = std::clamp(document()->blockCount(), 1, kMaxVisibleLines);
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
