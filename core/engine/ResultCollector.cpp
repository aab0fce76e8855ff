#include "core/engine/ResultCollector.h"

#include "core/charts/ChartColumns.h"
#include "core/charts/ChartSpec.h"
#include "core/engine/ArtifactCollector.h"
#include "core/charts/PngCheck.h"
#include "core/engine/OutputCollector.h"
#include "core/run/ExecutionResult.h"
#include "core/runtime/ResultLimits.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/runtime/WrapperResult.h"
#include "core/sandbox/Sandbox.h"

#include <QJsonArray>
#include <algorithm>
#include <cmath>

namespace sandpad {

namespace {

QString tooLarge(const QString& what)
{
    return QStringLiteral("The result is too large: ") + what;
}

} // namespace

QString ResultCollector::collect(const RuntimeProgram& program, Sandbox& sandbox, ExecutionResult& result)
{
    using L = ResultLimits;
    std::optional<WrapperResult> parsed;
    {
        const auto json = sandbox.readFile(program.resultPath);
        if (!json) {
            // No report: the program ended the wrapper (os._exit, a signal, a limit) or the
            // interpreter never ran it; the Executor tells which from the sandbox's own channel,
            // and how it ended.
            return QStringLiteral("the program ended without a result");
        }
        QString problem;
        parsed = WrapperResult::parse(*json, &problem);
        if (!parsed)
            return problem;
    }

    // The run's totals first, before any chart is parsed or decoded.
    qint64 values = 0, elements = 0;
    for (const WrapperChartRef& ref : std::as_const(parsed->charts)) {
        if (ref.kind == WrapperChartRef::Kind::Interactive) {
            values += ChartSpec::valueCount(ref.spec);
            elements += ChartSpec::elementCount(ref.spec);
        }
    }
    if (elements > L::chartElementsPerRun)
        return tooLarge(QStringLiteral("the charts have %1 elements (bars, slices, boxes, series); the limit is %2 per run")
                            .arg(L::countText(elements), L::countText(L::chartElementsPerRun)));
    if (values > L::chartValuesPerRun)
        return tooLarge(QStringLiteral("the charts have %1 values; the limit is %2 per run")
                            .arg(L::countText(values), L::countText(L::chartValuesPerRun)));

    // The charts' binary columns (docs/runtime-protocol.md, "Binary columns"): one file, read
    // back only when a chart refers to it and its declared size fits the limit. A columns file
    // that is missing, too large or not its declared size spoils the charts that use it (each a
    // ChartError naming why), never the rest of the run.
    std::optional<ChartColumns> columns;
    QString columnsProblem;
    if (std::any_of(parsed->charts.cbegin(), parsed->charts.cend(),
                    [](const WrapperChartRef& ref) { return ChartColumns::isReferencedBy(ref.spec); })) {
        const QJsonObject declared = parsed->chartColumns.toObject();
        const double size = declared.value(QStringLiteral("size")).toDouble(-1);
        if (declared.value(QStringLiteral("file")).toString() != u"chart-columns" || size < 0 || size != std::floor(size))
            columnsProblem = QStringLiteral("result.json names no chart-columns file of a whole number of bytes");
        else if (size > double(L::chartColumnBytes))
            columnsProblem = QStringLiteral("the chart columns are %1 bytes; the limit is %2 bytes per run")
                                 .arg(L::countText(qint64(std::min(size, 9e18))), L::countText(L::chartColumnBytes));
        else if (auto bytes = sandbox.readFile(program.chartPath(QStringLiteral("chart-columns"))); !bytes)
            columnsProblem = QStringLiteral("the chart-columns file named in result.json is missing");
        else if (bytes->size() != qint64(size))
            columnsProblem = QStringLiteral("the chart-columns file has %1 bytes, not the %2 result.json declares")
                                 .arg(L::countText(bytes->size()), L::countText(qint64(size)));
        else
            columns = ChartColumns(std::move(*bytes));
    }
    const ChartColumns* columnsOrNull = columns ? &*columns : nullptr;

    // Nothing goes into `result` until every check has passed: a refused result is not half kept.
    // Charts extracted from figures share what is left of the run's budget; one that does not
    // fit (or does not validate) is dropped and its figure stays a PNG only: never an error.
    qint64 extractedValues = values, extractedElements = elements;
    QList<RunChart> charts;
    QStringList chartProblems;
    if (parsed->chartError)
        chartProblems << *parsed->chartError;
    qint64 pngBytes = 0, pngPixels = 0;
    for (WrapperChartRef& ref : parsed->charts) {
        if (ref.kind == WrapperChartRef::Kind::Png) {
            const auto png = sandbox.readFile(program.chartPath(ref.file));
            if (!png)
                return QStringLiteral("the chart file %1 named in result.json is missing").arg(ref.file);
            // Counted per mention: one file named 20,000 times is 20,000 charts to keep and show.
            pngBytes += png->size();
            if (pngBytes > L::pngBytesPerRun)
                return tooLarge(QStringLiteral("the PNG charts are more than %1; the limit is %1 per run")
                                    .arg(L::bytesText(L::pngBytesPerRun)));
            const PngCheck::Result check = PngCheck::check(*png, std::min(L::pngPixels, L::pngPixelsPerRun - pngPixels));
            if (check.tooLarge) {
                const QString size = QStringLiteral("the chart %1 is %2 x %3 pixels").arg(ref.file).arg(check.width).arg(check.height);
                if (check.width > L::pngMaxSide || check.height > L::pngMaxSide)
                    return tooLarge(QStringLiteral("%1; the limit is %2 pixels on a side")
                                        .arg(size, L::countText(L::pngMaxSide)));
                if (check.pixels() > L::pngPixels)
                    return tooLarge(QStringLiteral("%1 (%2 pixels); the limit is %3 pixels per image")
                                        .arg(size, L::countText(check.pixels()), L::countText(L::pngPixels)));
                return tooLarge(QStringLiteral("the PNG charts have more than %1 pixels; the limit is %1 per run")
                                    .arg(L::countText(L::pngPixelsPerRun)));
            }
            if (!check.ok)
                return QStringLiteral("the chart file %1 is not a valid PNG: %2").arg(ref.file, check.error);
            pngPixels += check.pixels();
            RunChart chart;
            chart.kind = RunChart::Kind::Png;
            chart.png = *png;
            if (!ref.spec.isEmpty()) {
                const qint64 v = ChartSpec::valueCount(ref.spec), e = ChartSpec::elementCount(ref.spec);
                if (extractedValues + v <= L::chartValuesPerRun && extractedElements + e <= L::chartElementsPerRun) {
                    if (chart.setSpec(ref.spec, columnsOrNull)) {
                        extractedValues += v;
                        extractedElements += e;
                    }
                }
            }
            charts << chart;
        } else {
            RunChart chart;
            chart.kind = RunChart::Kind::Interactive;
            // Kept parsed: no normal dictionary is built (`--json` builds one when asked).
            QString problem;
            if (!chart.setSpec(ref.spec, columnsOrNull, &problem)) {
                chartProblems << problem;
                if (!columnsProblem.isEmpty() && ChartColumns::isReferencedBy(ref.spec))
                    chartProblems.last() += QStringLiteral(" (%1)").arg(columnsProblem);
                continue;
            }
            ref.spec = QJsonObject(); // the dictionary as sent is not needed any more
            charts << chart;
        }
    }
    QStringList artifactNotices;
    QList<RunArtifact> artifacts = ArtifactCollector::collect(parsed->artifacts, parsed->artifactsOmitted,
                                                              program.outDir, sandbox, &artifactNotices);
    result.artifacts = std::move(artifacts);
    for (const QString& notice : std::as_const(artifactNotices))
        result.stderrText += (result.stderrText.isEmpty() || result.stderrText.endsWith(u'\n') ? QString() : QStringLiteral("\n"))
                             + notice + u'\n';
    // Rich outputs: each one refused on its own (a notice in its place), never the run's result.
    QList<RunOutput> outputs = OutputCollector::collect(program, sandbox, parsed->outputs, pngBytes, pngPixels);
    result.status = parsed->success ? RunStatus::Success : RunStatus::Error;
    result.result = parsed->result;
    if (parsed->error)
        result.error = RunError{parsed->error->name, parsed->error->value, parsed->error->traceback};
    result.charts = charts;
    result.outputs = std::move(outputs);
    if (parsed->variables) {
        // Kept as the wrapper wrote it, up to the listing's own bound (core/session/SessionVariables
        // parses and checks it); a bigger one is not a run's problem, only no listing.
        constexpr qint64 kMaxVariablesBytes = 1 << 20;
        const auto listing = sandbox.readFile(program.outDir + QStringLiteral("/variables.json"));
        if (listing && listing->size() <= kMaxVariablesBytes)
            result.variables = *listing;
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
