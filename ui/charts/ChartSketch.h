#pragma once

#include <QRectF>

class QPainter;
class QPalette;

namespace sandpad {

class ChartSpec;

// A chart's own data drawn small with QPainter, without axes' labels or interaction: the
// notebook's thumbnail of an interactive chart. Cheap (a few hundred points at most are drawn
// per series), so a notebook with many charts opens quickly.
class ChartSketch {
public:
    static void draw(QPainter& painter, const ChartSpec& spec, const QRectF& area, const QPalette& palette);
};

} // namespace sandpad
