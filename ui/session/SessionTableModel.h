#pragma once

#include "core/session/TableWindow.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QPointer>

namespace sandpad {

class NotebookSession;

// A table variable of a notebook session (a numpy array, a pandas DataFrame or Series) as a
// windowed model: it knows the whole shape after the first answer, and fetches the blocks of
// rows and columns the view asks for, one request at a time, newest first (a fast scroll does
// not queue every block it passed). Nothing but the blocks seen lately is held: a 10,000,000-row
// frame opens at once and scrolls. Cells not fetched yet are empty until their block comes.
class SessionTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kBlockRows = 200;
    static constexpr int kBlockColumns = 20;
    static constexpr int kMaxBlocks = 64;    // kept; the oldest go first
    static constexpr int kMaxWanted = 8;     // blocks waiting to be asked for

    SessionTableModel(NotebookSession* session, const QString& name, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    QString name() const { return m_name; }
    QString type() const { return m_type; }
    qint64 totalRows() const { return m_totalRows; }
    qint64 totalColumns() const { return m_totalColumns; }
    QString status() const { return m_status; } // "Loading…", an error, or empty
    bool isLoaded() const { return m_loaded; }
    bool isWaiting() const { return m_inFlight != 0; } // a fetch is on its way
    // Forgets every block and asks for the first again (the variable may have changed).
    void reload();

signals:
    void statusChanged(const QString& status);
    void loaded(); // the first answer (its shape) came

private:
    struct Block {
        QStringList index;         // the rows' labels
        QStringList columns, dtypes;
        QList<QStringList> cells;
    };
    static quint64 key(qint64 rowBlock, qint64 columnBlock) { return (quint64(rowBlock) << 24) | quint64(columnBlock); }
    const Block* block(int row, int column) const; // null: not fetched (it is then wanted)
    void want(quint64 blockKey) const;
    void askNext();
    void onFetched(quint64 id, const TableWindow& window);
    void setStatus(const QString& status);

    QPointer<NotebookSession> m_session;
    QString m_name, m_type;
    qint64 m_totalRows = 0, m_totalColumns = 0;
    bool m_loaded = false;
    int m_generation = 0;                  // reload() makes answers of earlier requests stale
    QHash<quint64, Block> m_blocks;
    mutable QList<quint64> m_order;        // m_blocks' keys, oldest first
    mutable QList<quint64> m_wanted;       // newest last
    mutable bool m_askQueued = false;
    quint64 m_inFlight = 0;                // the fetch's id
    quint64 m_inFlightKey = 0;
    int m_inFlightGeneration = 0;
    QHash<qint64, QStringList> m_columnLabels, m_columnTypes; // per column block
    QHash<qint64, QStringList> m_rowLabels;                   // per row block
    QString m_status;
};

} // namespace sandpad
