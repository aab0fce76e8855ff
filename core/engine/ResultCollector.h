#pragma once

#include <QString>

namespace sandpad {

class Sandbox;
struct ExecutionResult;
struct RuntimeProgram;

// Step 6 of a run: reads what the wrapper returned (result.json and chart files) back from the
// sandbox, validates it (ChartSpec for chart dictionaries) and fills the result. A chart that
// does not fit the schema becomes a ChartError on the run; the text output is kept.
class ResultCollector {
public:
    // Returns an empty string on success, else what is wrong with the output (an
    // infrastructure failure: the wrapper did not report properly).
    static QString collect(const RuntimeProgram& program, Sandbox& sandbox, ExecutionResult& result);
};

} // namespace sandpad
