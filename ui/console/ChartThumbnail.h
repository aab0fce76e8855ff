#pragma once

#include "notebook/RunRecord.h"

#include <QToolButton>

namespace sandpad {

// A small clickable preview of one chart of a run: the PNG scaled down, or, for an interactive
// chart dictionary, a sketch of its data (ChartSketch) with its title.
class ChartThumbnail : public QToolButton {
    Q_OBJECT
public:
    ChartThumbnail(const RunChartRecord& chart, int index, QWidget* parent = nullptr);
    static QPixmap render(const RunChartRecord& chart, const QSize& size, const QPalette& palette);
};

} // namespace sandpad
