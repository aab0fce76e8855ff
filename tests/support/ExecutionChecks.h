#pragma once

#include "core/run/ExecutionResult.h"

#include <QString>
#include <QStringList>

namespace sandpad {

class Run;

// Status, reason, the start of stdout/stderr and the error with its traceback: the message of a
// failed check on a run's result.
QString describeResult(const ExecutionResult& r);

// The names of the run's artifacts, in the result's order.
QStringList artifactNames(const ExecutionResult& r);
// The artifact called `name`, or null.
const RunArtifact* findArtifact(const ExecutionResult& r, const QString& name);
// Waits (an event loop) until the run finishes and gives its result; the run is deleted later.
ExecutionResult waitForResult(Run* run);
// Waits until the run's output (stdout and stderr) contains `text` or the run ends; whether it did.
bool waitForOutput(Run* run, const QString& text);

// The sine-wave snippet (matplotlib, no explicit save) that every provider must turn into one
// PNG chart, and the check of that result (call it through SANDPAD_CHECK).
QString sineWaveCode();
void verifySineWavePng(const ExecutionResult& r);

} // namespace sandpad
