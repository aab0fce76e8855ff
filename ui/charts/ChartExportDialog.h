#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QSpinBox;

namespace sandpad {

// Asks for the export format, the chart's size (logical pixels) and the PNG resolution (DPI).
class ChartExportDialog : public QDialog {
    Q_OBJECT
public:
    enum class Format { Png, Pdf };
    explicit ChartExportDialog(QSize initialSize, QWidget* parent = nullptr);

    Format format() const;
    int width() const;
    int height() const;
    int dpi() const;
    void setFormat(Format format);
    void setDpi(int dpi);

private:
    void updateSummary();
    QComboBox* m_format = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QSpinBox* m_dpi = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace sandpad
