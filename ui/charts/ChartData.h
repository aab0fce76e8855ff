#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

namespace sandpad {

// A chart dictionary turned into plain numbers, ready for drawing. Produced by ChartSpecAdapter.
struct ChartData {
    enum class Type { Line, Scatter, Bar, Pie, Box };
    enum class XAxis { Numeric, Category, DateTime };

    struct Series {
        QString label;
        QVector<double> keys;    // seconds since epoch (DateTime), category index (Category), or x
        QVector<double> values;
        bool sorted = true;      // keys ascending: drawable as a QCPGraph as they are
    };

    Type type = Type::Line;
    XAxis xAxis = XAxis::Numeric;
    QString title, xLabel, yLabel;
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
