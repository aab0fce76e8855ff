#pragma once

#include "core/run/RunOutput.h"

#include <QAbstractTableModel>

namespace sandpad {

// A run's table output (RunOutput::Type::Table) for a QTableView. Lazy: it starts with one page
// of rows and the view asks for more as it is scrolled (canFetchMore/fetchMore), and cells are
// made into QVariants only when painted, so a 1,000,000-row table costs no more to open than a
// page. The rows stay the RunOutput's (implicitly shared, not copied).
class TableOutputModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kPageRows = 1000;

    explicit TableOutputModel(RunOutput table, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

    const RunOutput& table() const { return m_table; }
    qsizetype loadedRows() const { return m_loaded; }
    // The cells of rows [firstRow, lastRow] and columns [firstColumn, lastColumn] as text with a
    // header line (the index, then the column names): tab-separated or CSV (RFC 4180 quoting).
    // Reads the table itself, so rows not fetched yet are included.
    enum class Format { Tsv, Csv };
    QString text(Format format, qsizetype firstRow, qsizetype lastRow, int firstColumn, int lastColumn) const;
    QString allText(Format format) const;

private:
    RunOutput m_table;
    qsizetype m_loaded = 0;
};

} // namespace sandpad
