#include "ui/charts/ChartPane.h"

#include "ui/charts/ChartExportDialog.h"
#include "ui/charts/ChartSpecAdapter.h"
#include "ui/charts/ChartViewer.h"
#include "ui/charts/PngView.h"
#include "ui/shortcuts/PaneShortcuts.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QButtonGroup>
#include <QHBoxLayout>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace sandpad {

ChartPane::ChartPane(QWidget* parent)
    : QWidget(parent)
{
    setAccessibleName(tr("Charts"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    m_strip = new QListWidget(this);
    m_strip->setAccessibleName(tr("Chart thumbnails"));
    m_strip->setViewMode(QListView::IconMode);
    m_strip->setFlow(QListView::LeftToRight);
    m_strip->setWrapping(false);
    m_strip->setMovement(QListView::Static);
    m_strip->setResizeMode(QListView::Adjust);
    m_strip->setIconSize(thumbnailSize());
    m_strip->setUniformItemSizes(true);
    m_strip->setSelectionMode(QAbstractItemView::SingleSelection);
    m_strip->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_strip->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_strip->setFixedHeight(thumbnailSize().height() + fontMetrics().height() + 28);
    connect(m_strip, &QListWidget::currentRowChanged, this, &ChartPane::selectChart);
    layout->addWidget(m_strip);

    m_toggle = new QWidget(this);
    auto* toggleLayout = new QHBoxLayout(m_toggle);
    toggleLayout->setContentsMargins(4, 0, 4, 0);
    toggleLayout->setSpacing(0);
    auto* group = new QButtonGroup(m_toggle);
    const auto makeButton = [&](const QString& text, const QString& tip) {
        auto* b = new QToolButton(m_toggle);
        b->setText(text);
        b->setToolTip(tip);
        b->setCheckable(true);
        b->setAutoRaise(true);
        group->addButton(b);
        toggleLayout->addWidget(b);
        return b;
    };
    m_interactiveButton = makeButton(tr("Interactive"), tr("The chart drawn from the figure's data: zoom, pan, tooltips"));
    m_pictureButton = makeButton(tr("Picture"), tr("The figure as matplotlib drew it"));
    toggleLayout->addStretch(1);
    connect(m_interactiveButton, &QToolButton::clicked, this, [this] { setShowInteractive(true); });
    connect(m_pictureButton, &QToolButton::clicked, this, [this] { setShowInteractive(false); });
    m_toggle->setAccessibleName(tr("Picture or interactive chart"));
    layout->addWidget(m_toggle);

    m_stack = new QStackedWidget(this);
    m_viewer = new ChartViewer(m_stack);
    m_pngView = new PngView(m_stack);
    connect(m_viewer, &ChartViewer::exported, this, &ChartPane::chartExported);
    connect(m_pngView, &PngView::saved, this, &ChartPane::chartExported);
    m_empty = new QLabel(tr("This run made no charts."), m_stack);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setEnabled(false);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_viewer);
    m_stack->addWidget(m_pngView);
    layout->addWidget(m_stack, 1);
    // The shown view's keys (Export…, Copy, Reset view...) anywhere in the pane, over the
    // window's: Ctrl+Shift+S exports the chart here and is File > Save to File elsewhere.
    PaneShortcuts::install(this, [this] { return currentView()->findChildren<QAction*>(); });
    setCharts({});
}

QWidget* ChartPane::currentView() const
{
    return m_stack->currentWidget();
}

QIcon ChartPane::thumbnailFor(int index, QString* title)
{
    const RunChart& chart = m_charts.at(index);
    const QSize size = thumbnailSize();
    QImage thumb;
    if (chart.kind == RunChart::Kind::Png) {
        // The thumbnail says which a figure is: a picture only, or an interactive chart too.
        *title = m_data.at(index) ? tr("Figure %1 · interactive").arg(index + 1) : tr("Figure %1 · picture").arg(index + 1);
        QImage image;
        if (image.loadFromData(chart.png, "PNG"))
            thumb = image.scaled(size * devicePixelRatioF(), Qt::KeepAspectRatio, Qt::SmoothTransformation);
    } else {
        if (!m_thumbnailRenderer) {
            m_thumbnailRenderer = new ChartViewer(this);
            m_thumbnailRenderer->hide();
            for (QAction* a : m_thumbnailRenderer->findChildren<QAction*>())
                a->setShortcuts({}); // it only draws: no keys of its own (nor rows in the shortcut sheet)
        }
        m_thumbnailRenderer->setPalette(palette());
        const QString t = chart.title();
        *title = t.isEmpty() ? tr("Chart %1").arg(index + 1) : t;
        if (const std::optional<ChartData>& data = m_data.at(index); data && m_thumbnailRenderer->showChart(*data)) {
            // Drawn at twice the thumbnail size and scaled: axis text stays legible enough.
            thumb = m_thumbnailRenderer->renderImage(size.width() * 2, size.height() * 2, 1.0)
                        .scaled(size * devicePixelRatioF(), Qt::KeepAspectRatio, Qt::SmoothTransformation);
        }
        m_thumbnailRenderer->clear();
    }
    if (thumb.isNull()) {
        // Unreadable chart: a warning sign, the pane shows the error when selected.
        return style()->standardIcon(QStyle::SP_MessageBoxWarning);
    }
    thumb.setDevicePixelRatio(devicePixelRatioF());
    return QIcon(QPixmap::fromImage(thumb));
}

void ChartPane::setCharts(const QList<RunChart>& charts)
{
    m_charts = charts;
    m_data.clear();
    for (const RunChart& chart : charts) {
        // Validated when the run was collected (or read back): drawn from its own columns.
        m_data.append(chart.spec ? std::optional<ChartData>(ChartSpecAdapter::fromSpec(chart.spec)) : std::nullopt);
    }
    m_picture = QList<bool>(charts.size(), false);
    m_current = -1;
    {
        const QSignalBlocker blocker(m_strip);
        m_strip->clear();
        for (int i = 0; i < int(charts.size()); ++i) {
            QString title;
            const QIcon icon = thumbnailFor(i, &title);
            auto* item = new QListWidgetItem(icon, title, m_strip);
            item->setToolTip(title);
            item->setSizeHint(QSize(thumbnailSize().width() + 12, thumbnailSize().height() + fontMetrics().height() + 12));
        }
    }
    m_strip->setVisible(charts.size() > 1);
    m_viewer->clear();
    m_pngView->clear();
    if (charts.isEmpty()) {
        m_toggle->hide();
        m_stack->setCurrentWidget(m_empty);
        emit currentChartChanged(-1);
        return;
    }
    selectChart(0);
}

void ChartPane::selectChart(int index)
{
    if (index < 0 || index >= int(m_charts.size()) || index == m_current)
        return;
    m_current = index;
    {
        const QSignalBlocker blocker(m_strip);
        m_strip->setCurrentRow(index);
    }
    showCurrent();
    emit currentChartChanged(index);
}

bool ChartPane::showsInteractive() const
{
    return m_current >= 0 && m_data.at(m_current) && !m_picture.at(m_current);
}

void ChartPane::setShowInteractive(bool interactive)
{
    if (m_current < 0 || m_charts.at(m_current).kind != RunChart::Kind::Png || !m_data.at(m_current))
        return;
    if (m_picture[m_current] == !interactive)
        return;
    m_picture[m_current] = !interactive;
    showCurrent();
}

void ChartPane::showCurrent()
{
    const int index = m_current;
    const RunChart& chart = m_charts.at(index);
    const bool extracted = chart.kind == RunChart::Kind::Png && m_data.at(index);
    m_toggle->setVisible(extracted);
    // Exported at the figure's own size when it came from one, not at the pane's.
    m_viewer->setExportSize(ChartExportDialog::defaultSize(extracted ? chart.png : QByteArray()));
    if (extracted) {
        m_interactiveButton->setChecked(!m_picture.at(index));
        m_pictureButton->setChecked(m_picture.at(index));
    }
    if (extracted && !m_picture.at(index)) {
        m_pngView->clear();
        m_viewer->showChart(*m_data.at(index));
        m_stack->setCurrentWidget(m_viewer);
    } else if (chart.kind == RunChart::Kind::Png) {
        m_viewer->clear();
        if (!m_pngView->setPng(chart.png)) {
            m_viewer->clear();
        }
        m_stack->setCurrentWidget(m_pngView);
    } else {
        m_pngView->clear();
        if (const std::optional<ChartData>& data = m_data.at(index))
            m_viewer->showChart(*data);
        else
            m_viewer->showError(tr("This chart could not be read back: it does not fit the chart schema."));
        m_stack->setCurrentWidget(m_viewer);
    }
}

} // namespace sandpad
