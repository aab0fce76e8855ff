#pragma once

#include <QString>

namespace sandpad {

class Sandbox;
struct ExecutionResult;
struct RuntimeProgram;

// Step 6 of a run: reads what the wrapper returned (result.json and chart files) back from the
// sandbox, validates it (ChartSpec for chart dictionaries, PngCheck for PNGs) and fills the
// result. A chart that does not fit the schema becomes a ChartError on the run; the text output
// is kept. What a run may return is bounded by ResultLimits, checked before each costly step.
class ResultCollector {
public:
    // Returns an empty string on success, else what is wrong, in words for the user: no result,
    // a malformed one, or one over a limit (naming the limit and the actual size). Then nothing
    // of the result is kept in `result` (its text output is, as the Executor collected it).
    static QString collect(const RuntimeProgram& program, Sandbox& sandbox, ExecutionResult& result);
};

} // namespace sandpad
