#pragma once

#include "core/sandbox/Sandbox.h"
#include "ui/console/ConsoleWriter.h"

#include <QPlainTextEdit>
#include <QTextCharFormat>
#include <QTimer>

namespace sandpad {

// A run's live stdout/stderr. Text arrives in batches and is put into the document on a timer
// (every frame while output keeps coming) by a ConsoleWriter: a few insertions per batch, never
// one per line. What the document holds is bounded whatever the program prints, so that no
// output can keep the event loop busy: the last kMaxViewLines lines and about kMaxViewChars
// characters (older text is skipped before it is inserted, or dropped from the top), each line
// cut to kMaxLineChars with a marker, "\r" starting a line over. truncated() says that
// something is not shown; the full text is kept (up to kMaxKeptChars) for saving and copying.
class OutputView : public QPlainTextEdit {
    Q_OBJECT
public:
    static constexpr int kMaxViewLines = 2000;
    // Laying out a wrapped line of 10,000 characters takes ~12 ms here; a line taller than the
    // view (18 rows: ~2,000 characters at 1000 px) costs several times more than one that
    // fits, at every resize of every entry of a reloaded notebook.
    static constexpr qsizetype kMaxLineChars = 1000;
    static constexpr qsizetype kMaxViewChars = 512 * 1024;
    static constexpr qsizetype kMaxKeptChars = 64 << 20;
    static constexpr int kFlushIntervalMs = 16; // a frame at 60 Hz
    static constexpr int kMaxVisibleLines = 18; // taller output scrolls inside the view

    explicit OutputView(QWidget* parent = nullptr);

    void append(OutputStream stream, const QString& text);
    // Shows text that is kept elsewhere (a finished run's record): not copied into fullText().
    void appendShownOnly(OutputStream stream, const QString& text);
    // Puts everything pending into the view now (also called by the timer).
    void flush();
    // The output has ended: flush, and a cut last line's marker shows its final count.
    void finishOutput();

    // Something received is not in the view: lines dropped or cut.
    bool truncated() const { return m_truncated; }
    bool linesDropped() const { return m_linesDropped; }
    qint64 linesCut() const { return m_writer.linesCut(); }
    qint64 totalLines() const { return m_totalLines; }
    // Everything received, in arrival order (stdout and stderr interleaved).
    QString fullText() const { return m_full; }
    bool fullTextComplete() const { return !m_fullCut; }
    bool isEmptyOutput() const { return m_full.isEmpty() && m_pending.isEmpty() && document()->isEmpty(); }

    QSize sizeHint() const override;

signals:
    void truncatedChanged(bool truncated);
    void flushed();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Segment { OutputStream stream; QString text; };
    void queue(OutputStream stream, const QString& text);
    void updateFormats();
    void recolour(const QTextCharFormat& marker); // the text already shown, after a theme change
    void updateHeight();
    int visibleRows() const;
    void dropTopToBudget();
    void flushBatch(bool final);
    QList<Segment> m_pending;
    qsizetype m_pendingChars = 0;
    QString m_full;
    bool m_fullCut = false;
    bool m_truncated = false;
    bool m_linesDropped = false;
    bool m_notifiedDropped = false;
    qint64 m_notifiedLinesCut = 0;
    qint64 m_totalLines = 0;
    ConsoleWriter m_writer;
    QTimer m_timer;
    QTextCharFormat m_stdoutFormat, m_stderrFormat;
};

} // namespace sandpad
