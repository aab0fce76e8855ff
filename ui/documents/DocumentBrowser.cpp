#include "ui/documents/DocumentBrowser.h"

#include "core/accounting/Money.h"
#include "core/accounting/UsageLedger.h"
#include "core/documents/DocumentFiles.h"
#include "core/engine/Executor.h"
#include "core/run/Run.h"
#include "ui/documents/DiffView.h"
#include "ui/documents/DocumentListModel.h"
#include "ui/shortcuts/PaneShortcuts.h"

#include <QAction>
#include <QDialog>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace sandpad {

namespace {

enum RevisionColumn { RevNumber, RevTime, RevSize, RevSha, RevHead, RevColumns };
enum RunColumn { RunTime, RunRevision, RunStatusCol, RunCost, RunColumns };

QString humanSize(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

QTableWidgetItem* item(const QString& text, const QString& tooltip = QString())
{
    auto* it = new QTableWidgetItem(text);
    it->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (!tooltip.isEmpty())
        it->setToolTip(tooltip);
    return it;
}

} // namespace

DocumentBrowser::DocumentBrowser(DocumentStore* store, UsageLedger* ledger, QWidget* parent)
    : QWidget(parent), m_store(store), m_ledger(ledger)
{
    buildUi();
    refresh();
}

DocumentBrowser::~DocumentBrowser() = default;

void DocumentBrowser::buildUi()
{
    setAccessibleName(tr("Documents"));
    m_model = new DocumentListModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(DocumentListModel::SortRole);

    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search titles and content"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Search documents"));
    m_searchTimer = new QTimer(this);
    m_searchTimer->setSingleShot(true);
    m_searchTimer->setInterval(250);
    connect(m_search, &QLineEdit::textChanged, m_searchTimer, qOverload<>(&QTimer::start));
    connect(m_searchTimer, &QTimer::timeout, this, &DocumentBrowser::reloadDocuments);

    m_trashButton = new QToolButton(this);
    m_trashButton->setText(tr("Trash"));
    m_trashButton->setCheckable(true);
    m_trashButton->setToolTip(tr("Show deleted documents"));
    m_trashButton->setAccessibleName(tr("Show the trash"));
    connect(m_trashButton, &QToolButton::toggled, this, [this] {
        m_documentId.clear();
        reloadDocuments();
    });

    m_documentTable = new QTableView(this);
    m_documentTable->setModel(m_proxy);
    m_documentTable->setAccessibleName(tr("Document list"));
    m_documentTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_documentTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_documentTable->setSortingEnabled(true);
    m_documentTable->sortByColumn(DocumentListModel::UpdatedColumn, Qt::DescendingOrder);
    m_documentTable->verticalHeader()->hide();
    m_documentTable->setWordWrap(false); // a date on one line, not two
    m_documentTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_documentTable->horizontalHeader()->setSectionResizeMode(DocumentListModel::TitleColumn, QHeaderView::Stretch);
    m_documentTable->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_documentTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    connect(m_documentTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] {
                if (!m_updating)
                    loadDetails();
            });
    connect(m_documentTable, &QTableView::activated, this, [this] {
        if (showingTrash())
            openSelectedRevision();
        else
            openHeadForEditing();
    });

    m_revisionTable = new QTableWidget(0, RevColumns, this);
    m_revisionTable->setAccessibleName(tr("Revision timeline"));
    // The revision's id, cut as everywhere else (the notebook, the status bar, the runs table).
    m_revisionTable->setHorizontalHeaderLabels({tr("#"), tr("Saved"), tr("Size"), tr("Revision"), QString()});
    m_revisionTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_revisionTable->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_revisionTable->verticalHeader()->hide();
    m_revisionTable->horizontalHeader()->setSectionResizeMode(RevTime, QHeaderView::Stretch);
    m_revisionTable->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_revisionTable->setToolTip(tr("Select two revisions to compare them, or one to compare it with the head"));
    connect(m_revisionTable, &QTableWidget::itemSelectionChanged, this, &DocumentBrowser::updateActions);
    connect(m_revisionTable, &QTableWidget::itemActivated, this, [this] { openSelectedRevision(); });

    m_runTable = new QTableWidget(0, RunColumns, this);
    m_runTable->setAccessibleName(tr("Run history"));
    m_runTable->setHorizontalHeaderLabels({tr("Time"), tr("Revision"), tr("Status"), tr("Cost")});
    m_runTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_runTable->verticalHeader()->hide();
    m_runTable->horizontalHeader()->setSectionResizeMode(RunTime, QHeaderView::Stretch);

    m_status = new QLabel(this);
    m_status->setAccessibleName(tr("Document browser status"));
    m_status->setWordWrap(true);
    m_status->hide();

    // Actions: one object each for the button, the context menu and the key.
    auto make = [this](const QString& text, const QKeySequence& key, auto slot) {
        auto* a = new QAction(text, this);
        if (!key.isEmpty()) {
            a->setShortcut(key);
            a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
            a->setToolTip(QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
        }
        addAction(a);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    m_openAction = make(tr("Open for editing"), QKeySequence(Qt::CTRL | Qt::Key_Return), [this] { openHeadForEditing(); });
    m_viewAction = make(tr("Open revision read-only"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), [this] { openSelectedRevision(); });
    m_diffAction = make(tr("Diff revisions"), QKeySequence(Qt::CTRL | Qt::Key_D), [this] { diffSelectedRevisions(); });
    m_restoreRevisionAction = make(tr("Restore this revision"), QKeySequence(), [this] { restoreSelectedRevision(); });
    m_runAction = make(tr("Run this revision"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), [this] { runSelectedRevision(); });
    m_renameAction = make(tr("Rename…"), QKeySequence(Qt::Key_F2), [this] { renameCurrentInteractive(); });
    m_deleteAction = make(tr("Move to trash"), QKeySequence(QKeySequence::Delete), [this] { deleteDocument(currentDocumentId()); });
    m_untrashAction = make(tr("Restore from trash"), QKeySequence(), [this] { restoreFromTrash(currentDocumentId()); });
    m_importAction = make(tr("Import file…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I), [this] { importInteractive(); });
    m_exportAction = make(tr("Export revision…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), [this] { exportInteractive(); });
    auto* focusSearch = make(tr("Search documents"), QKeySequence(QKeySequence::Find), [this] {
        m_search->setFocus();
        m_search->selectAll();
    });
    Q_UNUSED(focusSearch);
    // Delete only from the document list: in the search field the key must edit text.
    removeAction(m_deleteAction);
    m_deleteAction->setShortcutContext(Qt::WidgetShortcut);
    m_restoreRevisionAction->setToolTip(tr("Append a copy of the selected revision as the new head"));

    m_documentTable->addActions({m_openAction, m_renameAction, m_deleteAction, m_untrashAction,
                                 m_exportAction, m_importAction});
    // Ctrl+F and Ctrl+Return are the window's Find and Run All too: here the dock's win.
    PaneShortcuts::install(this, [this] { return actions() + QList<QAction*>{m_deleteAction}; });
    m_revisionTable->addActions({m_viewAction, m_diffAction, m_restoreRevisionAction, m_runAction,
                                 m_exportAction});

    // A push button is at least the style's standard width (about 80 px): five of them in a row
    // made the dock, and with it the window, too wide for a 1024 px screen. Just their text.
    auto fitButton = [](QPushButton* b) {
        b->setMinimumWidth(b->fontMetrics().horizontalAdvance(b->text().remove(QLatin1Char('&'))) + 18);
    };
    auto button = [this, fitButton](QAction* action, const QString& label) {
        auto* b = new QPushButton(label, this);
        b->setAccessibleName(action->text());
        b->setToolTip(action->toolTip());
        connect(b, &QPushButton::clicked, action, &QAction::trigger);
        connect(action, &QAction::enabledChanged, b, &QPushButton::setEnabled);
        b->setEnabled(action->isEnabled());
        fitButton(b);
        return b;
    };

    auto* searchRow = new QHBoxLayout;
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(m_trashButton);

    auto* docButtons = new QHBoxLayout;
    docButtons->addWidget(button(m_openAction, tr("Open")));
    docButtons->addWidget(button(m_renameAction, tr("Rename")));
    m_deleteButton = new QPushButton(tr("Delete"), this);
    m_deleteButton->setAccessibleName(tr("Move to trash"));
    connect(m_deleteButton, &QPushButton::clicked, this, [this] {
        if (showingTrash())
            m_untrashAction->trigger();
        else
            m_deleteAction->trigger();
    });
    fitButton(m_deleteButton);
    docButtons->addWidget(m_deleteButton);
    docButtons->addWidget(button(m_importAction, tr("Import")));
    docButtons->addStretch();

    auto* revButtons = new QHBoxLayout;
    revButtons->addWidget(button(m_viewAction, tr("View")));
    revButtons->addWidget(button(m_diffAction, tr("Diff")));
    revButtons->addWidget(button(m_restoreRevisionAction, tr("Restore")));
    revButtons->addWidget(button(m_runAction, tr("Run")));
    revButtons->addWidget(button(m_exportAction, tr("Export")));
    revButtons->addStretch();

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(searchRow);
    topLayout->addWidget(m_documentTable, 1);
    topLayout->addLayout(docButtons);

    auto* middle = new QWidget(this);
    auto* middleLayout = new QVBoxLayout(middle);
    middleLayout->setContentsMargins(0, 0, 0, 0);
    m_revisionsLabel = new QLabel(tr("Revisions"), middle);
    m_revisionsLabel->setBuddy(m_revisionTable);
    middleLayout->addWidget(m_revisionsLabel);
    middleLayout->addWidget(m_revisionTable, 1);
    middleLayout->addLayout(revButtons);

    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    auto* runsLabel = new QLabel(tr("Runs of this document"), bottom);
    runsLabel->setBuddy(m_runTable);
    bottomLayout->addWidget(runsLabel);
    bottomLayout->addWidget(m_runTable, 1);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(middle);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_status);

    // Keyboard: Tab leaves a table (arrows move inside it) and goes on in reading order, so that
    // each table's buttons are reached right after it.
    for (QAbstractItemView* table : {static_cast<QAbstractItemView*>(m_documentTable),
                                     static_cast<QAbstractItemView*>(m_revisionTable),
                                     static_cast<QAbstractItemView*>(m_runTable)})
        table->setTabKeyNavigation(false);
    QList<QWidget*> order{m_search, m_trashButton, m_documentTable};
    auto addRow = [&order](QLayout* row) {
        for (int i = 0; i < row->count(); ++i)
            if (QWidget* w = row->itemAt(i)->widget())
                order << w;
    };
    addRow(docButtons);
    order << m_revisionTable;
    addRow(revButtons);
    order << m_runTable;
    for (int i = 0; i + 1 < order.size(); ++i)
        QWidget::setTabOrder(order[i], order[i + 1]);
}

void DocumentBrowser::setServices(DocumentStore* store, UsageLedger* ledger)
{
    m_store = store;
    m_ledger = ledger;
    m_documentId.clear();
    refresh();
}

void DocumentBrowser::setExecutor(Executor* executor)
{
    if (m_executor)
        disconnect(m_executor, nullptr, this, nullptr);
    m_executor = executor;
    if (executor)
        connect(executor, &Executor::runStarted, this, [this](Run* run) {
            connect(run, &Run::finished, this, [this](const ExecutionResult& result) {
                if (!result.documentId.isEmpty() && result.documentId == m_documentId)
                    reloadRuns();
            });
        });
}

QString DocumentBrowser::statusText() const
{
    return m_status->text();
}

bool DocumentBrowser::fail(const QString& message)
{
    m_status->setText(message);
    m_status->setVisible(!message.isEmpty());
    emit errorOccurred(message);
    return false;
}

void DocumentBrowser::info(const QString& message)
{
    m_status->setText(message);
    m_status->setVisible(!message.isEmpty());
}

bool DocumentBrowser::showingTrash() const
{
    return m_trashButton->isChecked();
}

void DocumentBrowser::setShowTrash(bool trash)
{
    m_trashButton->setChecked(trash);
}

void DocumentBrowser::setSearchText(const QString& text)
{
    m_search->setText(text);
    m_searchTimer->stop();
    reloadDocuments();
}

QString DocumentBrowser::currentDocumentId() const
{
    const QModelIndex index = m_documentTable->currentIndex();
    return index.isValid() ? index.data(DocumentListModel::IdRole).toString() : QString();
}

void DocumentBrowser::refresh()
{
    reloadDocuments();
}

void DocumentBrowser::reloadDocuments()
{
    const QString keep = currentDocumentId().isEmpty() ? m_documentId : currentDocumentId();
    QList<Document> docs;
    if (m_store) {
        const QString text = m_search->text().trimmed();
        if (showingTrash()) {
            for (const Document& d : m_store->documents(true))
                if (d.deleted && (text.isEmpty() || d.title.contains(text, Qt::CaseInsensitive)))
                    docs.append(d);
        } else {
            docs = text.isEmpty() ? m_store->documents(false) : m_store->search(text);
        }
    }
    m_updating = true;
    m_model->setDocuments(docs);
    m_updating = false;
    m_deleteButton->setText(showingTrash() ? tr("Restore") : tr("Delete"));
    m_deleteButton->setAccessibleName(showingTrash() ? tr("Restore from trash") : tr("Move to trash"));
    if (!keep.isEmpty() && m_model->rowOf(keep) >= 0)
        selectDocument(keep);
    else
        loadDetails();
}

void DocumentBrowser::selectDocument(const QString& documentId)
{
    int row = m_model->rowOf(documentId);
    if (row < 0 && m_store && !documentId.isEmpty()) {
        // Not in the current view (filtered, or in the other of list/trash): show it.
        const auto doc = m_store->document(documentId);
        if (!doc)
            return;
        m_updating = true;
        m_search->clear();
        m_searchTimer->stop();
        m_trashButton->setChecked(doc->deleted);
        m_updating = false;
        reloadDocuments();
        row = m_model->rowOf(documentId);
        if (row < 0)
            return;
    }
    if (row < 0)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    m_documentTable->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_documentTable->scrollTo(index);
    if (m_documentId != documentId || m_revisions.isEmpty())
        loadDetails();
    else {
        reloadRevisions();
        reloadRuns();
    }
}

void DocumentBrowser::loadDetails()
{
    m_documentId = currentDocumentId();
    reloadRevisions();
    reloadRuns();
}

void DocumentBrowser::reloadRevisions()
{
    const QStringList keep = selectedRevisionIds();
    m_revisions = (m_store && !m_documentId.isEmpty()) ? m_store->revisions(m_documentId)
                                                       : QList<Revision>();
    // Keep only metadata: a long history of a big document would otherwise stay in memory.
    // Content is read per revision when it is opened, diffed or exported.
    for (Revision& r : m_revisions)
        r.content.clear();
    const auto doc = (m_store && !m_documentId.isEmpty()) ? m_store->document(m_documentId)
                                                          : std::optional<Document>();
    m_revisionsLabel->setText(doc ? tr("Revisions of %1").arg(doc->title) : tr("Revisions"));
    m_revisionTable->setRowCount(0);
    m_revisionTable->setRowCount(static_cast<int>(m_revisions.size()));
    const int count = static_cast<int>(m_revisions.size());
    for (int i = 0; i < count; ++i) {
        const Revision& r = m_revisions[i];
        auto* number = item(QString::number(count - i), r.id);
        number->setData(Qt::UserRole, r.id);
        m_revisionTable->setItem(i, RevNumber, number);
        m_revisionTable->setItem(i, RevTime, item(r.createdAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                                                  r.createdAt.toLocalTime().toString(Qt::ISODateWithMs)));
        m_revisionTable->setItem(i, RevSize, item(humanSize(r.size), tr("%n byte(s)", nullptr, static_cast<int>(std::min<qint64>(r.size, INT_MAX)))));
        m_revisionTable->setItem(i, RevSha, item(r.id.left(8), tr("Revision %1\nContent SHA-256 %2").arg(r.id, r.sha256)));
        const bool head = doc && doc->headRevisionId == r.id;
        m_revisionTable->setItem(i, RevHead, item(head ? tr("head") : QString()));
    }
    m_revisionTable->resizeColumnsToContents();
    m_revisionTable->horizontalHeader()->setSectionResizeMode(RevTime, QHeaderView::Stretch);
    selectRevisions(keep);
    updateActions();
}

void DocumentBrowser::reloadRuns()
{
    emit runsReloaded();
    m_runTable->setRowCount(0);
    if (!m_ledger || m_documentId.isEmpty())
        return;
    const QList<UsageEntry> entries = m_ledger->entriesForDocument(m_documentId);
    m_runTable->setRowCount(static_cast<int>(entries.size()));
    for (int i = 0; i < entries.size(); ++i) {
        const UsageEntry& e = entries[i];
        m_runTable->setItem(i, RunTime, item(e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                                             e.time.toLocalTime().toString(Qt::ISODate)));
        auto* rev = item(revisionLabel(e.revisionId), e.revisionId);
        rev->setData(Qt::UserRole, e.revisionId);
        m_runTable->setItem(i, RunRevision, rev);
        m_runTable->setItem(i, RunStatusCol, item(e.status, e.reason));
        m_runTable->setItem(i, RunCost, item(formatMoney(e.costMicros), e.reason));
    }
    m_runTable->resizeColumnsToContents();
    m_runTable->horizontalHeader()->setSectionResizeMode(RunTime, QHeaderView::Stretch);
}

QString DocumentBrowser::revisionLabel(const QString& revisionId) const
{
    if (revisionId.isEmpty())
        return tr("head");
    const int count = static_cast<int>(m_revisions.size());
    for (int i = 0; i < count; ++i)
        if (m_revisions[i].id == revisionId)
            return QStringLiteral("#%1 (%2)").arg(count - i).arg(revisionId.left(8)); // the id the notebook shows
    return revisionId.left(8);
}

QStringList DocumentBrowser::selectedRevisionIds() const
{
    QStringList ids;
    for (int row = 0; row < m_revisionTable->rowCount(); ++row) {
        QTableWidgetItem* it = m_revisionTable->item(row, RevNumber);
        if (it && it->isSelected())
            ids.append(it->data(Qt::UserRole).toString());
    }
    return ids;
}

void DocumentBrowser::selectRevisions(const QStringList& revisionIds)
{
    m_revisionTable->clearSelection();
    bool first = true;
    for (int row = 0; row < m_revisionTable->rowCount(); ++row) {
        QTableWidgetItem* it = m_revisionTable->item(row, RevNumber);
        if (it && revisionIds.contains(it->data(Qt::UserRole).toString())) {
            m_revisionTable->selectionModel()->select(
                m_revisionTable->model()->index(row, 0),
                QItemSelectionModel::Select | QItemSelectionModel::Rows);
            if (first)
                m_revisionTable->setCurrentItem(it, QItemSelectionModel::NoUpdate);
            first = false;
        }
    }
    updateActions();
}

void DocumentBrowser::updateActions()
{
    const bool hasDoc = !m_documentId.isEmpty();
    const bool trash = showingTrash();
    const int selected = static_cast<int>(selectedRevisionIds().size());
    m_openAction->setEnabled(hasDoc && !trash);
    m_viewAction->setEnabled(hasDoc && selected <= 1);
    m_diffAction->setEnabled(hasDoc && (selected == 2 || (selected <= 1 && m_revisions.size() > 1)));
    m_restoreRevisionAction->setEnabled(hasDoc && !trash && selected == 1);
    m_runAction->setEnabled(hasDoc && !trash && selected <= 1);
    m_renameAction->setEnabled(hasDoc);
    m_deleteAction->setEnabled(hasDoc && !trash);
    m_untrashAction->setEnabled(hasDoc && trash);
    m_deleteButton->setEnabled(hasDoc);
    m_importAction->setEnabled(m_store != nullptr);
    m_exportAction->setEnabled(hasDoc && selected <= 1);
}

std::optional<Revision> DocumentBrowser::loadRevision(const QString& revisionId) const
{
    if (!m_store || revisionId.isEmpty())
        return std::nullopt;
    auto rev = m_store->revision(revisionId);
    if (rev && rev->documentId != m_documentId)
        return std::nullopt;   // only revisions of the shown document
    return rev;
}

bool DocumentBrowser::openHeadForEditing()
{
    if (!m_store || m_documentId.isEmpty())
        return fail(tr("Select a document first."));
    const auto doc = m_store->document(m_documentId);
    if (!doc)
        return fail(tr("The document no longer exists."));
    if (doc->deleted)
        return fail(tr("“%1” is in the trash; restore it to edit it.").arg(doc->title));
    const auto head = m_store->revision(doc->headRevisionId);
    if (!head)
        return fail(tr("Cannot read the head revision of “%1”: %2").arg(doc->title, m_store->lastError()));
    info(QString());
    emit openForEditing(doc->id, doc->title, head->content, head->id);
    return true;
}

bool DocumentBrowser::openSelectedRevision()
{
    if (!m_store || m_documentId.isEmpty())
        return fail(tr("Select a document first."));
    const QStringList ids = selectedRevisionIds();
    if (ids.size() > 1)
        return fail(tr("Select one revision to open."));
    const QString id = ids.isEmpty() ? (m_revisions.isEmpty() ? QString() : m_revisions.first().id) : ids.first();
    const auto rev = loadRevision(id);
    const auto doc = m_store->document(m_documentId);
    if (!rev || !doc)
        return fail(tr("Cannot read that revision."));
    info(QString());
    emit openReadOnly(tr("%1 @ %2").arg(doc->title, revisionLabel(rev->id)), rev->content, rev->id);
    return true;
}

DiffView* DocumentBrowser::diffSelectedRevisions()
{
    if (!m_store || m_documentId.isEmpty()) {
        fail(tr("Select a document first."));
        return nullptr;
    }
    const auto doc = m_store->document(m_documentId);
    QStringList ids = selectedRevisionIds();   // newest first
    QString oldId, newId;
    if (ids.size() == 2) {
        newId = ids[0];
        oldId = ids[1];
    } else if (ids.size() <= 1 && doc && m_revisions.size() > 1) {
        newId = doc->headRevisionId;
        oldId = ids.isEmpty() || ids.first() == newId ? loadRevision(newId).value_or(Revision{}).parentId
                                                      : ids.first();
    }
    const auto oldRev = loadRevision(oldId);
    const auto newRev = loadRevision(newId);
    if (oldId.isEmpty() || newId.isEmpty() || !oldRev || !newRev || !doc) {
        fail(tr("Select two revisions to compare, or one to compare with the head."));
        return nullptr;
    }
    info(QString());
    QDialog* dialog = DiffView::openDialog(oldRev->content, newRev->content, revisionLabel(oldId),
                                           revisionLabel(newId), tr("Diff of %1").arg(doc->title), this);
    auto* view = dialog->findChild<DiffView*>();
    emit diffOpened(view);
    return view;
}

bool DocumentBrowser::restoreSelectedRevision()
{
    const QStringList ids = selectedRevisionIds();
    if (!m_store || m_documentId.isEmpty() || ids.size() != 1)
        return fail(tr("Select one revision to restore."));
    const auto doc = m_store->document(m_documentId);
    if (doc && doc->headRevisionId == ids.first())
        return fail(tr("That revision is already the head."));
    const auto restored = m_store->restore(m_documentId, ids.first());
    if (!restored)
        return fail(tr("Could not restore the revision: %1").arg(m_store->lastError()));
    const QString label = revisionLabel(ids.first());
    refresh();
    selectRevisions({restored->id});
    info(tr("Restored %1 as the new head.").arg(label));
    emit documentsChanged();
    return true;
}

bool DocumentBrowser::runSelectedRevision()
{
    if (!m_store || m_documentId.isEmpty())
        return fail(tr("Select a document first."));
    const QStringList ids = selectedRevisionIds();
    if (ids.size() > 1)
        return fail(tr("Select one revision to run."));
    const auto doc = m_store->document(m_documentId);
    const QString revisionId = ids.isEmpty() && doc ? doc->headRevisionId : ids.value(0);
    if (revisionId.isEmpty())
        return fail(tr("The document has no revision to run."));
    info(QString());
    emit runRevisionRequested(m_documentId, revisionId);
    return true;
}

bool DocumentBrowser::renameDocument(const QString& documentId, const QString& title)
{
    if (!m_store || documentId.isEmpty())
        return fail(tr("Select a document first."));
    if (title.trimmed().isEmpty())
        return fail(tr("A title cannot be empty."));
    if (!m_store->rename(documentId, title.trimmed()))
        return fail(tr("Could not rename: %1").arg(m_store->lastError()));
    refresh();
    info(QString());
    emit documentsChanged();
    return true;
}

bool DocumentBrowser::deleteDocument(const QString& documentId)
{
    if (!m_store || documentId.isEmpty())
        return fail(tr("Select a document first."));
    const auto doc = m_store->document(documentId);
    if (!m_store->setDeleted(documentId, true))
        return fail(tr("Could not move the document to the trash: %1").arg(m_store->lastError()));
    if (m_documentId == documentId)
        m_documentId.clear();
    refresh();
    info(tr("Moved “%1” to the trash.").arg(doc ? doc->title : documentId));
    emit documentsChanged();
    return true;
}

bool DocumentBrowser::restoreFromTrash(const QString& documentId)
{
    if (!m_store || documentId.isEmpty())
        return fail(tr("Select a document in the trash first."));
    if (!m_store->setDeleted(documentId, false))
        return fail(tr("Could not restore the document: %1").arg(m_store->lastError()));
    setShowTrash(false);
    refresh();
    selectDocument(documentId);
    const auto doc = m_store->document(documentId);
    info(tr("Restored “%1” from the trash.").arg(doc ? doc->title : documentId));
    emit documentsChanged();
    return true;
}

std::optional<QString> DocumentBrowser::importFile(const QString& path)
{
    if (!m_store) {
        fail(tr("No workspace is open."));
        return std::nullopt;
    }
    DocumentFiles files(*m_store);
    const auto doc = files.importFile(path);
    if (!doc) {
        fail(tr("Could not import %1: %2").arg(QFileInfo(path).fileName(), files.error()));
        return std::nullopt;
    }
    setShowTrash(false);
    m_search->clear();
    refresh();
    selectDocument(doc->id);
    info(tr("Imported “%1”.").arg(doc->title));
    emit documentsChanged();
    return doc->id;
}

bool DocumentBrowser::exportRevision(const QString& revisionId, const QString& path)
{
    if (!m_store)
        return fail(tr("No workspace is open."));
    DocumentFiles files(*m_store);
    if (!files.exportRevision(revisionId, path))
        return fail(tr("Could not export to %1: %2").arg(path, files.error()));
    info(tr("Exported to %1.").arg(path));
    return true;
}

void DocumentBrowser::renameCurrentInteractive()
{
    const auto doc = m_store ? m_store->document(currentDocumentId()) : std::nullopt;
    if (!doc) {
        fail(tr("Select a document first."));
        return;
    }
    bool ok = false;
    const QString title = QInputDialog::getText(this, tr("Rename document"),
                                                tr("Title (its extension sets the language):"),
                                                QLineEdit::Normal, doc->title, &ok);
    if (!ok || title == doc->title)
        return;
    const QString chosen = titleForRename(doc->title, title);
    if (chosen != doc->title)
        renameDocument(doc->id, chosen);
}

QString DocumentBrowser::titleForRename(const QString& oldTitle, const QString& newTitle)
{
    // The extension is the language (runs, highlighting): a rename that changes it says so.
    const auto from = languageFromTitle(oldTitle);
    const auto to = languageFromTitle(newTitle);
    if (!from || !to || *from == *to)
        return newTitle;
    LanguageChoice choice = LanguageChoice::Cancel;
    if (m_languagePrompt) {
        choice = m_languagePrompt(*from, *to);
    } else {
        QMessageBox box(QMessageBox::Question, tr("Rename document"),
                        tr("“%1” names a %2 file: the document would become %2 (its tabs and runs).")
                            .arg(newTitle, *to == Language::Python ? tr("Python") : tr("JavaScript")),
                        QMessageBox::NoButton, this);
        QPushButton* change = box.addButton(tr("Make it %1").arg(*to == Language::Python ? tr("Python") : tr("JavaScript")),
                                            QMessageBox::AcceptRole);
        QPushButton* keep = box.addButton(tr("Keep %1 (%2)").arg(*from == Language::Python ? tr("Python") : tr("JavaScript"),
                                                                 titleWithLanguage(newTitle, *from)),
                                          QMessageBox::ActionRole);
        box.addButton(QMessageBox::Cancel);
        box.exec();
        choice = box.clickedButton() == change ? LanguageChoice::Change
                 : box.clickedButton() == keep ? LanguageChoice::Keep
                                               : LanguageChoice::Cancel;
    }
    switch (choice) {
    case LanguageChoice::Change: return newTitle;
    case LanguageChoice::Keep: return titleWithLanguage(newTitle, *from);
    case LanguageChoice::Cancel: break;
    }
    return oldTitle; // renameDocument is not called with the same title: see the caller
}

void DocumentBrowser::importInteractive()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import a code file"), QString(),
        tr("Code files (*.py *.js *.mjs *.cjs);;All files (*)"));
    if (!path.isEmpty())
        importFile(path);
}

void DocumentBrowser::exportInteractive()
{
    const auto doc = m_store ? m_store->document(m_documentId) : std::nullopt;
    if (!doc) {
        fail(tr("Select a document first."));
        return;
    }
    const QStringList ids = selectedRevisionIds();
    const QString revisionId = ids.isEmpty() ? doc->headRevisionId : ids.first();
    QString name = doc->title;
    if (revisionId != doc->headRevisionId) {
        // An older revision gets its number in the suggested name, so it is not mistaken for the head.
        const QFileInfo fi(doc->title);
        name = QStringLiteral("%1-%2.%3").arg(fi.completeBaseName(), revisionId.left(8), fi.suffix());
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export revision"), name,
                                                      tr("Code files (*.py *.js *.mjs *.cjs);;All files (*)"));
    if (!path.isEmpty())
        exportRevision(revisionId, path);
}

} // namespace sandpad
