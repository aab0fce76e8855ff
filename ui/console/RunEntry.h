#pragma once

#include "core/notebook/RunPreview.h"
#include "core/run/Run.h"
#include "core/sandbox/Sandbox.h"

#include <QFrame>
#include <QPointer>
#include <functional>
#include <optional>

class QLabel;
class QPlainTextEdit;
class QToolButton;
class QHBoxLayout;
class QTimer;

namespace sandpad {

class ArtifactList;
class CutNotice;
class OutputView;
class OutputsPanel;
class SummaryLabel;

// One run in the notebook: a header (number, title, language, provider, status, duration, cost),
// the code that ran (collapsed by default), live stdout/stderr, the result, the error with a
// clickable traceback, and chart thumbnails. Every text is shown bounded (OutputView for the
// output, RunPreview for the rest: long lines cut with a marker, a notice with Copy and Save
// buttons when something is not shown); the whole texts stay for copying and saving. An entry
// made from a preview (the history's reload) holds only the bounded texts and reads the whole
// ones back from its WholeRunSource when they are asked for.
//
// The entry holds no copy of the run: it observes its Run (output, then the one finished
// signal) and owns it once it is finished (the Executor owns a run in flight).
class RunEntry : public QFrame {
    Q_OBJECT
public:
    enum class Part { Output, Result, Error };
    // The whole result of a run, by run id (RunHistory::find); nullopt when it cannot be had.
    using WholeRunSource = std::function<std::optional<ExecutionResult>(const QString& runId)>;

    // Shows run: live while it runs, its result once finished. preview: the run is a preview
    // from the history, these parts of it cut.
    RunEntry(int number, Run* run, std::optional<RunPreviewCuts> preview = {}, QWidget* parent = nullptr);

    int number() const { return m_number; }
    QString runId() const;
    bool isRunning() const { return m_running; }
    Run* run() const { return m_run; }
    QString title() const; // as the header names it (before " · revision ...")

    // Live output (the Run's output signal; tests feed it directly).
    void appendOutput(OutputStream stream, const QString& text);

    OutputView* outputView() const { return m_output; }
    OutputsPanel* outputsPanel() const { return m_outputs; }
    QString headerText() const;          // plain text of the header, e.g. for tests
    QString statusText() const; // "running", then runStatusName()
    QString costText() const;            // "$0.05"
    qint64 elapsedMs() const;            // so far while running (the header ticks), then the duration
    // The run's texts (excerpts for an entry made from a preview: see wholeText).
    QString resultText() const;
    QString errorText() const;
    // What the result and error widgets show (bounded).
    QString shownResultText() const;
    QString shownErrorText() const;
    bool outputTruncated() const;
    bool isCut(Part part) const; // some of the part is not shown
    // Everything the run printed (stdout and stderr as they arrived); empty when it cannot be
    // had (see wholeText).
    QString fullOutput() const;
    // The whole text of a part, read back from the history for a preview entry. False with
    // *error set when it cannot be had (the history is gone): never a silent excerpt.
    bool wholeText(Part part, QString* text, QString* error = nullptr) const;
    void setWholeRunSource(WholeRunSource source) { m_wholeSource = std::move(source); }
    // Copies the whole text of a part to the clipboard; false (and nothing copied) on error.
    bool copyWholeText(Part part, QString* error = nullptr);

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
    void saveTextRequested(sandpad::RunEntry* entry, sandpad::RunEntry::Part part);
    void copyFailed(const QString& error);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // The run ended. When nothing was streamed (a run loaded from history, or a run refused
    // before it started) the result's stdout/stderr are shown instead.
    void showFinished();
    const ExecutionResult& result() const;
    void updateHeader();
    void updateStyle();
    void updateOutputNotice();
    void showCharts();
    void showResult();
    void showError();
    // A part of the run as shown: bounded by RunPreview unless the run is a preview.
    QString shown(RunPreview::Part part, const QString& text, bool* cut) const;
    QString tracebackHtml(const QString& traceback) const;
    static QString wholeLinks(Part part);
    static QString whatIsCut(const QString& shownText); // ": long lines cut, lines left out"

    int m_number;
    QPointer<Run> m_run;
    std::optional<RunPreviewCuts> m_preview;
    QString m_code; // what the code block shows
    bool m_running = true;
    bool m_selected = false;
    bool m_styling = false;
    qint64 m_elapsedStart = 0;
    QTimer* m_tick = nullptr; // while running: the header's elapsed time
    SummaryLabel* m_header; // wraps between its items, never at a lone "·"
    QToolButton* m_codeToggle;
    QPlainTextEdit* m_codeBlock;
    OutputView* m_output;
    CutNotice* m_truncation;
    QPlainTextEdit* m_result;
    CutNotice* m_resultNotice;
    QLabel* m_error;
    bool m_resultCut = false, m_errorCut = false;
    WholeRunSource m_wholeSource;
    QWidget* m_chartsRow;
    QHBoxLayout* m_chartsLayout;
    ArtifactList* m_artifacts; // the files the run left
    OutputsPanel* m_outputs; // display() and rich results (ui/outputs)
};

} // namespace sandpad
