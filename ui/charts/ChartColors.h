#pragma once

#include <QColor>

namespace sandpad {

// The colour of series n in every chart Sandpad draws (viewer and thumbnails alike): Tableau 10,
// distinguishable on light and dark backgrounds.
QColor chartSeriesColor(int index);

} // namespace sandpad
