#include "ui/documents/DiffView.h"

#include "ui/documents/DiffLineDelegate.h"
#include "ui/documents/DiffModel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace sandpad {

DiffView::DiffView(QWidget* parent)
    : QWidget(parent), m_model(new DiffModel(this)), m_table(new QTableView(this)),
      m_header(new QLabel(this)), m_modeBox(new QComboBox(this)),
      m_wholeFile(new QCheckBox(tr("Whole file"), this))
{
    setAccessibleName(tr("Revision diff"));
    m_header->setAccessibleName(tr("Diff summary"));
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_modeBox->addItem(tr("Unified"));
    m_modeBox->addItem(tr("Side by side"));
    m_modeBox->setAccessibleName(tr("Diff layout"));
    m_wholeFile->setAccessibleName(tr("Show the whole file"));
    auto* prev = new QPushButton(tr("Previous change"), this);
    auto* next = new QPushButton(tr("Next change"), this);
    prev->setAccessibleName(tr("Previous change"));
    next->setAccessibleName(tr("Next change"));
    prev->setToolTip(tr("Previous change (Shift+F7)"));
    next->setToolTip(tr("Next change (F7)"));

    m_table->setModel(m_model);
    m_table->setItemDelegate(new DiffLineDelegate(m_table)); // within-line changes
    m_table->setAccessibleName(tr("Diff lines"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    // Fixed row heights and no ResizeToContents: both would touch every row of a huge diff.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(
        QFontMetrics(QFontDatabase::systemFont(QFontDatabase::FixedFont)).height() + 4);
    m_model->setPalette(palette());

    auto* top = new QHBoxLayout;
    top->addWidget(m_header, 1);
    top->addWidget(prev);
    top->addWidget(next);
    top->addWidget(m_wholeFile);
    top->addWidget(m_modeBox);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);

    connect(m_modeBox, &QComboBox::currentIndexChanged, this,
            [this](int i) { setMode(i == 1 ? Mode::SideBySide : Mode::Unified); });
    connect(m_wholeFile, &QCheckBox::toggled, this,
            [this](bool on) { setContextLines(on ? -1 : 3); });
    connect(next, &QPushButton::clicked, this, &DiffView::nextChange);
    connect(prev, &QPushButton::clicked, this, &DiffView::previousChange);
    auto* f7 = new QShortcut(QKeySequence(Qt::Key_F7), this, this, &DiffView::nextChange,
                             Qt::WidgetWithChildrenShortcut);
    auto* sf7 = new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F7), this, this,
                              &DiffView::previousChange, Qt::WidgetWithChildrenShortcut);
    Q_UNUSED(f7);
    Q_UNUSED(sf7);
    applyColumns();
}

void DiffView::setTexts(const QString& oldText, const QString& newText, const QString& oldLabel,
                        const QString& newLabel)
{
    m_oldLabel = oldLabel;
    m_newLabel = newLabel;
    m_model->setDiff(LineDiff::compute(oldText, newText));
    m_header->setText(summary());
    applyColumns();
    nextChange();
}

QString DiffView::summary() const
{
    const LineDiffResult& r = m_model->diff();
    QString text;
    if (!m_oldLabel.isEmpty() || !m_newLabel.isEmpty())
        text = tr("%1 → %2: ").arg(m_oldLabel, m_newLabel);
    if (r.identical())
        return text + tr("no differences");
    text += tr("+%1 −%2 lines").arg(r.added).arg(r.removed);
    if (r.coarse)
        text += tr(" (too many changes for a fine diff: the differing part is shown as one block)");
    return text;
}

void DiffView::setMode(Mode mode)
{
    m_model->setLayout(mode == Mode::SideBySide ? DiffModel::Layout::SideBySide
                                                : DiffModel::Layout::Unified);
    const int index = mode == Mode::SideBySide ? 1 : 0;
    if (m_modeBox->currentIndex() != index)
        m_modeBox->setCurrentIndex(index);
    applyColumns();
}

DiffView::Mode DiffView::mode() const
{
    return m_model->layout() == DiffModel::Layout::SideBySide ? Mode::SideBySide : Mode::Unified;
}

void DiffView::setContextLines(int lines)
{
    m_model->setContextLines(lines);
    if (m_wholeFile->isChecked() != (lines < 0))
        m_wholeFile->setChecked(lines < 0);
    applyColumns();
}

const LineDiffResult& DiffView::result() const
{
    return m_model->diff();
}

QString DiffView::unifiedText(int context) const
{
    return m_model->diff().unifiedText(m_oldLabel.isEmpty() ? QStringLiteral("a") : m_oldLabel,
                                       m_newLabel.isEmpty() ? QStringLiteral("b") : m_newLabel,
                                       context);
}

void DiffView::applyColumns()
{
    // Line-number columns sized from the largest number, not by measuring every row.
    const qsizetype lines = std::max(m_model->diff().oldLines.size(), m_model->diff().newLines.size());
    const QFontMetrics fm(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    const int numberWidth = fm.horizontalAdvance(QString(QString::number(lines).size() + 1, QLatin1Char('9'))) + 12;
    QHeaderView* h = m_table->horizontalHeader();
    const bool unified = m_model->layout() == DiffModel::Layout::Unified;
    for (int c = 0; c < m_model->columnCount(); ++c) {
        const bool number = unified ? c < 2 : (c == 0 || c == 2);
        if (number) {
            // And never narrower than its title ("New" was cut to "\ew" for a short diff).
            const QString title = m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
            const int titleWidth = h->fontMetrics().horizontalAdvance(title)
                                   + 2 * h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h) + 8;
            h->setSectionResizeMode(c, QHeaderView::Fixed);
            m_table->setColumnWidth(c, std::max(numberWidth, titleWidth));
        } else {
            h->setSectionResizeMode(c, QHeaderView::Stretch);
        }
    }
}

bool DiffView::jumpToChange(int direction)
{
    const int rows = m_model->rowCount();
    if (rows == 0)
        return false;
    const int current = m_table->currentIndex().isValid() ? m_table->currentIndex().row() : -1;
    int row = current + direction;
    // Skip the rest of the change block we are in, so "next" means the next block.
    while (row >= 0 && row < rows && current >= 0 && m_model->isChangeRow(current)
           && m_model->isChangeRow(row))
        row += direction;
    for (; row >= 0 && row < rows; row += direction) {
        if (m_model->isChangeRow(row)) {
            if (direction < 0)   // land on the first row of that block
                while (row > 0 && m_model->isChangeRow(row - 1))
                    --row;
            const QModelIndex index = m_model->index(row, m_model->layout() == DiffModel::Layout::Unified ? 2 : 1);
            m_table->setCurrentIndex(index);
            m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
            return true;
        }
    }
    return false;
}

bool DiffView::nextChange()
{
    return jumpToChange(1);
}

bool DiffView::previousChange()
{
    return jumpToChange(-1);
}

void DiffView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        m_model->setPalette(palette());
    QWidget::changeEvent(event);
}

QDialog* DiffView::openDialog(const QString& oldText, const QString& newText,
                              const QString& oldLabel, const QString& newLabel,
                              const QString& windowTitle, QWidget* parent)
{
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(windowTitle);
    dialog->setAccessibleName(windowTitle);
    auto* view = new DiffView(dialog);
    view->setTexts(oldText, newText, oldLabel, newLabel);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(view, 1);
    layout->addWidget(buttons);
    dialog->resize(1000, 700);
    dialog->show();
    return dialog;
}

} // namespace sandpad
