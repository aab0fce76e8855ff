#include "ui/charts/ChartSketch.h"

#include "core/charts/ChartSpec.h"
#include "ui/charts/ChartColors.h"

#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <algorithm>
#include <cmath>
#include <limits>

namespace sandpad {

namespace {

// Value range over finite values, widened when flat.
struct Range {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    void add(double v)
    {
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    bool valid() const { return lo <= hi; }
    void settle()
    {
        if (!valid()) {
            lo = 0;
            hi = 1;
        } else if (hi - lo < 1e-12) {
            lo -= 0.5;
            hi += 0.5;
        }
    }
    double frac(double v) const { return (v - lo) / (hi - lo); }
};

// The step that visits at most about `limit` of n points.
qsizetype strideFor(qsizetype n, qsizetype limit)
{
    return std::max<qsizetype>(1, (n + limit - 1) / limit);
}

void drawXY(QPainter& p, const ChartSpec& spec, const QRectF& a)
{
    Range xr, yr;
    for (const ChartSeries& s : spec.series()) {
        for (double x : s.xs)
            xr.add(x);
        for (double y : s.ys)
            yr.add(y);
    }
    xr.settle();
    yr.settle();
    const double air = (yr.hi - yr.lo) * 0.06; // extremes stay off the frame
    yr.lo -= air;
    yr.hi += air;
    auto map = [&](double x, double y) {
        return QPointF(a.left() + xr.frac(x) * a.width(), a.bottom() - yr.frac(y) * a.height());
    };
    const bool scatter = spec.type() == ChartType::Scatter;
    int index = 0;
    for (const ChartSeries& s : spec.series()) {
        const QColor color = chartSeriesColor(index++);
        const qsizetype n = std::min<qsizetype>(qsizetype(s.xs.size()), qsizetype(s.ys.size()));
        const qsizetype step = strideFor(n, scatter ? 300 : qsizetype(a.width() * 2));
        if (scatter) {
            p.setPen(Qt::NoPen);
            p.setBrush(color);
            for (qsizetype i = 0; i < n; i += step)
                if (std::isfinite(s.xs[i]) && std::isfinite(s.ys[i]))
                    p.drawEllipse(map(s.xs[i], s.ys[i]), 2.0, 2.0);
            continue;
        }
        QPainterPath path;
        bool pen = false; // a NaN breaks the line, as in the viewer
        auto visit = [&](qsizetype i) {
            if (!std::isfinite(s.xs[i]) || !std::isfinite(s.ys[i])) {
                pen = false;
                return;
            }
            const QPointF pt = map(s.xs[i], s.ys[i]);
            pen ? path.lineTo(pt) : path.moveTo(pt);
            pen = true;
        };
        for (qsizetype i = 0; i < n; i += step)
            visit(i);
        if (n > 0 && (n - 1) % step != 0)
            visit(n - 1); // the last point always
        p.setPen(QPen(color, 1.6));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
    }
}

void drawBars(QPainter& p, const ChartBars& bars, const QRectF& a)
{
    // Stacked, as the viewer draws them: positive values up from zero, negative ones down.
    const qsizetype categories = bars.categories.size();
    if (categories == 0)
        return;
    Range yr;
    yr.add(0);
    for (qsizetype c = 0; c < categories; ++c) {
        double up = 0, down = 0;
        for (const auto& group : bars.values) {
            const double v = c < qsizetype(group.size()) ? group[c] : 0;
            if (std::isfinite(v))
                (v >= 0 ? up : down) += v;
        }
        yr.add(up);
        yr.add(down);
    }
    yr.settle();
    const double slot = a.width() / double(categories);
    const double width = slot * 0.7;
    for (qsizetype c = 0; c < categories; ++c) {
        double up = 0, down = 0;
        const double left = a.left() + slot * c + (slot - width) / 2;
        for (qsizetype g = 0; g < qsizetype(bars.values.size()); ++g) {
            const double v = c < qsizetype(bars.values[g].size()) ? bars.values[g][c] : 0;
            if (!std::isfinite(v) || v == 0)
                continue;
            double& base = v >= 0 ? up : down;
            const double y0 = a.bottom() - yr.frac(base) * a.height();
            base += v;
            const double y1 = a.bottom() - yr.frac(base) * a.height();
            p.fillRect(QRectF(left, std::min(y0, y1), width, std::abs(y1 - y0)), chartSeriesColor(int(g)));
        }
    }
}

void drawPie(QPainter& p, const QList<ChartSlice>& slices, const QRectF& a)
{
    double total = 0;
    for (const ChartSlice& s : slices)
        total += std::isfinite(s.value) && s.value > 0 ? s.value : 0;
    if (total <= 0)
        return;
    const double d = std::min(a.width(), a.height());
    const QRectF circle(a.center().x() - d / 2, a.center().y() - d / 2, d, d);
    double start = 90 * 16;
    int index = 0;
    p.setPen(Qt::NoPen);
    for (const ChartSlice& s : slices) {
        const double v = std::isfinite(s.value) && s.value > 0 ? s.value : 0;
        const double span = -v / total * 360 * 16;
        p.setBrush(chartSeriesColor(index++));
        p.drawPie(circle, int(start), int(span));
        start += span;
    }
}

void drawBoxes(QPainter& p, const QList<ChartBox>& boxes, const QRectF& a, const QColor& ink)
{
    if (boxes.isEmpty())
        return;
    Range yr;
    for (const ChartBox& b : boxes) {
        yr.add(b.min);
        yr.add(b.max);
        for (double o : b.outliers)
            yr.add(o);
    }
    yr.settle();
    auto y = [&](double v) { return a.bottom() - yr.frac(v) * a.height(); };
    const double slot = a.width() / double(boxes.size());
    for (qsizetype i = 0; i < boxes.size(); ++i) {
        const ChartBox& b = boxes[i];
        const double mid = a.left() + slot * (double(i) + 0.5), half = slot * 0.3;
        p.setPen(QPen(ink, 1));
        p.drawLine(QPointF(mid, y(b.min)), QPointF(mid, y(b.max)));
        p.fillRect(QRectF(mid - half, y(b.thirdQuartile), 2 * half, y(b.firstQuartile) - y(b.thirdQuartile)),
                   chartSeriesColor(0));
        p.setPen(QPen(ink, 1.5));
        p.drawLine(QPointF(mid - half, y(b.median)), QPointF(mid + half, y(b.median)));
    }
}

} // namespace

void ChartSketch::draw(QPainter& p, const ChartSpec& spec, const QRectF& area, const QPalette& palette)
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setClipRect(area.adjusted(-3, -3, 3, 3));
    switch (spec.type()) {
    case ChartType::Line:
    case ChartType::Scatter:
        drawXY(p, spec, area);
        break;
    case ChartType::Bar:
        drawBars(p, spec.bars(), area);
        break;
    case ChartType::Pie:
        drawPie(p, spec.slices(), area);
        break;
    case ChartType::BoxAndWhisker:
        drawBoxes(p, spec.boxes(), area, palette.color(QPalette::Text));
        break;
    case ChartType::Composite: {
        // Each chart small in its cell of the grid.
        const double w = area.width() / std::max(1, spec.columns()), h = area.height() / std::max(1, spec.rows());
        for (qsizetype i = 0; i < spec.children().size(); ++i) {
            const ChartCell& c = spec.cells()[i];
            const QRectF cell(area.left() + c.column * w, area.top() + c.row * h, c.columnSpan * w, c.rowSpan * h);
            draw(p, spec.children()[i], cell.adjusted(2, 2, -2, -2), palette);
        }
        break;
    }
    }
    p.restore();
}

} // namespace sandpad
