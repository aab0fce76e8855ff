#include "ui/charts/ChartViewer.h"

#include "ui/charts/ChartColors.h"
#include "ui/charts/ChartExportDialog.h"
#include "ui/charts/ChartSpecAdapter.h"
#include "ui/charts/SymlogScale.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QFileDialog>
#include <QGridLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QLabel>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QTimeZone>
#include <QTimer>
#include <QToolBar>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace sandpad {

namespace {

// Above this many points a line has no symbols and a scatter uses 1-pixel dots: QCustomPlot's
// adaptive sampling then keeps a million-point series at a few milliseconds per repaint.
constexpr qsizetype kSymbolLimit = 200;
constexpr qsizetype kDotScatterLimit = 20000;

QString formatNumber(double v)
{
    if (std::isnan(v))
        return QStringLiteral("–");
    return QString::number(v, 'g', 10);
}

} // namespace

ChartViewer::ChartViewer(QWidget* parent)
    : QWidget(parent)
{
    setAccessibleName(tr("Chart viewer"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    m_toolBar = new QToolBar(this);
    m_toolBar->setIconSize(QSize(16, 16));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->setAccessibleName(tr("Chart tools"));
    auto addAction = [this](const QString& text, QStyle::StandardPixmap icon, const QKeySequence& key,
                            const QString& tip, auto slot) {
        QAction* a = m_toolBar->addAction(style()->standardIcon(icon), text);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        a->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    addAction(tr("Reset view"), QStyle::SP_BrowserReload, QKeySequence(Qt::CTRL | Qt::Key_0),
              tr("Show all data again"), &ChartViewer::resetView);
    addAction(tr("Export…"), QStyle::SP_DialogSaveButton, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
              tr("Export as PNG or PDF"), &ChartViewer::exportWithDialog);
    addAction(tr("Copy"), QStyle::SP_FileDialogContentsView, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
              tr("Copy the chart as an image"), &ChartViewer::copyToClipboard);
    layout->addWidget(m_toolBar);

    m_stack = new QStackedWidget(this);
    m_plot = new QCustomPlot(m_stack);
    m_plot->setAccessibleName(tr("Chart"));
    m_plot->setFocusPolicy(Qt::StrongFocus);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setMouseTracking(true);
    m_plot->legend->setVisible(false);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->axisRect()->insetLayout()->simplify();
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setWrap(6); // at most 6 entries a line
    m_legendRow = new QCPLayoutGrid;
    m_legendRow->addElement(0, 0, new QCPLayoutElement(m_plot));
    m_legendRow->addElement(0, 1, m_plot->legend);
    m_legendRow->addElement(0, 2, new QCPLayoutElement(m_plot));
    m_legendRow->setColumnStretchFactors({1.0, 0.001, 1.0});
    m_plot->setMinimumSize(200, 150);
    connect(m_plot, &QCustomPlot::legendClick, this, &ChartViewer::onLegendClick);
    connect(m_plot, &QCustomPlot::mouseMove, this, &ChartViewer::onPlotMouseMove);
    m_toolTipTimer = new QTimer(this);
    m_toolTipTimer->setSingleShot(true);
    m_toolTipTimer->setInterval(60);
    connect(m_toolTipTimer, &QTimer::timeout, this, &ChartViewer::updateToolTip);
    m_stack->addWidget(m_plot);

    m_errorLabel = new QLabel(m_stack);
    m_errorLabel->setAccessibleName(tr("Chart error"));
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setAlignment(Qt::AlignCenter);
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_errorLabel->setMargin(16);
    m_stack->addWidget(m_errorLabel);
    layout->addWidget(m_stack, 1);

    applyPalette();
}

ChartViewer::~ChartViewer()
{
    // The plot deletes what its layout holds, the legend last (its plottables refer to it).
    if (m_legendRow && !m_legendRow->layout())
        m_plot->plotLayout()->addElement(m_plot->plotLayout()->rowCount(), 0, m_legendRow);
}

void ChartViewer::clear()
{
    if (m_legendRow->layout()) {
        m_plot->plotLayout()->take(m_legendRow);
        m_plot->plotLayout()->simplify();
    }
    m_plot->clearPlottables();
    m_series.clear();
    if (m_title) {
        m_plot->plotLayout()->remove(m_title);
        m_plot->plotLayout()->simplify();
        m_title = nullptr;
    }
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    m_plot->yAxis2->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    for (QCPAxis* a : {m_plot->xAxis, m_plot->yAxis, m_plot->yAxis2})
        a->setScaleType(QCPAxis::stLinear);
    m_plot->yAxis2->setVisible(false);
    m_plot->yAxis2->setLabel({});
    m_hasY2 = false;
    if (m_barsGroup) {
        delete m_barsGroup;
        m_barsGroup = nullptr;
    }
    m_children.clear();
    if (m_composite) {
        m_stack->removeWidget(m_composite);
        delete m_composite;
        m_composite = nullptr;
    }
    m_plot->xAxis->setLabel({});
    m_plot->yAxis->setLabel({});
    m_plot->legend->setVisible(false);
    m_plot->xAxis->setVisible(true);
    m_plot->yAxis->setVisible(true);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_chart = ChartData();
    m_hasChart = false;
    m_errorText.clear();
    m_stack->setCurrentWidget(m_plot);
    m_plot->replot();
}

bool ChartViewer::showSpec(const QJsonObject& spec)
{
    QString error;
    const std::optional<ChartData> chart = ChartSpecAdapter::parse(spec, &error);
    if (!chart) {
        showError(error);
        return false;
    }
    return showChart(*chart);
}

void ChartViewer::showError(const QString& message)
{
    clear();
    m_errorText = message;
    m_errorLabel->setText(message);
    m_stack->setCurrentWidget(m_errorLabel);
}

void ChartViewer::showComposite(const ChartData& chart)
{
    // One viewer per axes of the figure, in its grid cell: each zooms and pans on its own.
    m_composite = new QWidget(m_stack);
    auto* grid = new QGridLayout(m_composite);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    int row0 = 0;
    if (!chart.title.isEmpty()) {
        auto* title = new QLabel(chart.title, m_composite);
        QFont f = font();
        f.setPointSize(f.pointSize() + 2);
        f.setBold(true);
        title->setFont(f);
        title->setAlignment(Qt::AlignCenter);
        grid->addWidget(title, 0, 0, 1, std::max(1, chart.columns));
        row0 = 1;
    }
    for (qsizetype i = 0; i < chart.children.size(); ++i) {
        auto* child = new ChartViewer(m_composite);
        child->toolBar()->hide();
        child->showChart(chart.children.at(i));
        const ChartData::Cell& c = chart.cells.value(i);
        grid->addWidget(child, row0 + c.row, c.column, c.rowSpan, c.columnSpan);
        m_children.append(child);
    }
    for (int r = 0; r < chart.rows; ++r)
        grid->setRowStretch(row0 + r, 1);
    for (int c = 0; c < chart.columns; ++c)
        grid->setColumnStretch(c, 1);
    m_stack->addWidget(m_composite);
    m_stack->setCurrentWidget(m_composite);
}

namespace {

void applyScale(QCPAxis* axis, const ChartData::Axis& a)
{
    if (a.scale == ChartData::Scale::Log) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    }
    // symlog: QCustomPlot has no such scale; the adapter drew the values transformed on a
    // linear axis (SymlogScale), labelled here with the real values.
    if (a.scale == ChartData::Scale::Symlog)
        axis->setTicker(QSharedPointer<SymlogTicker>::create(a.linthresh));
    if (!a.tickLabels.isEmpty()) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (qsizetype i = 0; i < a.ticks.size(); ++i)
            ticker->addTick(a.ticks.at(i), a.tickLabels.value(i));
        axis->setTicker(ticker);
    }
}

} // namespace

bool ChartViewer::showChart(const ChartData& chart)
{
    clear();
    m_chart = chart;
    QCustomPlot* p = m_plot;
    if (chart.type == ChartData::Type::Composite) {
        showComposite(chart);
        m_hasChart = true;
        return true;
    }

    if (!chart.title.isEmpty()) {
        p->plotLayout()->insertRow(0);
        m_title = new QCPTextElement(p, chart.title, QFont(font().family(), font().pointSize() + 2, QFont::Bold));
        p->plotLayout()->addElement(0, 0, m_title);
    }
    p->xAxis->setLabel(chart.xLabel);
    p->yAxis->setLabel(chart.yLabel);

    if (chart.xAxis == ChartData::XAxis::DateTime) {
        auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
        ticker->setTimeZone(QTimeZone::utc());
        double lo = INFINITY, hi = -INFINITY;
        for (const auto& s : chart.series)
            for (qsizetype i = 0; i < s.size(); ++i) { lo = std::min(lo, s.key(i)); hi = std::max(hi, s.key(i)); }
        const double span = hi > lo ? hi - lo : 0;
        if (span > 3 * 365 * 86400.0)
            ticker->setDateTimeFormat(QStringLiteral("yyyy-MM"));
        else if (span > 3 * 86400.0)
            ticker->setDateTimeFormat(QStringLiteral("yyyy-MM-dd"));
        else if (span > 3 * 3600.0)
            ticker->setDateTimeFormat(QStringLiteral("MM-dd hh:mm"));
        else
            ticker->setDateTimeFormat(QStringLiteral("hh:mm:ss"));
        p->xAxis->setTicker(ticker);
    } else if (chart.xAxis == ChartData::XAxis::Category) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (qsizetype i = 0; i < chart.categories.size(); ++i)
            ticker->addTick(double(i), chart.categories.at(i));
        (chart.horizontal ? p->yAxis : p->xAxis)->setTicker(ticker);
    }
    const bool pieOrBox = chart.type == ChartData::Type::Pie || chart.type == ChartData::Type::Box;
    if (!pieOrBox) {
        if (chart.xAxis == ChartData::XAxis::Numeric || chart.horizontal)
            applyScale(p->xAxis, chart.x);
        if (!chart.horizontal)
            applyScale(p->yAxis, chart.y);
    } else if (chart.type == ChartData::Type::Box) {
        applyScale(p->yAxis, chart.y);
    }
    bool rightAxis = false;
    for (const auto& s : chart.series)
        rightAxis = rightAxis || s.rightAxis;
    if (rightAxis) {
        p->yAxis2->setVisible(true);
        p->yAxis2->setLabel(chart.y2Label);
        applyScale(p->yAxis2, chart.y2);
    }

    QCPBars* below = nullptr;
    if (chart.type == ChartData::Type::Box) {
        auto* box = new QCPStatisticalBox(p->xAxis, p->yAxis);
        box->setName(chart.yLabel.isEmpty() ? tr("values") : chart.yLabel);
        box->setWidth(0.5);
        box->setBrush(chartSeriesColor(0).lighter(140));
        box->setPen(QPen(chartSeriesColor(0).darker(130)));
        box->setWhiskerPen(QPen(palette().color(QPalette::Text), 1, Qt::DashLine));
        box->setWhiskerBarPen(QPen(palette().color(QPalette::Text)));
        box->setMedianPen(QPen(palette().color(QPalette::Text), 2));
        for (qsizetype i = 0; i < chart.boxes.size(); ++i) {
            const ChartData::Box& b = chart.boxes.at(i);
            box->addData(double(i), b.min, b.lower, b.median, b.upper, b.max, b.outliers);
        }
        m_series.append(box);
    } else if (chart.type == ChartData::Type::Pie && !chart.series.isEmpty()) {
        // No pie plottable in QCustomPlot: each slice is a filled closed curve on hidden square axes.
        const ChartData::Series& s = chart.series.constFirst();
        double total = 0;
        for (double v : s.values)
            total += v;
        double start = M_PI / 2; // first slice at twelve o'clock, clockwise like matplotlib's counterclock=False
        for (qsizetype i = 0; i < s.values.size(); ++i) {
            const double sweep = total > 0 ? 2 * M_PI * s.values.at(i) / total : 0;
            auto* curve = new QCPCurve(p->xAxis, p->yAxis);
            QVector<double> xs{0}, ys{0};
            const int steps = std::max(2, int(std::ceil(sweep / (2 * M_PI) * 180)));
            for (int k = 0; k <= steps; ++k) {
                const double a = start - sweep * k / steps;
                xs.append(std::cos(a));
                ys.append(std::sin(a));
            }
            xs.append(0);
            ys.append(0);
            curve->setData(xs, ys);
            const QColor color = chart.sliceColors.value(i).isValid() ? chart.sliceColors.value(i) : chartSeriesColor(int(i));
            curve->setPen(QPen(palette().color(QPalette::Base), 1.5));
            curve->setBrush(color);
            curve->setName(chart.categories.value(i));
            m_series.append(curve);
            start -= sweep;
        }
    }
    for (qsizetype i = 0; i < chart.series.size(); ++i) {
        if (chart.type == ChartData::Type::Pie || chart.type == ChartData::Type::Box)
            break;
        const ChartData::Series& s = chart.series.at(i);
        const QColor color = s.color.isValid() ? s.color : chartSeriesColor(int(i));
        QCPAxis* valueAxis = s.rightAxis ? p->yAxis2 : p->yAxis;
        QCPAbstractPlottable* plottable = nullptr;
        if (chart.type == ChartData::Type::Bar) {
            auto* bars = chart.horizontal ? new QCPBars(p->yAxis, p->xAxis) : new QCPBars(p->xAxis, p->yAxis);
            bars->setStackingGap(0);
            bars->setPen(QPen(color.darker(130)));
            bars->setBrush(color);
            bars->setData(s.keys, s.values, true);
            if (chart.grouped && chart.series.size() > 1) {
                // Side by side in each category, like matplotlib's offset bars.
                if (!m_barsGroup)
                    m_barsGroup = new QCPBarsGroup(p);
                bars->setWidth(0.8 / double(chart.series.size()));
                bars->setBarsGroup(m_barsGroup);
            } else {
                bars->setWidth(0.6);
                if (below)
                    bars->moveAbove(below); // groups stack on the same category
                below = bars;
            }
            plottable = bars;
        } else if (chart.type == ChartData::Type::Line && !s.sorted) {
            // x goes back and forth (a parametric curve): keep the drawing order.
            auto* curve = new QCPCurve(p->xAxis, p->yAxis);
            QVector<QCPCurveData> data(s.size());
            for (qsizetype k = 0; k < data.size(); ++k)
                data[k] = QCPCurveData(double(k), s.key(k), s.value(k));
            curve->data()->set(data, true); // shared by the container: built once, in place
            curve->setPen(QPen(color, 1.5));
            if (s.size() <= kSymbolLimit)
                curve->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
            plottable = curve;
        } else {
            auto* graph = p->addGraph(p->xAxis, valueAxis);
            // The graph's data built once from the chart's columns, in place (the container
            // shares the vector): no intermediate copy of a million points.
            QVector<QCPGraphData> data(s.size());
            for (qsizetype k = 0; k < data.size(); ++k)
                data[k] = QCPGraphData(s.key(k), s.value(k));
            graph->data()->set(data, s.sorted);
            graph->setAdaptiveSampling(true);
            if (s.mode == ChartData::Mode::Markers) {
                graph->setLineStyle(QCPGraph::lsNone);
                graph->setPen(QPen(color));
                graph->setScatterStyle(s.size() > kDotScatterLimit ? QCPScatterStyle(QCPScatterStyle::ssDot)
                                                                        : QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 6));
            } else if (s.mode == ChartData::Mode::Lines) {
                graph->setPen(QPen(color, s.size() > kSymbolLimit ? 1.0 : 1.5));
            } else if (s.mode == ChartData::Mode::LinesAndMarkers) {
                graph->setPen(QPen(color, 1.5));
                if (s.size() <= kDotScatterLimit)
                    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
            } else if (chart.type == ChartData::Type::Line) {
                graph->setPen(QPen(color, s.size() > kSymbolLimit ? 1.0 : 1.5));
                if (s.size() <= kSymbolLimit)
                    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
            } else {
                graph->setLineStyle(QCPGraph::lsNone);
                graph->setPen(QPen(color));
                if (s.size() > kDotScatterLimit)
                    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDot));
                else
                    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 6));
            }
            plottable = graph;
        }
        plottable->setName(s.label);
        m_series.append(plottable);
        if (!s.errorMinus.isEmpty() && s.errorMinus.size() == s.size()) {
            auto* errors = new QCPErrorBars(plottable->keyAxis(), plottable->valueAxis());
            errors->removeFromLegend();
            errors->setDataPlottable(plottable);
            QVector<double> minus = s.errorMinus, plus = s.errorPlus;
            for (qsizetype k = 0; k < minus.size(); ++k) { // a missing error bar is none
                if (std::isnan(minus[k]))
                    minus[k] = 0;
                if (std::isnan(plus[k]))
                    plus[k] = 0;
            }
            errors->setData(minus, plus);
            errors->setPen(QPen(color.darker(150), 1));
            errors->setWhiskerWidth(6);
        }
    }
    // Keep only the labels: the plottables own the data now (a million points need no second copy).
    m_pieValues = chart.type == ChartData::Type::Pie && !chart.series.isEmpty() ? chart.series.constFirst().values
                                                                                : QVector<double>();
    for (auto& s : m_chart.series) {
        s.keys = {};
        s.values = {};
        s.owner.reset();
        s.xs = s.ys = nullptr;
    }

    p->legend->setVisible(chart.type == ChartData::Type::Pie
                          || (chart.type != ChartData::Type::Box && !m_series.isEmpty()
                              && (m_series.size() > 1 || !chart.series.constFirst().label.startsWith(QLatin1String("Series ")))));
    const bool pie = chart.type == ChartData::Type::Pie;
    for (QCPAxis* a : {p->xAxis, p->yAxis})
        a->setVisible(!pie);
    p->setInteractions(pie ? QCP::Interactions() : QCP::Interactions(QCP::iRangeDrag | QCP::iRangeZoom));
    if (p->legend->visible()) {
        const int row = m_title ? 1 : 0;
        p->plotLayout()->insertRow(row);
        p->plotLayout()->addElement(row, 0, m_legendRow);
        p->plotLayout()->setRowStretchFactor(row, 0.001);
    }

    // The default view: all data, a little air, bars from zero, categories with half a slot each side.
    p->rescaleAxes();
    QCPRange x = p->xAxis->range();
    QCPRange y = p->yAxis->range();
    if (chart.horizontal) { // the same view turned: categories on y, values on x
        y = QCPRange(-0.5, std::max<double>(0.5, double(chart.categories.size()) - 0.5));
        x.lower = std::min(0.0, x.lower);
        x.upper = std::max(0.0, x.upper);
        const double air = x.size() > 0 ? x.size() * 0.05 : 1.0;
        x = QCPRange(x.lower < 0 ? x.lower - air : 0, x.upper > 0 ? x.upper + air : 1);
        if (chart.x.hasLimits)
            x = QCPRange(chart.x.lower, chart.x.upper);
    } else if (chart.xAxis == ChartData::XAxis::Category) {
        x = QCPRange(-0.5, std::max<double>(0.5, double(chart.categories.size()) - 0.5));
    } else if (m_series.isEmpty() || x.size() == 0) {
        x = QCPRange(x.lower - 1, x.upper + 1);
    }
    if (pie) {
        x = QCPRange(-1.1, 1.1);
        y = QCPRange(-1.1, 1.1);
    }
    if (chart.type == ChartData::Type::Bar && !chart.horizontal) {
        y.lower = std::min(0.0, y.lower);
        y.upper = std::max(0.0, y.upper);
    }
    const double pad = y.size() > 0 ? y.size() * 0.05 : 1.0;
    if (chart.horizontal) {
        // set above
    } else if (chart.type == ChartData::Type::Bar) {
        y = QCPRange(y.lower < 0 ? y.lower - pad : 0, y.upper > 0 ? y.upper + pad : 0);
        if (y.size() == 0)
            y = QCPRange(0, 1);
    } else {
        y = QCPRange(y.lower - pad, y.upper + pad);
    }
    // Air left and right too, so that the first and last points (and their markers) are whole.
    if ((chart.type == ChartData::Type::Scatter || chart.type == ChartData::Type::Line) &&
        chart.xAxis != ChartData::XAxis::Category && x.size() > 0) {
        const double air = x.size() * (chart.type == ChartData::Type::Scatter ? 0.03 : 0.02);
        x = QCPRange(x.lower - air, x.upper + air);
    }
    // An extracted figure: the view it showed.
    if (!chart.horizontal && !pie) {
        if (chart.x.hasLimits && chart.xAxis != ChartData::XAxis::Category)
            x = QCPRange(chart.x.lower, chart.x.upper);
        if (chart.y.hasLimits)
            y = QCPRange(chart.y.lower, chart.y.upper);
    }
    if (rightAxis) {
        p->yAxis2->rescale();
        QCPRange y2 = p->yAxis2->range();
        const double air = y2.size() > 0 ? y2.size() * 0.05 : 1.0;
        const QCPRange shown = chart.y2.hasLimits ? QCPRange(chart.y2.lower, chart.y2.upper) : QCPRange(y2.lower - air, y2.upper + air);
        m_y2Lower = shown.lower;
        m_y2Upper = shown.upper;
    }
    m_hasY2 = rightAxis;
    m_xLower = x.lower;
    m_xUpper = x.upper;
    m_yLower = y.lower;
    m_yUpper = y.upper;
    m_hasChart = true;
    applyPalette();
    resetView();
    m_stack->setCurrentWidget(m_plot);
    return true;
}

