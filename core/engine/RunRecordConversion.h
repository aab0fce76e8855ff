#pragma once

#include "engine/ExecutionResult.h"
#include "notebook/RunRecord.h"

namespace sandpad {

// The notebook keeps finished runs as plain RunRecords (core/notebook has no engine types).
RunRecord toRunRecord(const ExecutionResult& result, const QDateTime& startedAt = {});
ExecutionResult fromRunRecord(const RunRecord& record);

} // namespace sandpad
