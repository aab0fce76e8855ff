#pragma once

#include "core/run/ExecutionResult.h"
#include "ui/charts/ChartData.h"

#include <QList>
#include <QWidget>

class QLabel;
class QListWidget;
class QToolButton;
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

    // A figure with an extracted chart shows as the interactive chart; the toggle shows its
    // picture (the PNG the run made) instead, and back. Per chart, kept while the pane shows it.
    bool showsInteractive() const;
    QToolButton* pictureButton() const { return m_pictureButton; }
    QToolButton* interactiveButton() const { return m_interactiveButton; }

public slots:
    void selectChart(int index);
    void setShowInteractive(bool interactive);
    void clear() { setCharts({}); }

signals:
    void currentChartChanged(int index);
    // The chart or figure shown was exported or saved (for a confirmation in the status bar).
    void chartExported(const QString& path, QSize size);

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
    QList<bool> m_picture;      // per chart: a figure shown as its picture
    QWidget* m_toggle = nullptr; // Picture | Interactive, for figures with an extracted chart
    QToolButton* m_pictureButton = nullptr;
    QToolButton* m_interactiveButton = nullptr;
    int m_current = -1;

    void showCurrent();
};

} // namespace sandpad
