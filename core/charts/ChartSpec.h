#pragma once

#include "core/runtime/ResultLimits.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace sandpad {

enum class ChartType { Line, Scatter, Bar, Pie, BoxAndWhisker, Composite };

// How a value axis maps numbers: "linear", "log" or "symlog" (linear within ±linthresh).
enum class ChartScale { Linear, Log, Symlog };

// What a chart says about one of its axes beyond its kind (all optional; matplotlib's extracted
// figures set them, hand-written dictionaries rarely do).
struct ChartAxis {
    ChartScale scale = ChartScale::Linear;
    double linthresh = 1;                  // symlog only
    std::optional<std::pair<double, double>> limits; // `*_lim`: the view the figure showed
    std::vector<double> ticks;             // `*_ticks`: positions (epoch ms on a datetime x)
    QStringList tickLabels;                // `*_tick_labels`: as drawn, one per tick (or none)
    QString unit;                          // `*_unit`
};

// An error bar's extent below and above a value; NaN where there is none.
struct ChartErrors {
    std::vector<double> minus, plus;
    bool isEmpty() const { return minus.empty(); }
};

// One line or scatter series. xs are numbers, epoch milliseconds (datetime x) or indices into
// ChartSpec::xCategories() (string x); a NaN y is a gap (the wrapper turns NaN into null).
struct ChartSeries {
    enum class Mode { Default, Lines, Markers, LinesAndMarkers }; // Default: by the chart's type
    QString label;
    std::vector<double> xs;
    std::vector<double> ys;
    QString color;          // "#rrggbb", or empty for the palette's
    Mode mode = Mode::Default;
    bool rightAxis = false; // `"y_axis": "right"`: drawn against the second y axis (twinx)
    ChartErrors errorX, errorY; // per point, or empty
};

// Bar chart: `label` is the category on the x axis, `group` the series; groups stack unless
// `bar_mode` is "grouped" (side by side). `orientation` "horizontal" puts categories on y.
struct ChartBars {
    QStringList categories;                   // in order of first appearance
    QStringList groups;                       // in order of first appearance
    std::vector<std::vector<double>> values;  // [group][category]; NaN where a group has no bar
    std::vector<ChartErrors> errors;          // [group], per category; empty when none has one
    QStringList colors;                       // per group, "#rrggbb" or empty
    bool horizontal = false;
    bool grouped = false;
};

struct ChartSlice {
    QString label;
    double value = 0; // `angle` (E2B/Daytona) or `value`
    double radius = 1;
    QString color;
};

struct ChartBox {
    QString label;
    double min = 0, firstQuartile = 0, median = 0, thirdQuartile = 0, max = 0;
    std::vector<double> outliers;
    QString color;
};

// Where a composite chart's element sits in its grid (matplotlib's subplot spec).
struct ChartCell {
    int row = 0, column = 0, rowSpan = 1, columnSpan = 1;
};

struct ChartParseResult;

// A validated, normalized interactive chart dictionary (DESIGN.md "Interactive chart
// dictionaries"): line, scatter and bar, plus pie and box_and_whisker.
class ChartColumns;

class ChartSpec {
public:
    // At most this many values (points, bars, slices, box values) in one chart: as many as a run
    // may return in all its charts.
    static constexpr qsizetype maxValues = ResultLimits::chartValuesPerRun;
    // At most this many elements (series, bars, slices, boxes): each is an object to parse.
    static constexpr qsizetype maxElements = ResultLimits::chartElementsPerRun;

    // Never throws: a chart that does not fit the schema gives an error naming the field, e.g.
    // `chart.elements[2].points[5]: y must be a number, got "abc"`.
    // A line or scatter element gives its points as `"points": [[x, y], …]` or as binary
    // columns `"x": {"column": …}, "y": {"column": …}` (ChartColumns), looked up in `columns`.
    static ChartParseResult parse(const QJsonObject& chart, const ChartColumns* columns = nullptr);
    // How many values parse() would count, without checking anything: cheap, so that a caller can
    // refuse a run's charts by their total before parsing any of them.
    static qsizetype valueCount(const QJsonObject& chart);
    // How many elements parse() would count (a composite's are those of its charts), as cheaply.
    static qsizetype elementCount(const QJsonObject& chart);

