#pragma once

#include <QImage>
#include <QWidget>

class QLabel;
class QScrollArea;
class QToolBar;

namespace sandpad {

// Shows a PNG (a matplotlib figure): fit to the pane, 100 %, zoom in/out (buttons, Ctrl+wheel,
// Ctrl++/Ctrl+-), save and copy. Zoom 1.0 is one image pixel per device pixel, so a figure
// stays sharp on HiDPI screens; "fit" never enlarges beyond that.
class PngView : public QWidget {
    Q_OBJECT
public:
    explicit PngView(QWidget* parent = nullptr);

    bool setPng(const QByteArray& png);   // false (and an error text shown) when not a readable image
    void setImage(const QImage& image);
    void clear();
    QImage image() const { return m_image; }
    bool hasImage() const { return !m_image.isNull(); }

    double zoom() const { return m_zoom; }  // image pixels -> device pixels
    bool fitMode() const { return m_fit; }
    QSize displayedSize() const;            // logical pixels on screen
    bool save(const QString& path) const;
    QToolBar* toolBar() const { return m_toolBar; }

public slots:
    void fitToPane();
    void actualSize();
    void zoomIn();
    void zoomOut();
    void setZoom(double zoom);
    void copyToClipboard();
    void saveWithDialog();

signals:
    void zoomChanged(double zoom);
    void saved(const QString& path, QSize size); // Save… wrote the picture

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateCanvas();
    double fitZoom() const;

    QToolBar* m_toolBar = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_canvas = nullptr;
    QLabel* m_zoomLabel = nullptr;
    QImage m_image;
    double m_zoom = 1.0;
    bool m_fit = true;
};

} // namespace sandpad
