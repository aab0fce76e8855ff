#pragma once

#include <QDockWidget>
#include <QPointer>

class QLabel;
class QTableWidget;

namespace sandpad {

class NotebookSession;

// The variable explorer (a dock, like Spyder's): the current tab's session variables after each
// execution - name, type, size/shape, memory, a short value; modules, functions and the
// runtime's own names are not listed (the session runtime leaves them out).
class VariableExplorer : public QDockWidget {
    Q_OBJECT
public:
    explicit VariableExplorer(QWidget* parent = nullptr);
    // The session to follow (null: none; the tab runs fresh).
    void setSession(NotebookSession* session);
    QTableWidget* table() const { return m_table; }

private:
    void refresh();

    QPointer<NotebookSession> m_session;
    QTableWidget* m_table;
    QLabel* m_empty;
};

} // namespace sandpad
