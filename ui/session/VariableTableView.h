#pragma once

#include <QWidget>

class QLabel;
class QTableView;

namespace sandpad {

class NotebookSession;
class SessionTableModel;

// A table variable of a session in its own window (from the Variables dock): the value's shape and
// type above a table that fetches rows and columns as it scrolls (SessionTableModel), and what is
// going on below it (loading, waiting for a running execution, an error).
class VariableTableView : public QWidget {
    Q_OBJECT
public:
    VariableTableView(NotebookSession* session, const QString& name, QWidget* parent = nullptr);
    SessionTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QLabel* statusLabel() const { return m_status; }

private:
    void updateTitle();

    SessionTableModel* m_model;
    QLabel* m_title;
    QTableView* m_table;
    QLabel* m_status;
};

} // namespace sandpad
