#pragma once

#include "notebook/RunRecord.h"

#include <QWidget>

class QLabel;
class QListWidget;
class QStackedWidget;

namespace sandpad {

class ChartViewer;

// The main window's chart area: the charts of the selected run in a thumbnail strip, and the
// selected chart in the native viewer (interactive dictionaries) or the image view (PNGs).
// The viewers themselves come from ui/charts/.
class MainWindowChartPane : public QWidget {
    Q_OBJECT
public:
    explicit MainWindowChartPane(QWidget* parent = nullptr);

    // Lists the run's charts and shows the first one (or an empty hint).
    void showRun(const RunRecord& record);
    void showChart(int index);
    QString runId() const { return m_record.runId; }
    int currentIndex() const { return m_current; }
    int chartCount() const { return int(m_record.charts.size()); }
    ChartViewer* viewer() const { return m_viewer; }
    QWidget* pngView() const { return m_pngView; }

private:
    RunRecord m_record;
    int m_current = -1;
    QListWidget* m_strip;
    QStackedWidget* m_stack;
    QLabel* m_empty;
    ChartViewer* m_viewer;
    QWidget* m_pngView;
};

} // namespace sandpad