void ChartViewer::resetView()
{
    for (ChartViewer* child : std::as_const(m_children))
        child->resetView();
    m_plot->xAxis->setRange(m_xLower, m_xUpper);
    m_plot->yAxis->setRange(m_yLower, m_yUpper);
    if (m_hasY2)
        m_plot->yAxis2->setRange(m_y2Lower, m_y2Upper);
    if (m_chart.type == ChartData::Type::Pie && m_hasChart) {
        // A round pie: both axes get the same scale; the layout must be current for that.
        m_plot->replot();
        m_plot->xAxis->setScaleRatio(m_plot->yAxis, 1.0);
    }
    m_plot->replot();
}

void ChartViewer::setSeriesVisible(int index, bool visible)
{
    if (index < 0 || index >= m_series.size())
        return;
    QCPAbstractPlottable* plottable = m_series.at(index);
    if (plottable->visible() == visible)
        return;
    plottable->setVisible(visible);
    if (QCPPlottableLegendItem* item = m_plot->legend->itemWithPlottable(plottable)) {
        QColor text = palette().color(QPalette::Text);
        if (!visible)
            text = palette().color(QPalette::Disabled, QPalette::Text);
        item->setTextColor(text);
        QFont f = item->font();
        f.setStrikeOut(!visible);
        item->setFont(f);
    }
    m_plot->replot();
    emit seriesVisibilityChanged(index, visible);
}

