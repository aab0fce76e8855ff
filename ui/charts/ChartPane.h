#pragma once

#include "core/run/ExecutionResult.h"
#include "ui/charts/ChartData.h"

#include <QList>
#include <QWidget>

class QLabel;
class QListWidget;
class QStackedWidget;

namespace sandpad {

class ChartViewer;
class PngView;

// The charts of one run: a strip of thumbnails, and below it the selected chart in a
// ChartViewer (interactive dictionaries) or a PngView (matplotlib figures).
class ChartPane : public QWidget {
    Q_OBJECT
public:
    explicit ChartPane(QWidget* parent = nullptr);

    void setCharts(const QList<RunChart>& charts);  // selects the first one
    int count() const { return int(m_charts.size()); }
    int currentIndex() const { return m_current; }
    const QList<RunChart>& charts() const { return m_charts; }

    ChartViewer* chartViewer() const { return m_viewer; }
    PngView* pngView() const { return m_pngView; }
    QListWidget* thumbnailStrip() const { return m_strip; }
    // The widget showing the current chart (chartViewer(), pngView() or the empty notice).
    QWidget* currentView() const;

    static constexpr QSize thumbnailSize() { return QSize(120, 80); }

public slots:
    void selectChart(int index);
    void clear() { setCharts({}); }

signals:
    void currentChartChanged(int index);

private:
    QIcon thumbnailFor(int index, QString* title);

    QListWidget* m_strip = nullptr;
    QStackedWidget* m_stack = nullptr;
    ChartViewer* m_viewer = nullptr;
    PngView* m_pngView = nullptr;
    QLabel* m_empty = nullptr;
    ChartViewer* m_thumbnailRenderer = nullptr; // draws interactive thumbnails off screen
    QList<RunChart> m_charts;
    // Per chart, what the viewer draws: validated once here for both the strip and the viewer
    // (empty for a PNG, or for a dictionary that does not fit the schema).
    QList<std::optional<ChartData>> m_data;
    int m_current = -1;
};

} // namespace sandpad
