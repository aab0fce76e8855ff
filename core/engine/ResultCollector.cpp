#include "engine/ResultCollector.h"

#include "charts/ChartSpec.h"
#include "engine/ExecutionResult.h"
#include "providers/Sandbox.h"
#include "runtime/RuntimeProgram.h"
#include "runtime/WrapperResult.h"

namespace sandpad {

QString ResultCollector::collect(const RuntimeProgram& program, Sandbox& sandbox, ExecutionResult& result)
{
    const auto json = sandbox.readFile(program.resultPath);
    if (!json) {
        // No report: the program ended the wrapper (os._exit, a signal, a limit) or the
        // interpreter never ran it; the Executor tells which from the sandbox's own channel.
        return QStringLiteral("the program ended without a result");
    }
    QString problem;
    const auto parsed = WrapperResult::parse(*json, &problem);
    if (!parsed)
        return QStringLiteral("result.json: %1").arg(problem);

    result.status = parsed->success ? RunStatus::Success : RunStatus::Error;
    result.result = parsed->result;
    if (parsed->error)
        result.error = RunError{parsed->error->name, parsed->error->value, parsed->error->traceback};

    QStringList chartProblems;
    if (parsed->chartError)
        chartProblems << *parsed->chartError;
    for (const WrapperChartRef& ref : parsed->charts) {
        if (ref.kind == WrapperChartRef::Kind::Png) {
            const auto png = sandbox.readFile(program.chartPath(ref.file));
            if (!png)
                return QStringLiteral("the chart file %1 named in result.json is missing").arg(ref.file);
            if (!png->startsWith("\x89PNG\r\n\x1a\n"))
                return QStringLiteral("the chart file %1 is not a PNG").arg(ref.file);
            RunChart chart;
            chart.kind = RunChart::Kind::Png;
            chart.png = *png;
            result.charts << chart;
        } else {
            const ChartParseResult spec = ChartSpec::parse(ref.spec);
            if (!spec.ok()) {
                chartProblems << spec.error;
                continue;
            }
            RunChart chart;
            chart.kind = RunChart::Kind::Interactive;
            chart.spec = spec.spec->toJson();
            result.charts << chart;
        }
    }
    if (!chartProblems.isEmpty()) {
        const QString text = QStringLiteral("invalid chart: %1").arg(chartProblems.join(QStringLiteral("; ")));
        if (!result.error) {
            result.status = RunStatus::Error;
            result.error = RunError{QStringLiteral("ChartError"), text, QString()};
        } else {
            result.error->value += QStringLiteral(" (also: %1)").arg(text);
        }
    }
    return {};
}

} // namespace sandpad
