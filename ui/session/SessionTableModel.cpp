#include "ui/session/SessionTableModel.h"

#include "core/session/NotebookSession.h"

#include <QTimer>

namespace sandpad {

namespace {

// Views address rows with int: a longer value shows its first 2^31 - 1 rows (said in the status).
constexpr qint64 kMaxViewRows = 2147483647;

bool numeric(const QString& dtype)
{
    return dtype.startsWith(u"int") || dtype.startsWith(u"uint") || dtype.startsWith(u"float") ||
           dtype.startsWith(u"complex") || dtype.startsWith(u"Int") || dtype.startsWith(u"UInt") ||
           dtype.startsWith(u"Float");
}

} // namespace

SessionTableModel::SessionTableModel(NotebookSession* session, const QString& name, QObject* parent)
    : QAbstractTableModel(parent), m_session(session), m_name(name)
{
    if (session)
        connect(session, &NotebookSession::tableFetched, this, &SessionTableModel::onFetched);
    reload();
}

int SessionTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(qMin(m_totalRows, kMaxViewRows));
}

int SessionTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(qMin<qint64>(m_totalColumns, kMaxViewRows));
}

void SessionTableModel::reload()
{
    ++m_generation;
    m_blocks.clear();
    m_order.clear();
    m_wanted.clear();
    m_columnLabels.clear();
    m_columnTypes.clear();
    m_rowLabels.clear();
    want(key(0, 0));
}

const SessionTableModel::Block* SessionTableModel::block(int row, int column) const
{
    const quint64 k = key(row / kBlockRows, column / kBlockColumns);
    const auto it = m_blocks.constFind(k);
    if (it != m_blocks.constEnd())
        return &it.value();
    want(k);
    return nullptr;
}

void SessionTableModel::want(quint64 blockKey) const
{
    if (m_wanted.contains(blockKey) || (m_inFlight && m_inFlightKey == blockKey && m_inFlightGeneration == m_generation))
        return;
    m_wanted.append(blockKey);
    while (m_wanted.size() > kMaxWanted)
        m_wanted.removeFirst(); // scrolled past: asked for again if it comes into view
    // data() is const and may be called while the view paints: ask from the event loop.
    if (m_askQueued)
        return;
    m_askQueued = true;
    auto* self = const_cast<SessionTableModel*>(this);
    QTimer::singleShot(0, self, &SessionTableModel::askNext);
}

void SessionTableModel::askNext()
{
    m_askQueued = false;
    if (m_inFlight || m_wanted.isEmpty())
        return;
    if (!m_session) {
        setStatus(tr("The session has ended."));
        m_wanted.clear();
        return;
    }
    const quint64 k = m_wanted.takeLast();
    TableRequest request;
    request.name = m_name;
    request.row = qint64(k >> 24) * kBlockRows;
    request.rows = kBlockRows;
    request.column = qint64(k & 0xffffff) * kBlockColumns;
    request.columns = kBlockColumns;
    m_inFlightKey = k;
    m_inFlightGeneration = m_generation;
    m_inFlight = m_session->fetchTable(request);
    if (m_session->isRunning())
        setStatus(tr("Waiting for the running execution to finish…"));
    else if (!m_loaded)
        setStatus(tr("Loading…"));
}

void SessionTableModel::onFetched(quint64 id, const TableWindow& window)
{
    if (id != m_inFlight)
        return; // another view's fetch from the same session
    m_inFlight = 0;
    const bool stale = m_inFlightGeneration != m_generation;
    if (stale) {
        askNext();
        return;
    }
    if (!window.ok()) {
        // A missing or changed variable, an ended session, a deadline: said, and nothing shown
        // that could be mistaken for the value.
        m_wanted.clear();
        if (m_loaded) {
            beginResetModel();
            m_blocks.clear();
            m_order.clear();
            m_totalRows = m_totalColumns = 0;
            m_loaded = false;
            endResetModel();
        }
        setStatus(window.error);
        return;
    }
    const bool shapeChanged = !m_loaded || window.totalRows != m_totalRows || window.totalColumns != m_totalColumns;
    if (shapeChanged)
        beginResetModel();
    m_type = window.type;
    m_totalRows = window.totalRows;
    m_totalColumns = window.totalColumns;
    Block b;
    b.index = window.index;
    b.columns = window.columns;
    b.dtypes = window.dtypes;
    b.cells = window.cells;
    const qint64 rowBlock = window.row / kBlockRows, columnBlock = window.column / kBlockColumns;
    m_columnLabels.insert(columnBlock, window.columns);
    m_columnTypes.insert(columnBlock, window.dtypes);
    m_rowLabels.insert(rowBlock, window.index);
    const quint64 k = key(rowBlock, columnBlock);
    if (!m_blocks.contains(k))
        m_order.append(k);
    m_blocks.insert(k, b);
    while (m_order.size() > kMaxBlocks)
        m_blocks.remove(m_order.takeFirst());
    if (shapeChanged) {
        m_loaded = true;
        endResetModel();
        emit loaded();
    } else if (!window.cells.isEmpty() && !window.columns.isEmpty()) {
        const int top = int(qMin(window.row, kMaxViewRows - 1)), left = int(window.column);
        emit dataChanged(index(top, left), index(top + int(window.cells.size()) - 1, left + int(window.columns.size()) - 1));
        emit headerDataChanged(Qt::Vertical, top, top + int(window.cells.size()) - 1);
        emit headerDataChanged(Qt::Horizontal, left, left + int(window.columns.size()) - 1);
    }
    setStatus(m_totalRows > kMaxViewRows ? tr("Only the first %L1 rows can be shown.").arg(kMaxViewRows) : QString());
    askNext();
}

QVariant SessionTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::TextAlignmentRole))
        return {};
    const Block* b = block(index.row(), index.column());
    const int r = index.row() % kBlockRows, c = index.column() % kBlockColumns;
    if (role == Qt::TextAlignmentRole) {
        const QString dtype = b && c < b->dtypes.size() ? b->dtypes[c] : QString();
        return QVariant::fromValue(Qt::Alignment((numeric(dtype) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    }
    if (!b)
        return role == Qt::DisplayRole ? QVariant(QStringLiteral("…")) : QVariant();
    if (r >= b->cells.size() || c >= b->cells[r].size())
        return {};
    return b->cells[r][c];
}

QVariant SessionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (orientation == Qt::Horizontal) {
        const qint64 blockIndex = section / kBlockColumns;
        const int c = section % kBlockColumns;
        const QStringList labels = m_columnLabels.value(blockIndex), types = m_columnTypes.value(blockIndex);
        if (c >= labels.size()) {
            if (m_loaded)
                want(key(0, blockIndex));
            return QString::number(section);
        }
        const QString type = c < types.size() ? types[c] : QString();
        return role == Qt::ToolTipRole ? tr("%1 (%2)").arg(labels[c], type) : QStringLiteral("%1\n%2").arg(labels[c], type);
    }
    const QStringList labels = m_rowLabels.value(section / kBlockRows);
    const int r = section % kBlockRows;
    return r < labels.size() ? labels[r] : QString::number(section);
}

void SessionTableModel::setStatus(const QString& status)
{
    if (status == m_status)
        return;
    m_status = status;
    emit statusChanged(status);
}

} // namespace sandpad