    ChartType type() const { return m_type; }
    QString typeName() const;
    const QString& title() const { return m_title; }
    const QString& xLabel() const { return m_xLabel; }
    const QString& yLabel() const { return m_yLabel; }

    // Line and scatter.
    bool datetimeX() const { return m_datetimeX; }
    bool categoryX() const { return !m_xCategories.isEmpty(); }
    const QStringList& xCategories() const { return m_xCategories; }
    const QList<ChartSeries>& series() const { return m_series; }

    const ChartBars& bars() const { return m_bars; }
    const QList<ChartSlice>& slices() const { return m_slices; }
    const QList<ChartBox>& boxes() const { return m_boxes; }

    // Axes: x and y, and the second y axis of twin axes (line and scatter series with rightAxis).
    const ChartAxis& xAxis() const { return m_xAxis; }
    const ChartAxis& yAxis() const { return m_yAxis; }
    const ChartAxis& y2Axis() const { return m_y2Axis; }
    const QString& y2Label() const { return m_y2Label; }
    bool hasRightAxis() const;

    // Composite: the charts of a figure with several axes, each in its cell of a rows x columns grid.
    const QList<ChartSpec>& children() const { return m_children; }
    const QList<ChartCell>& cells() const { return m_cells; }
    int rows() const { return m_rows; }
    int columns() const { return m_columns; }

    bool isEmpty() const;
    // How many values parse() counted for this chart (points, bars, slices, box values).
    qsizetype valueTotal() const { return m_valueTotal; }

    // The normalized dictionary: x_scale "datetime" x values as epoch ms, bar values as numbers,
    // NaN as null, unknown keys dropped. parse(toJson()) gives the same chart.
    QJsonObject toJson() const;
    // The same, consuming the dictionary this chart was parsed from: point lists that are already
    // in normal form are shared with it instead of built again (for 1,000,000 points that saves
    // ~170 MB and most of a second), and the rest of it is let go before the normal dictionary is
    // built, so that the two are never in memory together.
    QJsonObject toJson(QJsonObject&& parsedFrom) const;
    // The dictionary with every numeric x/y series as binary columns added to `columns` (how the
    // run history stores a chart): parse(toPacked(c), &c) gives the same chart.
    QJsonObject toPacked(ChartColumns& columns) const;
    // QJsonDocument(toJson()).toJson(QJsonDocument::Compact), byte for byte, with the point lists
    // written straight from the series instead of a JSON tree per point (`--json`: for 1,000,000
    // points a tenth of the time and of the memory).
    QByteArray toJsonText() const;

private:
    ChartType m_type = ChartType::Line;
    QString m_title, m_xLabel, m_yLabel;
    bool m_datetimeX = false;
    QStringList m_xCategories;
    QList<ChartSeries> m_series;
    ChartBars m_bars;
    QList<ChartSlice> m_slices;
    QList<ChartBox> m_boxes;
    ChartAxis m_xAxis, m_yAxis, m_y2Axis;
    QString m_y2Label;
    QList<ChartSpec> m_children;
    QList<ChartCell> m_cells;
    int m_rows = 1, m_columns = 1;
    qsizetype m_valueTotal = 0;
    std::vector<bool> m_pointsNormal; // per series: its "points" list as parsed is already normal

    struct TextPlaceholders;
    // sharedPoints: per series, or empty; columns: set for toPacked; placeholders: set for
    // toJsonText (each series' points a marker string, replaced by their text).
    QJsonObject toJson(const QList<QJsonArray>& sharedPoints, ChartColumns* columns = nullptr,
                       TextPlaceholders* placeholders = nullptr) const;
    friend class ChartSpecParser;
};

struct ChartParseResult {
    std::optional<ChartSpec> spec;
    QString error; // set when spec is empty
    bool ok() const { return spec.has_value(); }
};

} // namespace sandpad
