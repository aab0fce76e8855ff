#pragma once

#include "core/sandbox/Sandbox.h"
#include "ui/console/RunEntry.h"

#include <QPointer>
#include <QWidget>
#include <functional>
#include <optional>

class QLineEdit;
class QScrollArea;
class QVBoxLayout;
class QLabel;

namespace sandpad {

class Run;
class ScrollFollower;

// The output console: one RunEntry per run, newest at the bottom, with find, copy, save and clear.
class RunNotebook : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxEntries = 200; // older entries leave the view (they stay in history)

    explicit RunNotebook(QWidget* parent = nullptr);

    // A run that is starting: its entry follows it (selected, scrolled to while it streams).
    RunEntry* addRunning(Run* run);
    // A finished run (e.g. from the history: a preview, cut as `preview` says, reads its whole
    // texts back from the source given to setWholeRunSource). The entry owns the run.
    RunEntry* addFinished(Run* run, std::optional<RunPreviewCuts> preview = {});
    void setWholeRunSource(RunEntry::WholeRunSource source);

    QList<RunEntry*> entries() const;
    RunEntry* entry(const QString& runId) const;
    RunEntry* selectedEntry() const { return m_selected; }
    void select(RunEntry* entry);
    int nextNumber() const { return m_nextNumber; }

    // Finds text in the outputs, starting after the last match; returns whether found. Every
    // match is highlighted and the find bar says "3 of 12" or "Not found" (findStatusText).
    bool findNext(const QString& text);
    QString findStatusText() const;
    // The selection in the selected entry's output, else its whole output; false (nothing
    // copied, the reason in *error) when the whole output cannot be had.
    bool copySelectedOutput(QString* error = nullptr);
    // Writes the entry's whole output (or result, or error) to path (no dialog).
    bool saveOutput(RunEntry* entry, const QString& path, QString* error = nullptr);
    bool saveText(RunEntry* entry, RunEntry::Part part, const QString& path, QString* error = nullptr);
    void saveOutputWithDialog(RunEntry* entry);
    void saveTextWithDialog(RunEntry* entry, RunEntry::Part part);
    void clear();
    void focusFind();
    // The current tab's run mode in the header ("Session: 3 executions", "Fresh sandbox per run").
    void setModeText(const QString& text);
    QString modeText() const;
    // Scrolls to the newest entry once the layout has settled (and follows it from then on).
    void showLatest();
    // Whether the view follows the newest entry as it grows (false once the user scrolled away).
    bool isFollowing() const;

signals:
    void tracebackLineActivated(sandpad::RunEntry* entry, int line);
    void chartActivated(const QString& runId, int index);
    void entrySelected(const QString& runId);
    void clearRequested();

private:
    RunEntry* insert(RunEntry* entry);
    void scrollToBottomSoon();
    void highlightMatches(const QString& text); // sets m_findTotal

    QScrollArea* m_scroll;
    ScrollFollower* m_follower = nullptr;
    QWidget* m_container;
    QVBoxLayout* m_list;
    QLineEdit* m_find;
    QLabel* m_findStatus = nullptr;
    QLabel* m_mode = nullptr;
    int m_findTotal = 0;
    QLabel* m_empty;
    QPointer<RunEntry> m_selected;
    RunEntry::WholeRunSource m_wholeSource;
    int m_nextNumber = 1;
    int m_findEntry = -1;
};

} // namespace sandpad
