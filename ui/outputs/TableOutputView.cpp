#include "ui/outputs/TableOutputView.h"

#include "ui/outputs/TableOutputModel.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace sandpad {

namespace {
QString grouped(qint64 n)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(n);
}
} // namespace

TableOutputView::TableOutputView(const RunOutput& table, QWidget* parent)
    : QWidget(parent), m_model(new TableOutputModel(table, this)), m_view(new QTableView(this)), m_caption(new QLabel(this))
{
    m_view->setModel(m_model);
    m_view->setAccessibleName(tr("Table output"));
    m_view->setSelectionMode(QAbstractItemView::ContiguousSelection);
    m_view->setWordWrap(false);
    m_view->setAlternatingRowColors(true);
    // Fixed row heights and no contents-based sizing: nothing walks all rows.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setDefaultSectionSize(110);
    const int rows = int(std::min<qsizetype>(table.rows.size(), 12));
    m_view->setMinimumHeight(m_view->verticalHeader()->defaultSectionSize() * (rows + 1) + 8);
    m_view->setMaximumHeight(m_view->verticalHeader()->defaultSectionSize() * 13 + 24);
    m_view->setSizeAdjustPolicy(QAbstractScrollArea::AdjustIgnored);

    m_caption->setText(captionText());
    m_caption->setForegroundRole(QPalette::PlaceholderText);
    // Wraps in a narrow notebook: its one-line width made the entry wider than the view, which
    // cut the copy buttons and the run's other outputs off at its edge.
    m_caption->setWordWrap(true);
    auto* tsv = new QToolButton(this);
    tsv->setText(tr("Copy as TSV"));
    tsv->setAutoRaise(true);
    connect(tsv, &QToolButton::clicked, this, [this] { copy(false); });
    auto* csv = new QToolButton(this);
    csv->setText(tr("Copy as CSV"));
    csv->setAutoRaise(true);
    connect(csv, &QToolButton::clicked, this, [this] { copy(true); });

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_caption, 1);
    top->addWidget(tsv);
    top->addWidget(csv);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_view);
}

QString TableOutputView::captionText() const
{
    const RunOutput& t = m_model->table();
    const qint64 total = std::max<qint64>(t.totalRows, t.rows.size());
    QString text = total == t.rows.size()
                       ? tr("%1 rows × %2 columns").arg(grouped(total), grouped(t.columns.size()))
                       : tr("the first %1 of %2 rows × %3 columns").arg(grouped(t.rows.size()), grouped(total), grouped(t.columns.size()));
    if (!t.indexName.isEmpty())
        text += tr(" · index: %1").arg(t.indexName);
    return text;
}

QString TableOutputView::copyText(bool csv) const
{
    const auto format = csv ? TableOutputModel::Format::Csv : TableOutputModel::Format::Tsv;
    const QItemSelection selection = m_view->selectionModel() ? m_view->selectionModel()->selection() : QItemSelection();
    if (selection.isEmpty())
        return m_model->allText(format);
    const QItemSelectionRange range = selection.first();
    return m_model->text(format, range.top(), range.bottom(), range.left(), range.right());
}

void TableOutputView::copy(bool csv) const
{
    QApplication::clipboard()->setText(copyText(csv));
}

} // namespace sandpad