void ChartViewer::onLegendClick(QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*)
{
    auto* pli = qobject_cast<QCPPlottableLegendItem*>(item);
    if (!pli)
        return;
    const int index = int(m_series.indexOf(pli->plottable()));
    setSeriesVisible(index, !pli->plottable()->visible());
}

QString ChartViewer::formatKey(double key) const
{
    switch (m_chart.xAxis) {
    case ChartData::XAxis::DateTime: {
        const QDateTime dt = QDateTime::fromMSecsSinceEpoch(qint64(std::llround(key * 1000.0)), QTimeZone::utc());
        return dt.time() == QTime(0, 0) ? dt.date().toString(Qt::ISODate) : dt.toString(Qt::ISODate);
    }
    case ChartData::XAxis::Category: {
        const qsizetype i = qsizetype(std::llround(key));
        return i >= 0 && i < m_chart.categories.size() ? m_chart.categories.at(i) : formatNumber(key);
    }
    case ChartData::XAxis::Numeric:
        break;
    }
    return formatNumber(key);
}

QString ChartViewer::pointDescription(QCPAbstractPlottable* plottable, int dataIndex) const
{
    if (!plottable || !plottable->interface1D() || dataIndex < 0 || dataIndex >= plottable->interface1D()->dataCount())
        return {};
    QCPPlottableInterface1D* data = plottable->interface1D();
    if (m_chart.type == ChartData::Type::Pie) {
        const qsizetype slice = m_series.indexOf(plottable);
        double total = 0;
        for (double v : m_pieValues)
            total += v;
        if (slice < 0 || slice >= m_pieValues.size())
            return {};
        const double v = m_pieValues.at(slice);
        return QStringLiteral("<b>%1</b><br>%2 (%3%)")
            .arg(plottable->name().toHtmlEscaped(), formatNumber(v),
                 QString::number(total > 0 ? 100.0 * v / total : 0, 'f', 1));
    }
    // The real values of a symlog axis (drawn transformed: SymlogScale).
    const auto real = [this](const QCPAxis* axis, double v) {
        const ChartData::Axis& a = axis == m_plot->yAxis2 ? m_chart.y2 : axis == m_plot->xAxis ? m_chart.x : m_chart.y;
        const bool numeric = axis != m_plot->xAxis || m_chart.xAxis == ChartData::XAxis::Numeric || m_chart.horizontal;
        return a.scale == ChartData::Scale::Symlog && numeric ? SymlogScale{a.linthresh}.inverse(v) : v;
    };
    if (auto* box = qobject_cast<QCPStatisticalBox*>(plottable)) {
        const QCPStatisticalBoxData& b = *(box->data()->at(dataIndex));
        const QCPAxis* y = box->valueAxis();
        return QStringLiteral("<b>%1</b><br>max %2<br>Q3 %3<br>median %4<br>Q1 %5<br>min %6")
            .arg(formatKey(b.key).toHtmlEscaped(), formatNumber(real(y, b.maximum)), formatNumber(real(y, b.upperQuartile)),
                 formatNumber(real(y, b.median)), formatNumber(real(y, b.lowerQuartile)), formatNumber(real(y, b.minimum)));
    }
    const QString xName = m_chart.xLabel.isEmpty() ? QStringLiteral("x") : m_chart.xLabel;
    const QString yName = m_chart.yLabel.isEmpty() ? QStringLiteral("y") : m_chart.yLabel;
    return QStringLiteral("<b>%1</b><br>%2: %3<br>%4: %5")
        .arg(plottable->name().toHtmlEscaped(), xName.toHtmlEscaped(),
             formatKey(real(plottable->keyAxis(), data->dataMainKey(dataIndex))).toHtmlEscaped(), yName.toHtmlEscaped(),
             formatNumber(real(plottable->valueAxis(), data->dataMainValue(dataIndex))));
}

