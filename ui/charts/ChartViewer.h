#pragma once

#include "ui/charts/ChartData.h"

#include <QJsonObject>
#include <QWidget>

class QCustomPlot;
class QCPAbstractPlottable;
class QCPAbstractLegendItem;
class QCPBarsGroup;
class QCPLayoutGrid;
class QCPLegend;
class QCPTextElement;
class QLabel;
class QMouseEvent;
class QStackedWidget;
class QTimer;
class QToolBar;

namespace sandpad {

// Draws an interactive chart dictionary natively with QCustomPlot: line (numeric, categorical or
// datetime x), scatter, stacked bar, pie, box-and-whisker. Wheel zoom, drag pan, legend click hides/shows a series,
// hover tooltip, reset view, export PNG/PDF, copy. An invalid spec shows a readable error instead.
class ChartViewer : public QWidget {
    Q_OBJECT
public:
    explicit ChartViewer(QWidget* parent = nullptr);
    ~ChartViewer() override;

    // Draws the chart; returns false (and shows errorText()) when the spec does not fit the schema.
    bool showSpec(const QJsonObject& spec);
    bool showChart(const ChartData& chart);
    void clear();
    // Shows a message where the chart would be (errorText() then returns it).
    void showError(const QString& message);

    QString errorText() const { return m_errorText; }
    bool hasChart() const { return m_hasChart; }
    QCustomPlot* plot() const { return m_plot; }
    const ChartData& chart() const { return m_chart; }
    // A composite chart's viewers, one per cell (empty for other charts).
    const QList<ChartViewer*>& children() const { return m_children; }
    QToolBar* toolBar() const { return m_toolBar; }

    // Exports. width/height are the chart's logical size in pixels at 96 DPI; dpi scales the PNG
    // (e.g. 800x600 at 192 DPI gives a 1600x1200 image). PDF is vector: dpi does not apply.
    bool exportPng(const QString& path, int width, int height, int dpi = 96);
    bool exportPdf(const QString& path, int width, int height);
    QImage renderImage(int width, int height, double scale = 1.0);
    // The size the export dialog starts from (ChartExportDialog::defaultSize; the pane sets a
    // figure's own size for a chart extracted from it).
    void setExportSize(QSize size) { m_exportSize = size; }
    QSize exportSize() const { return m_exportSize; }

    // The text the hover tooltip shows for a plottable's data point (tests use it).
    QString pointDescription(QCPAbstractPlottable* plottable, int dataIndex) const;
    // The tooltip text for a position in plot coordinates, empty when no point is near.
    QString toolTipAt(const QPointF& pos) const;

public slots:
    void resetView();
    void copyToClipboard();
    void exportWithDialog();
    // Hides or shows series n (what a legend click does).
    void setSeriesVisible(int index, bool visible);

signals:
    void seriesVisibilityChanged(int index, bool visible);
    // Export… wrote a file: its path and size (pixels, or a PDF's points), for a confirmation.
    void exported(const QString& path, QSize size);

protected:
    void changeEvent(QEvent* event) override;

private:
    void onLegendClick(QCPLegend* legend, QCPAbstractLegendItem* item, QMouseEvent* event);
    void onPlotMouseMove(QMouseEvent* event);
    void updateToolTip();
    void applyPalette();
    QString formatKey(double key) const;
    void showComposite(const ChartData& chart);
    void layoutComposite();

    QToolBar* m_toolBar = nullptr;
    QStackedWidget* m_stack = nullptr;
    QCustomPlot* m_plot = nullptr;
    QLabel* m_errorLabel = nullptr;
    QCPTextElement* m_title = nullptr;
    // The legend's own row between the title and the plot ([air][legend][air], centred), in the
    // layout only while the legend is shown: a legend inside the axes would cover data.
    QCPLayoutGrid* m_legendRow = nullptr;
    QTimer* m_toolTipTimer = nullptr;
    QPointF m_toolTipPos;
    QList<QCPAbstractPlottable*> m_series;
    ChartData m_chart;
    QVector<double> m_pieValues;
    QString m_errorText;
    bool m_hasChart = false;
    QSize m_exportSize; // invalid: ChartExportDialog::defaultSize()
    double m_xLower = 0, m_xUpper = 1, m_yLower = 0, m_yUpper = 1;
    double m_y2Lower = 0, m_y2Upper = 1;
    bool m_hasY2 = false;
    QCPBarsGroup* m_barsGroup = nullptr;
    // Composite: a grid of viewers, one per axes of the figure (shown instead of m_plot).
    QWidget* m_composite = nullptr;
    QList<ChartViewer*> m_children;
};

} // namespace sandpad
