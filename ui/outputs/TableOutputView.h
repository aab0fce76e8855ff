#pragma once

#include "core/run/RunOutput.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace sandpad {

class TableOutputModel;

// A table output: its size ("3 rows × 2 columns", or how many of how many rows came), the
// table (paged: TableOutputModel) and Copy as TSV / Copy as CSV (the selection, or the whole
// table when nothing is selected).
class TableOutputView : public QWidget {
    Q_OBJECT
public:
    explicit TableOutputView(const RunOutput& table, QWidget* parent = nullptr);

    QTableView* tableView() const { return m_view; }
    TableOutputModel* model() const { return m_model; }
    QString captionText() const;
    // What Copy as TSV/CSV puts on the clipboard.
    QString copyText(bool csv) const;
    void copy(bool csv) const;

private:
    TableOutputModel* m_model;
    QTableView* m_view;
    QLabel* m_caption;
};

} // namespace sandpad