QString ChartViewer::toolTipAt(const QPointF& pos) const
{
    if (!m_hasChart)
        return {};
    int index = -1;
    QCPAbstractPlottable* plottable = m_plot->plottableAt(pos, false, &index);
    if (!plottable || !plottable->visible())
        return {};
    return pointDescription(plottable, index);
}

void ChartViewer::onPlotMouseMove(QMouseEvent* event)
{
    if (event->buttons() != Qt::NoButton) { // panning: no tooltip
        m_toolTipTimer->stop();
        return;
    }
    // Finding the nearest point of a million-point line costs about a replot: do it once the
    // mouse pauses, not on every move event.
    m_toolTipPos = event->position();
    m_toolTipTimer->start();
}

void ChartViewer::updateToolTip()
{
    const QString text = toolTipAt(m_toolTipPos);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(m_plot->mapToGlobal(m_toolTipPos.toPoint()), text, m_plot);
}

bool ChartViewer::exportPng(const QString& path, int width, int height, int dpi)
{
    if (width <= 0 || height <= 0 || dpi <= 0)
        return false;
    if (m_composite) {
        QImage image = renderImage(width, height, dpi / 96.0);
        image.setDotsPerMeterX(int(std::lround(dpi / 0.0254)));
        image.setDotsPerMeterY(int(std::lround(dpi / 0.0254)));
        return image.save(path, "PNG");
    }
    return m_plot->savePng(path, width, height, dpi / 96.0, -1, dpi, QCP::ruDotsPerInch);
}

