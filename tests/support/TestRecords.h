#pragma once

#include "core/accounting/UsageEntry.h"
#include "core/run/ExecutionResult.h"
#include "core/run/Run.h"

namespace sandpad {

// Records of a finished ad-hoc run of the local Python provider, with the fields each suite does
// not care about at fixed values; a test sets the rest.
// A usage row: id, time, title, status, cost and reason as given.
UsageEntry usageEntry(const QString& runId, const QDateTime& time, const QString& title, const QString& status,
                      qint64 costMicros, const QString& reason = {});
// A finished run of 1234 ms that cost $0.05; status a runStatusName().
ExecutionResult runResult(const QString& runId, const QString& title, const QString& status);
// A run that has not finished (no parent: the notebook entry showing it adopts it); a test
// feeds its entry and ends it with deliverResult().
Run* runningRun(const QString& title, const QString& code = {}, const QString& runId = QStringLiteral("run-1"));
// A workspace at dataDir whose history holds `runs` finished runs (the newest last): small ones,
// or hostile ones (each printed a 10 MB line, kept as the Executor keeps it, the first 4 MiB and
// a notice; 1 MB on stderr; a 2 MB result). False, with *error set, when it cannot be written.
bool fillHistory(const QString& dataDir, int runs, bool hostile, QString* error = nullptr);

} // namespace sandpad
