#include "ui/outputs/TableOutputModel.h"

#include <algorithm>

namespace sandpad {

namespace {

bool numeric(const QString& dtype)
{
    static const char* const kinds[] = {"int", "uint", "float", "Int", "UInt", "Float", "complex", "number"};
    return std::any_of(std::begin(kinds), std::end(kinds), [&](const char* k) { return dtype.startsWith(QLatin1String(k)); });
}

QString field(const QString& cell, TableOutputModel::Format format)
{
    if (format == TableOutputModel::Format::Tsv) {
        // A tab or newline inside a cell would start another cell or row.
        QString text = cell;
        text.replace(u'\t', u' ').replace(u'\n', u' ').replace(u'\r', u' ');
        return text;
    }
    if (!cell.contains(u',') && !cell.contains(u'"') && !cell.contains(u'\n') && !cell.contains(u'\r'))
        return cell;
    QString quoted = cell;
    quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return u'"' + quoted + u'"';
}

} // namespace

TableOutputModel::TableOutputModel(RunOutput table, QObject* parent)
    : QAbstractTableModel(parent), m_table(std::move(table)), m_loaded(std::min<qsizetype>(m_table.rows.size(), kPageRows))
{
}

int TableOutputModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_loaded);
}

int TableOutputModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_table.columns.size());
}

QVariant TableOutputModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_loaded || index.column() >= m_table.columns.size())
        return {};
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return m_table.rows[index.row()].value(index.column());
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignVCenter
                                   | (numeric(m_table.dtypes.value(index.column())) ? Qt::AlignRight : Qt::AlignLeft));
    return {};
}

QVariant TableOutputModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= m_table.columns.size())
            return {};
        if (role == Qt::DisplayRole)
            return m_table.columns[section];
        if (role == Qt::ToolTipRole)
            return tr("%1 (%2)").arg(m_table.columns[section], m_table.dtypes.value(section));
        return {};
    }
    if (section < 0 || section >= m_loaded)
        return {};
    if (role == Qt::DisplayRole)
        return m_table.index.value(section);
    if (role == Qt::ToolTipRole && !m_table.indexName.isEmpty())
        return tr("%1 = %2").arg(m_table.indexName, m_table.index.value(section));
    return {};
}

bool TableOutputModel::canFetchMore(const QModelIndex& parent) const
{
    return !parent.isValid() && m_loaded < m_table.rows.size();
}

void TableOutputModel::fetchMore(const QModelIndex& parent)
{
    if (!canFetchMore(parent))
        return;
    const qsizetype more = std::min<qsizetype>(m_table.rows.size() - m_loaded, kPageRows);
    beginInsertRows({}, int(m_loaded), int(m_loaded + more - 1));
    m_loaded += more;
    endInsertRows();
}

QString TableOutputModel::text(Format format, qsizetype firstRow, qsizetype lastRow, int firstColumn, int lastColumn) const
{
    const QChar separator = format == Format::Tsv ? u'\t' : u',';
    firstRow = std::max<qsizetype>(firstRow, 0);
    lastRow = std::min<qsizetype>(lastRow, m_table.rows.size() - 1);
    firstColumn = std::max(firstColumn, 0);
    lastColumn = std::min<int>(lastColumn, int(m_table.columns.size()) - 1);
    QString out;
    QStringList line{field(m_table.indexName, format)};
    for (int c = firstColumn; c <= lastColumn; ++c)
        line << field(m_table.columns[c], format);
    out += line.join(separator) + u'\n';
    for (qsizetype r = firstRow; r <= lastRow; ++r) {
        line = QStringList{field(m_table.index.value(r), format)};
        for (int c = firstColumn; c <= lastColumn; ++c)
            line << field(m_table.rows[r].value(c), format);
        out += line.join(separator) + u'\n';
    }
    return out;
}

QString TableOutputModel::allText(Format format) const
{
    return text(format, 0, m_table.rows.size() - 1, 0, int(m_table.columns.size()) - 1);
}

} // namespace sandpad
