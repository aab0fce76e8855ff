#include "ui/usage/UsageView.h"

#include "ui/usage/UsageTableModel.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sandpad {

namespace {

QString csvField(const QString& text)
{
    // RFC 4180: quote when needed, double the quotes. A leading =, +, -, @ is neutralized so a
    // spreadsheet does not run a run title as a formula.
    QString t = text;
    if (!t.isEmpty() && QStringLiteral("=+-@").contains(t.front()))
        t.prepend(QLatin1Char('\''));
    if (t.contains(QLatin1Char(',')) || t.contains(QLatin1Char('"')) || t.contains(QLatin1Char('\n'))
        || t.contains(QLatin1Char('\r')) || t != text) {
        t.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + t + QLatin1Char('"');
    }
    return t;
}

QTableWidget* makeTotalsTable(QWidget* parent, const QString& periodName)
{
    auto* t = new QTableWidget(0, 3, parent);
    t->setHorizontalHeaderLabels({periodName, QObject::tr("Runs"), QObject::tr("Cost")});
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    t->setAlternatingRowColors(true);
    return t;
}

} // namespace

UsageView* UsageView::inWindow(UsageLedger* ledger, QWidget* parent)
{
    auto* dialog = new QDialog(parent);
    dialog->setWindowTitle(tr("Usage — Sandpad"));
    dialog->setAccessibleName(tr("Usage"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto* view = new UsageView(dialog);
    view->setLedger(ledger);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(view, 1);
    layout->addWidget(buttons);
    dialog->resize(900, 560);
    return view;
}

UsageView::UsageView(QWidget* parent)
    : QWidget(parent)
{
    setAccessibleName(tr("Usage"));
    setWindowTitle(tr("Usage"));
    auto* layout = new QVBoxLayout(this);

    auto* top = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setAccessibleName(tr("Usage summary"));
    top->addWidget(m_summary, 1);
    auto* refresh = new QPushButton(tr("&Refresh"), this);
    connect(refresh, &QPushButton::clicked, this, &UsageView::refresh);
    top->addWidget(refresh);
    auto* exportButton = new QPushButton(tr("&Export CSV…"), this);
    connect(exportButton, &QPushButton::clicked, this, &UsageView::exportCsvWithDialog);
    top->addWidget(exportButton);
    layout->addLayout(top);

    m_model = new UsageTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);
    m_table = new QTableView(this);
    m_table->setAccessibleName(tr("Usage ledger"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(UsageTableModel::Time, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    m_byDay = makeTotalsTable(this, tr("Day"));
    m_byDay->setAccessibleName(tr("Totals by day"));
    m_byMonth = makeTotalsTable(this, tr("Month"));
    m_byMonth->setAccessibleName(tr("Totals by month"));

    m_tabs = new QTabWidget(this);
    m_tabs->addTab(m_table, tr("&Runs"));
    m_tabs->addTab(m_byDay, tr("By &day"));
    m_tabs->addTab(m_byMonth, tr("By &month"));
    layout->addWidget(m_tabs, 1);
    setData({}, {}, {});
}

void UsageView::setLedger(UsageLedger* ledger)
{
    m_ledger = ledger;
    refresh();
}

void UsageView::refresh()
{
    if (!m_ledger)
        return;
    setData(m_ledger->entries(), m_ledger->totalsByDay(), m_ledger->totalsByMonth());
}

void UsageView::setData(const QList<UsageEntry>& entries, const QList<UsageLedger::PeriodTotal>& byDay,
                        const QList<UsageLedger::PeriodTotal>& byMonth)
{
    m_model->setEntries(entries);
    m_table->resizeColumnsToContents();
    fillTotals(m_byDay, byDay);
    fillTotals(m_byMonth, byMonth);
    qint64 total = 0;
    for (const UsageEntry& e : entries)
        total += e.costMicros;
    m_summary->setText(entries.size() == 1 ? tr("1 run · total %1").arg(UsageTableModel::formatCost(total))
                                           : tr("%1 runs · total %2").arg(entries.size()).arg(UsageTableModel::formatCost(total)));
}

QString UsageView::summaryText() const
{
    return m_summary->text();
}

void UsageView::fillTotals(QTableWidget* table, const QList<UsageLedger::PeriodTotal>& totals)
{
    table->setRowCount(int(totals.size()));
    for (int r = 0; r < int(totals.size()); ++r) {
        const auto& t = totals.at(r);
        table->setItem(r, 0, new QTableWidgetItem(t.period));
        auto* runs = new QTableWidgetItem(QString::number(t.runs));
        runs->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(r, 1, runs);
        auto* cost = new QTableWidgetItem(UsageTableModel::formatCost(t.costMicros));
        cost->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(r, 2, cost);
    }
    table->resizeColumnsToContents();
}

QString UsageView::toCsv(const QList<UsageEntry>& entries)
{
    QString out = QStringLiteral("time,run_id,source,document_id,revision_id,title,provider,language,status,cost_usd,reason\r\n");
    for (const UsageEntry& e : entries) {
        const qint64 c = e.costMicros;
        const QString cost = QStringLiteral("%1%2.%3").arg(c < 0 ? QStringLiteral("-") : QString())
                                 .arg(qAbs(c) / 1000000).arg(qAbs(c) % 1000000, 6, 10, QLatin1Char('0'));
        const QStringList fields = {e.time.toUTC().toString(Qt::ISODate), e.runId, e.source, e.documentId,
                                    e.revisionId, e.title, e.provider, e.language, e.status, cost, e.reason};
        QStringList quoted;
        for (const QString& f : fields)
            quoted << csvField(f);
        out += quoted.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    }
    return out;
}

bool UsageView::exportCsv(const QString& path, QString* error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    file.write(toCsv(m_model->entries()).toUtf8());
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void UsageView::exportCsvWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export usage"), QStringLiteral("sandpad-usage.csv"),
                                                      tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export usage"), tr("Could not write %1: %2").arg(path, error));
}

} // namespace sandpad
