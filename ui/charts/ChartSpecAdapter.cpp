#include "ui/charts/ChartSpecAdapter.h"

#include "core/charts/ChartSpec.h"
#include "ui/charts/SymlogScale.h"

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

namespace {

// The drawn value of a number on an axis: itself, or its symlog transform (SymlogScale).
struct AxisTransform {
    bool symlog = false;
    SymlogScale scale;
    explicit AxisTransform(const ChartAxis& a) : symlog(a.scale == ChartScale::Symlog), scale{a.linthresh} {}
    double operator()(double v) const { return symlog ? scale.forward(v) : v; }
};

ChartData::Axis axisFrom(const ChartAxis& a, double keyScale)
{
    const AxisTransform t(a);
    ChartData::Axis out;
    out.scale = a.scale == ChartScale::Log ? ChartData::Scale::Log
                                           : (a.scale == ChartScale::Symlog ? ChartData::Scale::Symlog : ChartData::Scale::Linear);
    out.linthresh = a.linthresh;
    if (a.limits) {
        out.hasLimits = true;
        out.lower = t(a.limits->first * keyScale);
        out.upper = t(a.limits->second * keyScale);
    }
    // Labels that are all plain numbers are what the viewer's own ticks show (and keep showing
    // while zooming); custom ones ("low", "high", "1k") are kept at their positions.
    bool custom = false;
    for (const QString& label : a.tickLabels) {
        bool number = false;
        QString(label).replace(QChar(0x2212), u'-').toDouble(&number);
        custom = custom || (!number && !label.isEmpty());
    }
    if (custom && a.ticks.size() == size_t(a.tickLabels.size())) {
        for (double tick : a.ticks)
            out.ticks.append(t(tick * keyScale));
        out.tickLabels = a.tickLabels;
    }
    return out;
}

QColor colorFrom(const QString& name)
{
    return name.isEmpty() ? QColor() : QColor(name);
}

// Error bars as drawn: on a symlog axis, the transformed distances from the value to its ends.
void errorsFrom(const ChartErrors& e, const std::vector<double>& values, const AxisTransform& t, ChartData::Series& out)
{
    out.errorMinus = QVector<double>(e.minus.cbegin(), e.minus.cend());
    out.errorPlus = QVector<double>(e.plus.cbegin(), e.plus.cend());
    if (!t.symlog)
        return;
    for (qsizetype i = 0; i < out.errorMinus.size() && size_t(i) < values.size(); ++i) {
        const double v = values[size_t(i)];
        out.errorMinus[i] = t(v) - t(v - out.errorMinus[i]);
        out.errorPlus[i] = t(v + out.errorPlus[i]) - t(v);
    }
}

} // namespace

ChartData ChartSpecAdapter::fromSpec(const ChartSpec& spec, const std::shared_ptr<const ChartSpec>& owner)
{
    ChartData chart;
    chart.title = spec.title();
    chart.xLabel = spec.xLabel();
    chart.yLabel = spec.yLabel();
    chart.y2Label = spec.y2Label();
    chart.x = axisFrom(spec.xAxis(), spec.datetimeX() ? 0.001 : 1.0);
    chart.y = axisFrom(spec.yAxis(), 1.0);
    chart.y2 = axisFrom(spec.y2Axis(), 1.0);
    switch (spec.type()) {
    case ChartType::Composite: {
        chart.type = ChartData::Type::Composite;
        chart.rows = spec.rows();
        chart.columns = spec.columns();
        for (qsizetype i = 0; i < spec.children().size(); ++i) {
            chart.children.append(fromSpec(spec.children()[i], owner));
            const ChartCell& c = spec.cells()[i];
            chart.cells.append(ChartData::Cell{c.row, c.column, c.rowSpan, c.columnSpan});
        }
        break;
    }
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
            const AxisTransform tx(spec.xAxis()), ty(s.rightAxis ? spec.y2Axis() : spec.yAxis());
            const bool symlogX = tx.symlog && !spec.datetimeX() && !spec.categoryX();
            if (owner && !symlogX && !ty.symlog) { // drawn straight from the chart's own columns: no copy here
                out.owner = owner;
                out.xs = &s.xs;
                out.ys = &s.ys;
                out.keyScale = xScale;
            } else { // a copy, transformed for a symlog axis
                out.keys.resize(qsizetype(s.xs.size()));
                std::transform(s.xs.cbegin(), s.xs.cend(), out.keys.begin(),
                               [&](double x) { return symlogX ? tx(x) : x * xScale; });
                out.values.resize(qsizetype(s.ys.size()));
                std::transform(s.ys.cbegin(), s.ys.cend(), out.values.begin(), ty);
            }
            out.sorted = std::is_sorted(s.xs.cbegin(), s.xs.cend());
            out.color = colorFrom(s.color);
            out.mode = ChartData::Mode(int(s.mode));
            out.rightAxis = s.rightAxis;
            errorsFrom(s.errorY, s.ys, ty, out);
            chart.series.append(std::move(out));
        }
        break;
    }
    case ChartType::Bar: {
        chart.type = ChartData::Type::Bar;
        chart.xAxis = ChartData::XAxis::Category;
        const ChartBars& bars = spec.bars();
        chart.categories = bars.categories;
        chart.horizontal = bars.horizontal;
        chart.grouped = bars.grouped;
        for (qsizetype g = 0; g < bars.groups.size(); ++g) {
            ChartData::Series out;
            out.label = bars.groups.at(g);
            if (out.label.isEmpty()) {
                const QString& valueLabel = bars.horizontal ? chart.xLabel : chart.yLabel;
                out.label = valueLabel.isEmpty() ? QStringLiteral("value") : valueLabel;
            }
            out.color = colorFrom(bars.colors.value(g));
            // The value axis: y, or x for horizontal bars. (Stacked bars stack drawn values.)
            const AxisTransform t(bars.horizontal ? spec.xAxis() : spec.yAxis());
            const std::vector<double>& values = bars.values.at(size_t(g));
            for (size_t c = 0; c < values.size(); ++c) {
                if (std::isnan(values[c]))
                    continue; // this group has no bar in that category
                out.keys.append(double(c));
                out.values.append(t(values[c]));
                if (!bars.errors.empty()) {
                    const double m = bars.errors[size_t(g)].minus[c], p = bars.errors[size_t(g)].plus[c];
                    out.errorMinus.append(t.symlog ? t(values[c]) - t(values[c] - m) : m);
                    out.errorPlus.append(t.symlog ? t(values[c] + p) - t(values[c]) : p);
                }
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
            chart.sliceColors.append(colorFrom(slice.color));
        }
        chart.series.append(std::move(out));
        break;
    }
    case ChartType::BoxAndWhisker: {
        chart.type = ChartData::Type::Box;
        chart.xAxis = ChartData::XAxis::Category;
        int n = 0;
        const AxisTransform t(spec.yAxis());
        for (const ChartBox& b : spec.boxes()) {
            chart.categories.append(b.label.isEmpty() ? QStringLiteral("Box %1").arg(n + 1) : b.label);
            ++n;
            QVector<double> outliers(qsizetype(b.outliers.size()));
            std::transform(b.outliers.cbegin(), b.outliers.cend(), outliers.begin(), t);
            chart.boxes.append(ChartData::Box{t(b.min), t(b.firstQuartile), t(b.median), t(b.thirdQuartile), t(b.max), outliers});
        }
        break;
    }
    }
    return chart;
}

} // namespace sandpad
