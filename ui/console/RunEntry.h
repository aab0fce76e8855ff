#pragma once

#include "notebook/RunRecord.h"
#include "providers/Sandbox.h"

#include <QFrame>

class QLabel;
class QPlainTextEdit;
class QToolButton;
class QHBoxLayout;

namespace sandpad {

class OutputView;

// One run in the notebook: a header (number, title, language, provider, status, duration, cost),
// the code that ran (collapsed by default), live stdout/stderr, the result, the error with a
// clickable traceback, and chart thumbnails.
class RunEntry : public QFrame {
    Q_OBJECT
public:
    // A run that is starting: output arrives through appendOutput(), then finish().
    RunEntry(int number, const QString& title, const QString& language, const QString& provider,
             const QString& code, QWidget* parent = nullptr);

    int number() const { return m_number; }
    QString runId() const { return m_record.runId; }
    bool isRunning() const { return m_running; }
    const RunRecord& record() const { return m_record; }

    void appendOutput(OutputStream stream, const QString& text);
    // The run ended. When nothing was streamed (a run loaded from history, or a run refused before
    // it started) the record's stdout/stderr are shown instead.
    void finish(const RunRecord& record);

    OutputView* outputView() const { return m_output; }
    QString headerText() const;          // plain text of the header, e.g. for tests
    QString statusText() const { return m_record.status; }
    QString costText() const;            // "$0.05"
    QString resultText() const;
    QString errorText() const;
    bool outputTruncated() const;
    // Everything the run printed (stdout and stderr as they arrived).
    QString fullOutput() const;

    void setSelected(bool selected);
    bool isSelected() const { return m_selected; }
    void setCodeVisible(bool visible);
    // Emits tracebackLineActivated for a traceback link ("line:N").
    void activateLink(const QString& link);

    static QString formatCost(qint64 micros);
    static QString formatDuration(qint64 ms);

signals:
    void selected(sandpad::RunEntry* entry);
    void tracebackLineActivated(int line);
    void chartActivated(const QString& runId, int index);
    void saveOutputRequested(sandpad::RunEntry* entry);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void updateHeader();
    void updateStyle();
    void showCharts();
    QString tracebackHtml(const QString& traceback) const;

    int m_number;
    RunRecord m_record;
    bool m_running = true;
    bool m_selected = false;
    qint64 m_elapsedStart = 0;
    QLabel* m_header;
    QToolButton* m_codeToggle;
    QPlainTextEdit* m_code;
    OutputView* m_output;
    QLabel* m_truncation;
    QPlainTextEdit* m_result;
    QLabel* m_error;
    QWidget* m_chartsRow;
    QHBoxLayout* m_chartsLayout;
};

} // namespace sandpad
