#pragma once

#include "notebook/RunRecord.h"
#include "storage/ThreadLocalError.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <optional>

namespace sandpad {

class Database;

// The run notebook's persistence: every finished run (with its charts) in the workspace DB, so
// the notebook survives restarts. Thread-safe like UsageLedger (per-thread connections).
class RunHistory {
public:
    explicit RunHistory(Database& database);

    // Stores the run; saving a runId again replaces the earlier copy (one transaction).
    bool save(const RunRecord& record);
    // The `limit` most recent runs (all when limit < 0), OLDEST FIRST, ready to display top-down.
    QList<RunRecord> recent(int limit = 100) const;
    // The same runs as previews (RunPreview: every text bounded, record.preview set), read
    // without touching the whole texts: what the notebook shows at start. A run stored without
    // a preview gets one here, once.
    QList<RunRecord> recentPreviews(int limit = 100) const;
    std::optional<RunRecord> find(const QString& runId) const;
    // The runs of one saved document, oldest first.
    QList<RunRecord> forDocument(const QString& documentId) const;
    int count() const;
    bool remove(const QString& runId);
    // Keeps only the `keep` most recent runs.
    bool prune(int keep);
    void clear();

    QString lastError() const { return m_lastError.get(); } // this thread's last error

private:
    QList<RunRecord> load(const QString& where, const QVariantList& binds, int limit) const;
    QList<RunRecord> loadRows(const QString& where, const QVariantList& binds, int limit) const;
    void loadCharts(QList<RunRecord>& records) const;
    bool storePreview(QSqlDatabase& db, const RunRecord& preview) const;
    Database& m_db;
    mutable ThreadLocalError m_lastError;
};

} // namespace sandpad
