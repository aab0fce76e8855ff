#include "ui/charts/ChartExportDialog.h"

#include <QBuffer>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QImageReader>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sandpad {

namespace {
constexpr int kMinSide = 50, kMaxSide = 10000;

bool fits(QSize size) { return size.width() >= kMinSide && size.height() >= kMinSide && size.width() <= kMaxSide && size.height() <= kMaxSide; }
} // namespace

QSize ChartExportDialog::defaultSize(const QByteArray& figurePng)
{
    if (figurePng.startsWith(QByteArrayLiteral("\x89PNG\r\n\x1a\n"))) {
        // The header only: the picture is not decoded.
        QBuffer buffer;
        buffer.setData(figurePng);
        QImageReader reader(&buffer, "png");
        const QSize size = reader.size();
        if (size.isValid() && fits(size))
            return size;
    }
    return kStandardSize;
}

QString ChartExportDialog::savedMessage(const QString& path, QSize size)
{
    return tr("Saved %1, %2×%3").arg(QFileInfo(path).fileName()).arg(size.width()).arg(size.height());
}

ChartExportDialog::ChartExportDialog(QSize initialSize, QSize shownSize, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Export chart"));
    // The fields in a form, then what the file will be, then the buttons apart at the bottom.
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(form);

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
    const QSize size = initialSize.isValid() && fits(initialSize) ? initialSize : kStandardSize;
    const bool figure = size != kStandardSize;
    m_size = new QComboBox(this);
    m_size->setAccessibleName(tr("Size"));
    auto addSize = [this](const QString& name, QSize s) {
        m_size->addItem(tr("%1 (%2 × %3)").arg(name).arg(s.width()).arg(s.height()), s);
    };
    addSize(figure ? tr("The figure's size") : tr("Standard"), size);
    if (figure)
        addSize(tr("Standard"), kStandardSize);
    if (shownSize.isValid() && fits(shownSize) && shownSize != size)
        addSize(tr("As shown"), shownSize);
    if (size != QSize(1920, 1080))
        addSize(tr("Full HD"), QSize(1920, 1080));
    m_size->addItem(tr("Custom"));
    form->addRow(tr("&Size:"), m_size);
    m_width = spin(kMinSide, kMaxSide, size.width(), tr(" px"), tr("Width"));
    m_height = spin(kMinSide, kMaxSide, size.height(), tr(" px"), tr("Height"));
    m_dpi = spin(48, 1200, 96, tr(" dpi"), tr("Resolution"));
    form->addRow(tr("&Width:"), m_width);
    form->addRow(tr("&Height:"), m_height);
    form->addRow(tr("&Resolution:"), m_dpi);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setAccessibleName(tr("Exported size"));
    layout->addSpacing(layout->spacing());
    layout->addWidget(m_summary);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ChartExportDialog::updateSummary);
    connect(m_size, &QComboBox::activated, this, &ChartExportDialog::applySizeChoice);
    connect(m_width, &QSpinBox::valueChanged, this, &ChartExportDialog::matchSizeChoice);
    connect(m_height, &QSpinBox::valueChanged, this, &ChartExportDialog::matchSizeChoice);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addStretch(1);
    layout->addSpacing(layout->spacing());
    layout->addWidget(buttons);
    updateSummary();
    // Room for the longest size choice and the summary beside the labels, however the style lays
    // out the form.
    setMinimumWidth(qMax(360, sizeHint().width()));
}

void ChartExportDialog::applySizeChoice(int index)
{
    const QSize size = m_size->itemData(index).toSize();
    if (!size.isValid())
        return; // Custom: the fields as they are
    m_applying = true;
    m_width->setValue(size.width());
    m_height->setValue(size.height());
    m_applying = false;
}

void ChartExportDialog::matchSizeChoice()
{
    if (m_applying)
        return;
    const int match = m_size->findData(QSize(width(), height()));
    m_size->setCurrentIndex(match >= 0 ? match : m_size->count() - 1);
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

QSize ChartExportDialog::outputSize() const
{
    if (format() == Format::Pdf)
        return {width(), height()};
    const double scale = dpi() / 96.0;
    return {qRound(width() * scale), qRound(height() * scale)};
}

void ChartExportDialog::updateSummary()
{
    const bool png = format() == Format::Png;
    m_dpi->setEnabled(png);
    const QSize out = outputSize();
    if (png)
        m_summary->setText(tr("Image: %1 × %2 pixels").arg(out.width()).arg(out.height()));
    else
        m_summary->setText(tr("Page: %1 × %2 points, vector graphics").arg(out.width()).arg(out.height()));
}

} // namespace sandpad
