#pragma once

#include "providers/Sandbox.h"

#include <QPlainTextEdit>
#include <QTextCharFormat>
#include <QTimer>

namespace sandpad {

// A run's live stdout/stderr. Text arrives in batches and is put into the document on a timer
// (every ~40 ms), one insertion per stream segment, never per line. The document holds at most
// kMaxViewLines lines: when more arrive only the tail is inserted and truncated() becomes true;
// the full text is kept (up to kMaxKeptBytes) for saving and copying.
class OutputView : public QPlainTextEdit {
    Q_OBJECT
public:
    static constexpr int kMaxViewLines = 2000;
    static constexpr qsizetype kMaxKeptChars = 64 << 20;
    static constexpr int kFlushIntervalMs = 16; // a frame at 60 Hz
    static constexpr int kMaxVisibleLines = 18; // taller output scrolls inside the view

    explicit OutputView(QWidget* parent = nullptr);

    void append(OutputStream stream, const QString& text);
    // Puts everything pending into the view now (also called by the timer).
    void flush();

    bool truncated() const { return m_truncated; }
    qint64 totalLines() const { return m_totalLines; }
    // Everything received, in arrival order (stdout and stderr interleaved).
    QString fullText() const { return m_full; }
    bool fullTextComplete() const { return !m_fullCut; }
    bool isEmptyOutput() const { return m_full.isEmpty() && m_pending.isEmpty(); }

    QSize sizeHint() const override;

signals:
    void truncatedChanged(bool truncated);
    void flushed();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Segment { OutputStream stream; QString text; };
    void updateFormats();
    void updateHeight();
    QList<Segment> m_pending;
    qsizetype m_pendingChars = 0;
    QString m_full;
    bool m_fullCut = false;
    bool m_truncated = false;
    qint64 m_totalLines = 0;
    bool m_endsWithNewline = false;
    QTimer m_timer;
    QTextCharFormat m_stdoutFormat, m_stderrFormat;
};

} // namespace sandpad
