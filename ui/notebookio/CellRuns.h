#pragma once

#include "core/run/ExecutionResult.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <optional>

namespace sandpad {

class RunController;

// The last run of each cell of each tab in this app session: what File > Export writes as a
// cell's outputs. A run belongs to its tab (RunOrigin::source) and to the code it ran, so a cell
// edited since its last run has no outputs (they were another code's), and lines that moved do
// not matter; the same code at two places is told apart by the line it ran from. A Run All of a
// tab with several cells is one program, not any one cell's run: it is kept, but only a cell
// whose whole code it was (a tab of one cell) finds it.
class CellRuns : public QObject {
    Q_OBJECT
public:
    explicit CellRuns(QObject* parent = nullptr);

    // Records every run the controller starts, once it has finished.
    void follow(RunController* runs);
    void record(QObject* tab, const ExecutionResult& result, int firstLine);

    // The last finished run of `code` in the tab (nearest to `line` when that code ran from
    // several places), or nullopt.
    std::optional<ExecutionResult> lastRun(QObject* tab, const QString& code, int line) const;
    int runCount(QObject* tab) const { return int(m_runs.value(tab).size()); }

private:
    struct Entry {
        QString code;      // trailing blank lines and spaces dropped: a cell's run has them, the cell not
        int firstLine = 1;
        ExecutionResult result;
    };
    QHash<QObject*, QList<Entry>> m_runs; // newest last
};

} // namespace sandpad
