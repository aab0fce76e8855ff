#include "ui/usage/UsageTableModel.h"

#include "core/accounting/Money.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

namespace sandpad {

UsageTableModel::UsageTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void UsageTableModel::setEntries(const QList<UsageEntry>& entries)
{
    beginResetModel();
    m_entries = entries;
    endResetModel();
}

int UsageTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int UsageTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString UsageTableModel::formatCost(qint64 micros)
{
    return formatMoney(micros);
}

QString UsageTableModel::sourceText(const UsageEntry& e)
{
    if (e.source == QLatin1String("document")) {
        const QString name = e.title.isEmpty() ? e.documentId.left(8) : e.title;
        return e.revisionId.isEmpty() ? name : QStringLiteral("%1 @ %2").arg(name, e.revisionId.left(8));
    }
    return e.title.isEmpty() ? QObject::tr("ad hoc") : QObject::tr("ad hoc: %1").arg(e.title);
}

QVariant UsageTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const UsageEntry& e = m_entries.at(index.row());
    const auto column = Column(index.column());
    if (role == Qt::DisplayRole) {
        switch (column) {
        case Time: return QLocale().toString(e.time.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        case Source: return sourceText(e);
        case Provider: return e.provider;
        case Status: return e.status;
        case Cost: return formatCost(e.costMicros);
        case Reason: return e.reason;
        case ColumnCount: break;
        }
    } else if (role == Qt::UserRole) {
        switch (column) {
        case Time: return e.time;
        case Cost: return e.costMicros;
        case Source: return sourceText(e);
        case Provider: return e.provider;
        case Status: return e.status;
        case Reason: return e.reason;
        case ColumnCount: break;
        }
    } else if (role == Qt::ToolTipRole) {
        return QObject::tr("Run %1 · %2 · %3").arg(e.runId, e.language, e.time.toString(Qt::ISODate));
    } else if (role == Qt::TextAlignmentRole && column == Cost) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    } else if (role == Qt::ForegroundRole && column == Status && e.status != QLatin1String("success")
               && e.status != QLatin1String("error")) {
        return QBrush(QColor(0xc0, 0x6a, 0x00)); // timeout/cancelled/infrastructure: cost 0, say why
    }
    return {};
}

QVariant UsageTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Time: return tr("Time");
    case Source: return tr("Source");
    case Provider: return tr("Provider");
    case Status: return tr("Status");
    case Cost: return tr("Cost");
    case Reason: return tr("Reason");
    case ColumnCount: break;
    }
    return {};
}

} // namespace sandpad
