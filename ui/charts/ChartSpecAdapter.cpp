#include "ui/charts/ChartSpecAdapter.h"

#include "core/charts/ChartSpec.h"

#include <algorithm>
#include <cmath>

namespace sandpad {

std::optional<ChartData> ChartSpecAdapter::parse(const QJsonObject& spec, QString* error)
{
    const ChartParseResult parsed = ChartSpec::parse(spec);
    if (!parsed.ok()) {
        if (error)
            *error = QStringLiteral("Invalid chart: ") + parsed.error;
        return std::nullopt;
    }
    if (error)
        error->clear();
    return fromSpec(*parsed.spec);
}

ChartData ChartSpecAdapter::fromSpec(const ChartSpec& spec)
{
    ChartData chart;
    chart.title = spec.title();
    chart.xLabel = spec.xLabel();
    chart.yLabel = spec.yLabel();
    switch (spec.type()) {
    case ChartType::Line:
    case ChartType::Scatter: {
        chart.type = spec.type() == ChartType::Line ? ChartData::Type::Line : ChartData::Type::Scatter;
        chart.xAxis = spec.datetimeX() ? ChartData::XAxis::DateTime
                                       : (spec.categoryX() ? ChartData::XAxis::Category : ChartData::XAxis::Numeric);
        chart.categories = spec.xCategories();
        // QCPAxisTickerDateTime counts seconds; the spec carries epoch milliseconds.
        const double xScale = spec.datetimeX() ? 0.001 : 1.0;
        int n = 0;
        for (const ChartSeries& s : spec.series()) {
            ChartData::Series out;
            ++n;
            out.label = s.label.isEmpty() ? QStringLiteral("Series %1").arg(n) : s.label;
            out.keys.resize(qsizetype(s.xs.size()));
            std::transform(s.xs.cbegin(), s.xs.cend(), out.keys.begin(), [xScale](double x) { return x * xScale; });
            out.values = QVector<double>(s.ys.cbegin(), s.ys.cend());
            out.sorted = std::is_sorted(out.keys.cbegin(), out.keys.cend());
            chart.series.append(std::move(out));
        }
        break;
    }
    case ChartType::Bar: {
        chart.type = ChartData::Type::Bar;
        chart.xAxis = ChartData::XAxis::Category;
        const ChartBars& bars = spec.bars();
        chart.categories = bars.categories;
        for (qsizetype g = 0; g < bars.groups.size(); ++g) {
            ChartData::Series out;
            out.label = bars.groups.at(g);
            if (out.label.isEmpty())
                out.label = chart.yLabel.isEmpty() ? QStringLiteral("value") : chart.yLabel;
            const std::vector<double>& values = bars.values.at(size_t(g));
            for (size_t c = 0; c < values.size(); ++c) {
                if (std::isnan(values[c]))
                    continue; // this group has no bar in that category
                out.keys.append(double(c));
                out.values.append(values[c]);
            }
            chart.series.append(std::move(out));
        }
        break;
    }
    case ChartType::Pie: {
        chart.type = ChartData::Type::Pie;
        chart.xAxis = ChartData::XAxis::Category;
        ChartData::Series out;
        out.label = chart.title;
        int n = 0;
        for (const ChartSlice& slice : spec.slices()) {
            chart.categories.append(slice.label.isEmpty() ? QStringLiteral("Slice %1").arg(n + 1) : slice.label);
            out.keys.append(n++);
            out.values.append(slice.value);
        }
        chart.series.append(std::move(out));
        break;
    }
    case ChartType::BoxAndWhisker: {
        chart.type = ChartData::Type::Box;
        chart.xAxis = ChartData::XAxis::Category;
        int n = 0;
        for (const ChartBox& b : spec.boxes()) {
            chart.categories.append(b.label.isEmpty() ? QStringLiteral("Box %1").arg(n + 1) : b.label);
            ++n;
            chart.boxes.append(ChartData::Box{b.min, b.firstQuartile, b.median, b.thirdQuartile, b.max,
                                              QVector<double>(b.outliers.cbegin(), b.outliers.cend())});
        }
        break;
    }
    }
    return chart;
}

} // namespace sandpad
