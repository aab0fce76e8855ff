#pragma once

#include "core/accounting/UsageEntry.h"

#include <QAbstractTableModel>
#include <QList>

namespace sandpad {

// The usage ledger's rows as a table: time, source, provider, status, cost, reason.
// Qt::DisplayRole is formatted text; Qt::UserRole the raw value (for sorting and CSV).
class UsageTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Source, Provider, Status, Cost, Reason, ColumnCount };

    explicit UsageTableModel(QObject* parent = nullptr);

    void setEntries(const QList<UsageEntry>& entries);
    const QList<UsageEntry>& entries() const { return m_entries; }
    const UsageEntry& entry(int row) const { return m_entries.at(row); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString formatCost(qint64 micros);     // "$0.05" (formatMoney)
    static QString sourceText(const UsageEntry& entry);

private:
    QList<UsageEntry> m_entries;
};

} // namespace sandpad
