#pragma once

#include <QDialog>
#include <QSize>

class QComboBox;
class QLabel;
class QSpinBox;

namespace sandpad {

// Asks for the export format, the chart's size (logical pixels) and the PNG resolution (DPI).
// The size starts from defaultSize(), never from the pane's size (which depends on the window);
// a choice of sizes offers it, the chart as shown, Full HD and Custom.
class ChartExportDialog : public QDialog {
    Q_OBJECT
public:
    enum class Format { Png, Pdf };
    static constexpr QSize kStandardSize{1600, 1000};

    // A figure's own size (its picture, as the run drew it) for a chart extracted from one, else
    // kStandardSize.
    static QSize defaultSize(const QByteArray& figurePng = {});
    // "Saved chart.png, 1600×1000" (the file's name and the image's pixels, or a PDF's points).
    static QString savedMessage(const QString& path, QSize size);

    // shownSize: the chart as it is on screen (offered as a choice, not the default).
    explicit ChartExportDialog(QSize initialSize, QSize shownSize = {}, QWidget* parent = nullptr);

    Format format() const;
    int width() const;
    int height() const;
    int dpi() const;
    // What the file will measure: a PNG's pixels (the size scaled by dpi / 96), a PDF's points.
    QSize outputSize() const;
    void setFormat(Format format);
    void setDpi(int dpi);
    QComboBox* sizeChoice() const { return m_size; }

private:
    void updateSummary();
    void applySizeChoice(int index);
    void matchSizeChoice();
    QComboBox* m_format = nullptr;
    QComboBox* m_size = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QSpinBox* m_dpi = nullptr;
    QLabel* m_summary = nullptr;
    bool m_applying = false;
};

} // namespace sandpad
