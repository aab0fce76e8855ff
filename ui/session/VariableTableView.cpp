#include "ui/session/VariableTableView.h"

#include "ui/session/SessionTableModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QVBoxLayout>

namespace sandpad {

VariableTableView::VariableTableView(NotebookSession* session, const QString& name, QWidget* parent)
    : QWidget(parent, Qt::Window), m_model(new SessionTableModel(session, name, this))
{
    setObjectName(QStringLiteral("variableTable"));
    setAttribute(Qt::WA_DeleteOnClose);
    auto* layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setAccessibleName(tr("Rows of %1").arg(name));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    // Fixed sizes: no header measures ten million sections, and a scroll asks only for what shows.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setDefaultSectionSize(110);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    connect(m_model, &SessionTableModel::statusChanged, m_status, &QLabel::setText);
    connect(m_model, &SessionTableModel::loaded, this, &VariableTableView::updateTitle);
    m_status->setText(m_model->status());
    updateTitle();
    resize(720, 480);
}

void VariableTableView::updateTitle()
{
    const QString name = m_model->name();
    setWindowTitle(tr("%1 — Variables").arg(name));
    if (!m_model->isLoaded()) {
        m_title->setText(name);
        return;
    }
    const QLocale locale;
    m_title->setText(tr("%1 · %2 · %3 rows × %4 columns")
                         .arg(name, m_model->type(), locale.toString(m_model->totalRows()),
                              locale.toString(m_model->totalColumns())));
}

} // namespace sandpad
