#include "ui/charts/PngView.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QToolBar>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace sandpad {

namespace {

constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 16.0;
constexpr double kStep = 1.25;

// Paints the image into its own logical size; QPainter maps to device pixels, so at zoom 1.0 on a
// 2x screen each image pixel lands on exactly one device pixel.
class ImageCanvas : public QWidget {
public:
    explicit ImageCanvas(const QImage* image, QWidget* parent)
        : QWidget(parent), m_image(image) {}

protected:
    void paintEvent(QPaintEvent*) override
    {
        if (m_image->isNull())
            return;
        QPainter p(this);
        const QRectF target(QPointF(0, 0), QSizeF(size()));
        const QSizeF device = target.size() * devicePixelRatioF();
        const bool exact = std::abs(device.width() - m_image->width()) < 0.5;
        p.setRenderHint(QPainter::SmoothPixmapTransform, !exact && device.width() < m_image->width());
        p.drawImage(target, *m_image);
    }

private:
    const QImage* m_image;
};

} // namespace

PngView::PngView(QWidget* parent)
    : QWidget(parent)
{
    setAccessibleName(tr("Image viewer"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    m_toolBar = new QToolBar(this);
    m_toolBar->setIconSize(QSize(16, 16));
    m_toolBar->setAccessibleName(tr("Image tools"));
    auto add = [this](const QString& text, const QKeySequence& key, auto slot) {
        QAction* a = m_toolBar->addAction(text);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        a->setToolTip(QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    add(tr("Fit"), QKeySequence(Qt::CTRL | Qt::Key_9), &PngView::fitToPane);
    add(tr("100%"), QKeySequence(Qt::CTRL | Qt::Key_0), &PngView::actualSize);
    add(tr("Zoom in"), QKeySequence::ZoomIn, &PngView::zoomIn);
    add(tr("Zoom out"), QKeySequence::ZoomOut, &PngView::zoomOut);
    m_toolBar->addSeparator();
    QAction* save = add(tr("Save…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), &PngView::saveWithDialog);
    save->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    add(tr("Copy"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), &PngView::copyToClipboard);
    m_zoomLabel = new QLabel(this);
    m_zoomLabel->setContentsMargins(8, 0, 8, 0);
    m_toolBar->addWidget(m_zoomLabel);
    layout->addWidget(m_toolBar);

    m_scroll = new QScrollArea(this);
    m_scroll->setAlignment(Qt::AlignCenter);
    m_scroll->setWidgetResizable(false);
    m_scroll->setFocusPolicy(Qt::StrongFocus);
    m_scroll->setAccessibleName(tr("Image"));
    m_canvas = new ImageCanvas(&m_image, m_scroll);
    m_scroll->setWidget(m_canvas);
    m_scroll->viewport()->installEventFilter(this);
    layout->addWidget(m_scroll, 1);
    updateCanvas();
}

bool PngView::setPng(const QByteArray& png)
{
    QImage image;
    if (!image.loadFromData(png, "PNG")) {
        setImage(QImage());
        m_zoomLabel->setText(tr("Not a readable PNG image"));
        return false;
    }
    setImage(image);
    return true;
}

void PngView::setImage(const QImage& image)
{
    m_image = image;
    m_fit = true;
    updateCanvas();
}

void PngView::clear()
{
    setImage(QImage());
}

double PngView::fitZoom() const
{
    if (m_image.isNull())
        return 1.0;
    const QSize area = m_scroll->viewport()->size() - QSize(2, 2);
    const double dpr = devicePixelRatioF();
    const double z = std::min(area.width() * dpr / m_image.width(), area.height() * dpr / m_image.height());
    return std::clamp(z, kMinZoom, 1.0);
}

QSize PngView::displayedSize() const
{
    return m_canvas->size();
}

void PngView::updateCanvas()
{
    if (m_fit)
        m_zoom = fitZoom();
    if (m_image.isNull()) {
        m_canvas->resize(0, 0);
        m_zoomLabel->clear();
        return;
    }
    const double dpr = devicePixelRatioF();
    const QSize logical(std::max(1, int(std::lround(m_image.width() * m_zoom / dpr))),
                        std::max(1, int(std::lround(m_image.height() * m_zoom / dpr))));
    m_canvas->resize(logical);
    m_canvas->update();
    m_zoomLabel->setText(QStringLiteral("%1 %2% · %3×%4")
                             .arg(m_fit ? tr("Fit") : QString())
                             .arg(std::lround(m_zoom * 100))
                             .arg(m_image.width())
                             .arg(m_image.height())
                             .trimmed());
    emit zoomChanged(m_zoom);
}

void PngView::fitToPane()
{
    m_fit = true;
    updateCanvas();
}

void PngView::actualSize()
{
    setZoom(1.0);
}

void PngView::setZoom(double zoom)
{
    m_fit = false;
    m_zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    updateCanvas();
}

void PngView::zoomIn()
{
    setZoom(m_zoom * kStep);
}

void PngView::zoomOut()
{
    setZoom(m_zoom / kStep);
}

bool PngView::save(const QString& path) const
{
    return !m_image.isNull() && m_image.save(path, "PNG");
}

void PngView::copyToClipboard()
{
    if (!m_image.isNull())
        QApplication::clipboard()->setImage(m_image);
}

void PngView::saveWithDialog()
{
    if (m_image.isNull())
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save image"), QStringLiteral("figure.png"),
                                                      tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    if (!save(path))
        QMessageBox::warning(this, tr("Save image"), tr("Could not write %1.").arg(path));
    else
        emit saved(path, m_image.size());
}

bool PngView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_scroll->viewport() && event->type() == QEvent::Wheel) {
        auto* wheel = static_cast<QWheelEvent*>(event);
        if (wheel->modifiers() & Qt::ControlModifier) {
            const int delta = wheel->angleDelta().y();
            if (delta != 0) {
                // Keep the point under the cursor where it is.
                const QPointF pos = wheel->position();
                QScrollBar* h = m_scroll->horizontalScrollBar();
                QScrollBar* v = m_scroll->verticalScrollBar();
                const QPointF before((h->value() + pos.x() - m_canvas->x()) / std::max(1, m_canvas->width()),
                                     (v->value() + pos.y() - m_canvas->y()) / std::max(1, m_canvas->height()));
                setZoom(m_zoom * std::pow(kStep, delta / 120.0));
                h->setValue(int(before.x() * m_canvas->width() - pos.x()));
                v->setValue(int(before.y() * m_canvas->height() - pos.y()));
            }
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PngView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (m_fit)
        updateCanvas();
}

} // namespace sandpad
