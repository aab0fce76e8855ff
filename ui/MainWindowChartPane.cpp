#include "MainWindowChartPane.h"

#include "charts/ChartViewer.h"
#include "console/ChartThumbnail.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace sandpad {

namespace {
// Stand-in for the image view until ui/charts provides one (PngView): a scaled QLabel.
class SimplePngView : public QScrollArea {
public:
    explicit SimplePngView(QWidget* parent) : QScrollArea(parent), m_label(new QLabel)
    {
        setAccessibleName(tr("Chart image"));
        m_label->setAlignment(Qt::AlignCenter);
        setWidget(m_label);
        setWidgetResizable(true);
        setAlignment(Qt::AlignCenter);
    }
    void setPng(const QByteArray& png)
    {
        m_image.loadFromData(png, "PNG");
        rescale();
    }
    bool hasImage() const { return !m_image.isNull(); }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QScrollArea::resizeEvent(event);
        rescale();
    }

private:
    void rescale()
    {
        if (m_image.isNull()) {
            m_label->clear();
            return;
        }
        const qreal dpr = devicePixelRatioF();
        const QSize target = viewport()->size() * dpr;
        QImage scaled = m_image.size().width() > target.width() || m_image.size().height() > target.height()
                            ? m_image.scaled(target, Qt::KeepAspectRatio, Qt::SmoothTransformation)
                            : m_image;
        QPixmap pixmap = QPixmap::fromImage(scaled);
        pixmap.setDevicePixelRatio(dpr);
        m_label->setPixmap(pixmap);
    }
    QLabel* m_label;
    QImage m_image;
};
} // namespace

MainWindowChartPane::MainWindowChartPane(QWidget* parent)
    : QWidget(parent), m_strip(new QListWidget(this)), m_stack(new QStackedWidget(this)),
      m_empty(new QLabel(tr("Charts of the selected run appear here."), this)),
      m_viewer(new ChartViewer(this)), m_pngView(new SimplePngView(this))
{
    setAccessibleName(tr("Charts"));
    m_strip->setAccessibleName(tr("Charts of the selected run"));
    m_strip->setViewMode(QListView::IconMode);
    m_strip->setFlow(QListView::LeftToRight);
    m_strip->setWrapping(false);
    m_strip->setMovement(QListView::Static);
    m_strip->setIconSize(QSize(96, 64));
    m_strip->setFixedHeight(96);
    m_strip->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_strip->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_strip->hide();
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_viewer);
    m_stack->addWidget(m_pngView);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_strip);
    connect(m_strip, &QListWidget::currentRowChanged, this, &MainWindowChartPane::showChart);
}

void MainWindowChartPane::showRun(const RunRecord& record)
{
    m_record = record;
    m_current = -1;
    {
        const QSignalBlocker block(m_strip);
        m_strip->clear();
        for (int i = 0; i < record.charts.size(); ++i) {
            auto* item = new QListWidgetItem(QIcon(ChartThumbnail::render(record.charts[i], QSize(96, 64), palette())),
                                             QString(), m_strip);
            item->setToolTip(tr("Chart %1").arg(i + 1));
        }
    }
    m_strip->setVisible(record.charts.size() > 1);
    if (record.charts.isEmpty())
        m_stack->setCurrentWidget(m_empty);
    else
        showChart(0);
}

void MainWindowChartPane::showChart(int index)
{
    if (index < 0 || index >= m_record.charts.size())
        return;
    m_current = index;
    {
        const QSignalBlocker block(m_strip);
        m_strip->setCurrentRow(index);
    }
    const RunChartRecord& chart = m_record.charts[index];
    if (chart.kind == RunChartRecord::Kind::Png) {
        static_cast<SimplePngView*>(m_pngView)->setPng(chart.png);
        m_stack->setCurrentWidget(m_pngView);
    } else {
        m_viewer->showSpec(QJsonDocument::fromJson(chart.specJson.toUtf8()).object());
        m_stack->setCurrentWidget(m_viewer);
    }
}

} // namespace sandpad
