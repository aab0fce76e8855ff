#pragma once

#include "core/session/SessionVariables.h"

#include <QDockWidget>
#include <QHash>
#include <QPointer>

class QLabel;
class QTableWidget;

namespace sandpad {

class NotebookSession;
class VariableTableView;

// The variable explorer (a dock, like Spyder's): the current tab's variables - name, type,
// size/shape, memory, a short value; modules, functions and the runtime's own names are not
// listed (the runtime leaves them out). For a session tab they follow each execution, and a
// numpy array or pandas DataFrame/Series opens (double-click, Enter) in a table that fetches its
// rows from the session; for a tab that runs fresh they are the last run's snapshot at its end.
class VariableExplorer : public QDockWidget {
    Q_OBJECT
public:
    explicit VariableExplorer(QWidget* parent = nullptr);
    // The session to follow (null: none).
    void setSession(NotebookSession* session);
    // The variables of a fresh run's end (no session: nothing to fetch rows from).
    void setSnapshot(const QList<SessionVariable>& variables);
    QTableWidget* table() const { return m_table; }
    // Opens the table view of a listed table variable; null (and a note) when it cannot.
    VariableTableView* openTable(const QString& name);
    QLabel* noteLabel() const { return m_note; }

private:
    void refresh();
    void showVariables(const QList<SessionVariable>& variables);

    QPointer<NotebookSession> m_session;
    QList<SessionVariable> m_shown;
    bool m_snapshot = false;
    QTableWidget* m_table;
    QLabel* m_empty;
    QLabel* m_note;
    QHash<QString, QPointer<VariableTableView>> m_views; // of m_session, by name
};

} // namespace sandpad
