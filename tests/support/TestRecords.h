#pragma once

#include "accounting/UsageEntry.h"
#include "notebook/RunRecord.h"

namespace sandpad {

// Records of a finished ad-hoc run of the local Python provider, with the fields each suite does
// not care about at fixed values; a test sets the rest.
// A usage row: id, time, title, status, cost and reason as given.
UsageEntry usageEntry(const QString& runId, const QDateTime& time, const QString& title, const QString& status,
                      qint64 costMicros, const QString& reason = {});
// A run of 1234 ms that cost $0.05.
RunRecord runRecord(const QString& runId, const QString& title, const QString& status);

} // namespace sandpad
