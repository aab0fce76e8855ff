#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>
#include <memory>
#include <vector>

namespace sandpad {

class ChartSpec;

// A chart dictionary turned into plain numbers, ready for drawing. Produced by ChartSpecAdapter.
struct ChartData {
    enum class Type { Line, Scatter, Bar, Pie, Box, Composite };
    enum class XAxis { Numeric, Category, DateTime };

    enum class Scale { Linear, Log, Symlog };
    enum class Mode { Default, Lines, Markers, LinesAndMarkers };

    struct Series {
        QString label;
        QVector<double> keys;    // seconds since epoch (DateTime), category index (Category), or x
        QVector<double> values;
        // Line and scatter from a run's chart: its points as the validated chart holds them,
        // shared instead of copied (keys and values stay empty); a key is x * keyScale. `owner`
        // keeps them alive.
        std::shared_ptr<const ChartSpec> owner;
        const std::vector<double>* xs = nullptr;
        const std::vector<double>* ys = nullptr;
        double keyScale = 1;
        qsizetype size() const { return xs ? qsizetype(xs->size()) : keys.size(); }
        double key(qsizetype i) const { return xs ? (*xs)[size_t(i)] * keyScale : keys[i]; }
        double value(qsizetype i) const { return ys ? (*ys)[size_t(i)] : values[i]; }
        bool sorted = true;      // keys ascending: drawable as a QCPGraph as they are
        QColor color;            // invalid: the palette's
        Mode mode = Mode::Default;
        bool rightAxis = false;  // against the second y axis (twin axes)
        QVector<double> errorMinus, errorPlus; // y error bars per point (bars: per key), or empty
    };

    // A value axis: its scale, the view the figure showed, and tick labels that are not numbers.
    struct Axis {
        Scale scale = Scale::Linear;
        double linthresh = 1;
        bool hasLimits = false;
        double lower = 0, upper = 1;
        QVector<double> ticks;
        QStringList tickLabels;  // only when they say more than the numbers (custom labels)
    };

    Type type = Type::Line;
    XAxis xAxis = XAxis::Numeric;
    QString title, xLabel, yLabel, y2Label;
    Axis x, y, y2;
    bool horizontal = false;     // bar: categories on the vertical axis
    bool grouped = false;        // bar: groups side by side instead of stacked
    QList<QColor> sliceColors;   // pie, per slice (invalid: the palette's)
    // Composite: one chart per cell of a rows x columns grid.
    struct Cell { int row = 0, column = 0, rowSpan = 1, columnSpan = 1; };
    QList<ChartData> children;
    QList<Cell> cells;
    int rows = 1, columns = 1;
    QStringList categories;      // Category axis (line/scatter) or bar labels, first appearance order
    QList<Series> series;        // line/scatter: one per element; bar: one per group, keys = category index;
                                 // pie: one series, values = slice sizes, categories = slice labels
    struct Box {
        double min = 0, lower = 0, median = 0, upper = 0, max = 0;
        QVector<double> outliers;
    };
    QList<Box> boxes;            // box: one per category
};

} // namespace sandpad
