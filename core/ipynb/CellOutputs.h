#pragma once

#include "core/run/ExecutionResult.h"

#include <QJsonArray>

namespace sandpad {

// A run's result as a code cell's nbformat outputs, the one place where Sandpad's kinds of
// output become Jupyter's: stdout and stderr as `stream`, each chart as `display_data` (its PNG;
// an interactive chart without one as a text note), the result as `execute_result` text/plain,
// the error as an `error` output (ename, evalue, traceback); a run that timed out, was cancelled
// or failed in its sandbox gets a stderr note that says so. New kinds of output (tables, math,
// images: ExecutionResult::outputs) are to be added here, in fromResult.
class CellOutputs {
public:
    static QJsonArray fromResult(const ExecutionResult& result);

    static QJsonObject stream(const QString& name, const QString& text);
    static QJsonObject displayPng(const QByteArray& png, const QString& textNote);
};

} // namespace sandpad
