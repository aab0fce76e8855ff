#include "ui/session/VariableExplorer.h"

#include "core/session/NotebookSession.h"
#include "ui/session/SessionTableModel.h"
#include "ui/session/VariableTableView.h"

#include <QHeaderView>
#include <algorithm>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sandpad {

namespace {
constexpr int kMaxColumnWidth = 160;
} // namespace

VariableExplorer::VariableExplorer(QWidget* parent) : QDockWidget(tr("Variables"), parent)
{
    setObjectName(QStringLiteral("variableExplorer"));
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);
    m_empty = new QLabel(tr("No variables: run a cell."), body);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_empty->setMargin(8);
    m_table = new QTableWidget(0, 5, body);
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Type"), tr("Size"), tr("Memory"), tr("Value")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_note = new QLabel(body);
    m_note->setObjectName(QStringLiteral("variablesNote"));
    m_note->setWordWrap(true);
    m_note->setMargin(4);
    layout->addWidget(m_empty);
    layout->addWidget(m_table);
    layout->addWidget(m_note);
    setWidget(body);
    connect(m_table, &QTableWidget::itemActivated, this, [this](QTableWidgetItem* item) {
        if (item && item->row() < m_shown.size())
            openTable(m_shown[item->row()].name);
    });
    refresh();
}

void VariableExplorer::setSession(NotebookSession* session)
{
    if (m_session == session && !m_snapshot)
        return;
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    if (m_session != session)
        m_views.clear(); // those stay open on their own session, no longer followed from here
    m_session = session;
    m_snapshot = false;
    if (session)
        connect(session, &NotebookSession::variablesChanged, this, &VariableExplorer::refresh);
    refresh();
}

void VariableExplorer::setSnapshot(const QList<SessionVariable>& variables)
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = nullptr;
    m_views.clear();
    m_snapshot = true;
    showVariables(variables);
}

void VariableExplorer::refresh()
{
    showVariables(m_session ? m_session->variables() : QList<SessionVariable>{});
    // An open table follows its variable: it may have changed, grown or gone.
    for (const QPointer<VariableTableView>& view : std::as_const(m_views))
        if (view && view->model())
            view->model()->reload();
}

void VariableExplorer::showVariables(const QList<SessionVariable>& variables)
{
    m_shown = variables;
    m_table->setRowCount(int(variables.size()));
    const QLocale locale;
    for (int row = 0; row < variables.size(); ++row) {
        const SessionVariable& v = variables[row];
        const QStringList cells{v.name, v.type, v.size, v.memory < 0 ? QString() : locale.formattedDataSize(v.memory), v.value};
        for (int column = 0; column < cells.size(); ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            QString tip = cells[column];
            if (v.table)
                tip += u'\n' + (m_snapshot ? tr("Run in a session to browse rows.") : tr("Double-click to open as a table."));
            item->setToolTip(tip);
            m_table->setItem(row, column, item);
        }
    }
    // Name, Type, Size and Memory as wide as their contents (up to a limit), so that the Value a
    // user looks for is in a narrow dock too (five 100 px columns put it out of sight).
    for (int column = 0; column < 4; ++column) {
        m_table->resizeColumnToContents(column);
        m_table->setColumnWidth(column, std::min(m_table->columnWidth(column), kMaxColumnWidth));
    }
    m_empty->setText(m_snapshot ? tr("No variables at the end of the last run.") : tr("No variables: run a cell."));
    m_empty->setVisible(variables.isEmpty());
    m_table->setVisible(!variables.isEmpty());
    m_note->setText(m_snapshot && !variables.isEmpty()
                        ? tr("The last fresh run's variables at its end. Run in a session to browse rows.")
                        : QString());
    m_note->setVisible(!m_note->text().isEmpty());
}

VariableTableView* VariableExplorer::openTable(const QString& name)
{
    const auto it = std::find_if(m_shown.cbegin(), m_shown.cend(), [&](const SessionVariable& v) { return v.name == name; });
    if (it == m_shown.cend() || !it->table) {
        m_note->setText(it == m_shown.cend() ? tr("There is no variable %1.").arg(name)
                                             : tr("%1 is a %2: only numpy arrays and pandas DataFrames and Series open as a table.")
                                                   .arg(name, it->type));
        m_note->setVisible(true);
        return nullptr;
    }
    if (m_snapshot || !m_session) {
        m_note->setText(tr("%1 is from a fresh run, whose sandbox is gone: run in a session to browse rows.").arg(name));
        m_note->setVisible(true);
        return nullptr;
    }
    VariableTableView* view = m_views.value(name);
    if (!view) {
        view = new VariableTableView(m_session, name, this);
        m_views.insert(name, view);
    }
    view->show();
    view->raise();
    view->activateWindow();
    return view;
}

} // namespace sandpad
