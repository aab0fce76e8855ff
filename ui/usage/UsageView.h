#pragma once

#include "core/accounting/UsageLedger.h"

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTabWidget;

namespace sandpad {

class UsageTableModel;

// The usage ledger: every run's row (time, source, provider, status, cost, reason), totals by day
// and by month, CSV export. Reads the ledger on refresh(); it never writes to it.
class UsageView : public QWidget {
    Q_OBJECT
public:
    explicit UsageView(QWidget* parent = nullptr);
    // View > Usage's window: a view over the ledger in a dialog of its own (deleted on close) with
    // a Close button. Returns the view; its window() is the dialog.
    static UsageView* inWindow(UsageLedger* ledger, QWidget* parent);

    void setLedger(UsageLedger* ledger);   // not owned; refreshes
    // Shows these rows directly (no ledger needed).
    void setData(const QList<UsageEntry>& entries, const QList<UsageLedger::PeriodTotal>& byDay,
                 const QList<UsageLedger::PeriodTotal>& byMonth);

    // Writes every row as CSV (header line; time in ISO-8601 UTC; cost in dollars).
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    static QString toCsv(const QList<UsageEntry>& entries);

    UsageTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QTableWidget* dayTotals() const { return m_byDay; }
    QTableWidget* monthTotals() const { return m_byMonth; }
    QString summaryText() const;

public slots:
    void refresh();
    void exportCsvWithDialog();

private:
    static void fillTotals(QTableWidget* table, const QList<UsageLedger::PeriodTotal>& totals);

    UsageLedger* m_ledger = nullptr;
    UsageTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTableView* m_table = nullptr;
    QTableWidget* m_byDay = nullptr;
    QTableWidget* m_byMonth = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace sandpad
