#pragma once

#include "core/run/ExecutionResult.h"

#include <QToolButton>

namespace sandpad {

// A small clickable preview of one chart of a run: the PNG scaled down, or, for an interactive
// chart dictionary, a sketch of its data (ChartSketch) with its title.
class ChartThumbnail : public QToolButton {
    Q_OBJECT
public:
    ChartThumbnail(const RunChart& chart, int index, QWidget* parent = nullptr);
    static QPixmap render(const RunChart& chart, const QSize& size, const QPalette& palette);

protected:
    void changeEvent(QEvent* event) override; // drawn again in the new theme's colours

private:
    RunChart m_chart; // shares the run's PNG and dictionary (implicitly shared, not copied)
};

} // namespace sandpad
