#pragma once

#include "engine/ExecutionResult.h"
#include "notebook/RunRecord.h"

#include <QDateTime>

namespace sandpad {

// The notebook's plain record of a finished run (what RunHistory stores and RunEntry shows).
RunRecord toRunRecord(const ExecutionResult& result, const QDateTime& startedAt);

} // namespace sandpad
