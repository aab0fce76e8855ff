#include "ui/session/VariableExplorer.h"

#include "core/session/NotebookSession.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sandpad {

VariableExplorer::VariableExplorer(QWidget* parent) : QDockWidget(tr("Variables"), parent)
{
    setObjectName(QStringLiteral("variableExplorer"));
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);
    m_empty = new QLabel(tr("No session variables: run a cell in a session tab."), body);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_empty->setMargin(8);
    m_table = new QTableWidget(0, 5, body);
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Type"), tr("Size"), tr("Memory"), tr("Value")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    layout->addWidget(m_empty);
    layout->addWidget(m_table);
    setWidget(body);
    refresh();
}

void VariableExplorer::setSession(NotebookSession* session)
{
    if (m_session == session)
        return;
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    if (session)
        connect(session, &NotebookSession::variablesChanged, this, &VariableExplorer::refresh);
    refresh();
}

void VariableExplorer::refresh()
{
    const QList<SessionVariable> variables = m_session ? m_session->variables() : QList<SessionVariable>{};
    m_table->setRowCount(int(variables.size()));
    const QLocale locale;
    for (int row = 0; row < variables.size(); ++row) {
        const SessionVariable& v = variables[row];
        const QStringList cells{v.name, v.type, v.size, v.memory < 0 ? QString() : locale.formattedDataSize(v.memory), v.value};
        for (int column = 0; column < cells.size(); ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            item->setToolTip(cells[column]);
            m_table->setItem(row, column, item);
        }
    }
    m_empty->setVisible(variables.isEmpty());
    m_table->setVisible(!variables.isEmpty());
}

} // namespace sandpad