bool ChartViewer::exportPdf(const QString& path, int width, int height)
{
    if (width <= 0 || height <= 0)
        return false;
    if (m_composite) {
        // The grid of charts, drawn as vectors into one page of the chart's size.
        QPdfWriter writer(path);
        writer.setCreator(QStringLiteral("Sandpad"));
        writer.setTitle(m_chart.title);
        writer.setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setResolution(72);
        const QSize before = m_composite->size();
        m_composite->resize(width, height);
        layoutComposite();
        QPainter painter;
        if (!painter.begin(&writer))
            return false;
        m_composite->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
        painter.end();
        m_composite->resize(before);
        return true;
    }
    return m_plot->savePdf(path, width, height, QCP::epNoCosmetic, QStringLiteral("Sandpad"), m_chart.title);
}

void ChartViewer::layoutComposite()
{
    if (QLayout* l = m_composite->layout())
        l->activate();
    for (ChartViewer* child : std::as_const(m_children)) {
        child->m_plot->resize(child->m_plot->size().expandedTo(QSize(1, 1)));
        child->resetView();
    }
}

QImage ChartViewer::renderImage(int width, int height, double scale)
{
    if (m_composite) {
        const QSize before = m_composite->size();
        m_composite->resize(width, height);
        layoutComposite();
        QImage image(QSize(width, height) * scale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(palette().color(QPalette::Base));
        m_composite->render(&image, QPoint(), QRegion(), QWidget::DrawChildren);
        m_composite->resize(before);
        image.setDevicePixelRatio(1.0);
        return image;
    }
    return m_plot->toPixmap(width, height, scale).toImage();
}

void ChartViewer::copyToClipboard()
{
    const qreal dpr = devicePixelRatioF();
    QWidget* shown = m_composite ? m_composite : static_cast<QWidget*>(m_plot);
    QApplication::clipboard()->setImage(renderImage(shown->width(), shown->height(), dpr));
}

void ChartViewer::exportWithDialog()
{
    if (!m_hasChart)
        return;
    ChartExportDialog dialog(m_exportSize.isValid() ? m_exportSize : ChartExportDialog::defaultSize(),
                             m_composite ? m_composite->size() : m_plot->size(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const bool pdf = dialog.format() == ChartExportDialog::Format::Pdf;
    QString base = m_chart.title.isEmpty() ? QStringLiteral("chart") : m_chart.title;
    base.replace(QRegularExpression(QStringLiteral("[^\\w\\- ]+")), QStringLiteral("_"));
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), base + (pdf ? QStringLiteral(".pdf") : QStringLiteral(".png")),
        pdf ? tr("PDF documents (*.pdf)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    const bool ok = pdf ? exportPdf(path, dialog.width(), dialog.height())
                        : exportPng(path, dialog.width(), dialog.height(), dialog.dpi());
    if (!ok)
        QMessageBox::warning(this, tr("Export chart"), tr("Could not write %1.").arg(path));
    else
        emit exported(path, dialog.outputSize());
}

void ChartViewer::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        applyPalette();
        m_plot->replot();
    }
}

void ChartViewer::applyPalette()
{
    // Colours from the palette so that a dark desktop theme gives a dark chart.
    const QPalette pal = palette();
    const QColor base = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    const QColor axis = pal.color(QPalette::WindowText);
    QColor grid = text;
    grid.setAlpha(40);
    m_plot->setBackground(base);
    for (QCPAxis* a : {m_plot->xAxis, m_plot->yAxis, m_plot->xAxis2, m_plot->yAxis2}) {
        a->setBasePen(QPen(axis));
        a->setTickPen(QPen(axis));
        a->setSubTickPen(QPen(axis));
        a->setTickLabelColor(text);
        a->setLabelColor(text);
        a->grid()->setPen(QPen(grid, 1, Qt::DotLine));
        a->grid()->setZeroLinePen(QPen(grid, 1));
    }
    m_plot->legend->setBrush(Qt::NoBrush); // a line of entries above the plot, not a box on it
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setTextColor(text);
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(m_plot->legend->item(i));
        if (item)
            item->setTextColor(item->plottable()->visible() ? text : pal.color(QPalette::Disabled, QPalette::Text));
    }
    if (m_title)
        m_title->setTextColor(text);
    m_errorLabel->setStyleSheet(QStringLiteral("color: %1;").arg(pal.color(QPalette::WindowText).name()));
}

} // namespace sandpad
