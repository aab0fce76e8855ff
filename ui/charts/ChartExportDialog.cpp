#include "ui/charts/ChartExportDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

namespace sandpad {

ChartExportDialog::ChartExportDialog(QSize initialSize, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Export chart"));
    auto* form = new QFormLayout(this);

    m_format = new QComboBox(this);
    m_format->addItem(tr("PNG image"));
    m_format->addItem(tr("PDF document (vector)"));
    m_format->setAccessibleName(tr("Format"));
    form->addRow(tr("&Format:"), m_format);

    auto spin = [this](int min, int max, int value, const QString& suffix, const QString& name) {
        auto* s = new QSpinBox(this);
        s->setRange(min, max);
        s->setValue(value);
        s->setSuffix(suffix);
        s->setAccessibleName(name);
        connect(s, &QSpinBox::valueChanged, this, &ChartExportDialog::updateSummary);
        return s;
    };
    const QSize size = initialSize.isValid() && !initialSize.isEmpty() ? initialSize : QSize(800, 600);
    m_width = spin(50, 10000, size.width(), tr(" px"), tr("Width"));
    m_height = spin(50, 10000, size.height(), tr(" px"), tr("Height"));
    m_dpi = spin(48, 1200, 96, tr(" dpi"), tr("Resolution"));
    form->addRow(tr("&Width:"), m_width);
    form->addRow(tr("&Height:"), m_height);
    form->addRow(tr("&Resolution:"), m_dpi);
    m_summary = new QLabel(this);
    form->addRow(m_summary);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ChartExportDialog::updateSummary);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    updateSummary();
}

ChartExportDialog::Format ChartExportDialog::format() const
{
    return m_format->currentIndex() == 1 ? Format::Pdf : Format::Png;
}
int ChartExportDialog::width() const { return m_width->value(); }
int ChartExportDialog::height() const { return m_height->value(); }
int ChartExportDialog::dpi() const { return m_dpi->value(); }
void ChartExportDialog::setFormat(Format format) { m_format->setCurrentIndex(format == Format::Pdf ? 1 : 0); }
void ChartExportDialog::setDpi(int dpi) { m_dpi->setValue(dpi); }

void ChartExportDialog::updateSummary()
{
    const bool png = format() == Format::Png;
    m_dpi->setEnabled(png);
    if (png) {
        const double scale = dpi() / 96.0;
        m_summary->setText(tr("Image: %1 × %2 pixels")
                               .arg(qRound(width() * scale)).arg(qRound(height() * scale)));
    } else {
        m_summary->setText(tr("Page: %1 × %2 points, vector graphics").arg(width()).arg(height()));
    }
}

} // namespace sandpad
