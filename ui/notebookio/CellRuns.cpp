#include "ui/notebookio/CellRuns.h"

#include "core/run/Run.h"
#include "ui/console/RunController.h"

#include <QPointer>

namespace sandpad {

namespace {

QString codeKey(QString code)
{
    code.remove(QLatin1Char('\r'));
    qsizetype end = code.size();
    while (end > 0 && code.at(end - 1).isSpace())
        --end;
    code.truncate(end);
    return code;
}

} // namespace

CellRuns::CellRuns(QObject* parent) : QObject(parent) {}

void CellRuns::follow(RunController* runs)
{
    connect(runs, &RunController::runStarted, this, [this](Run* run) {
        connect(run, &Run::finished, this, [this, run](const ExecutionResult& result) {
            QObject* tab = run->origin().source.data();
            if (!tab)
                return;
            ExecutionResult r = result;
            if (r.code.isEmpty()) // refused before it ran: the origin still has the code
                r.code = run->origin().code;
            record(tab, r, run->origin().firstLine);
        });
    });
}

void CellRuns::record(QObject* tab, const ExecutionResult& result, int firstLine)
{
    if (!tab)
        return;
    if (!m_runs.contains(tab))
        connect(tab, &QObject::destroyed, this, [this, tab] { m_runs.remove(tab); });
    QList<Entry>& entries = m_runs[tab];
    const QString code = codeKey(result.code);
    // One entry per code and place: the newer run replaces the older.
    entries.removeIf([&](const Entry& e) { return e.code == code && e.firstLine == firstLine; });
    entries.append(Entry{code, firstLine, result});
}

std::optional<ExecutionResult> CellRuns::lastRun(QObject* tab, const QString& code, int line) const
{
    const auto it = m_runs.constFind(tab);
    if (it == m_runs.constEnd())
        return std::nullopt;
    const QString key = codeKey(code);
    const Entry* best = nullptr;
    for (const Entry& e : *it) // newest last: a later entry at the same distance wins
        if (e.code == key && (!best || std::abs(e.firstLine - line) <= std::abs(best->firstLine - line)))
            best = &e;
    if (!best)
        return std::nullopt;
    return best->result;
}

} // namespace sandpad
