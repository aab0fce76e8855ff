#pragma once

#include "core/notebook/RunPreview.h"
#include "core/run/ExecutionResult.h"
#include "core/storage/ThreadLocalError.h"

#include <QList>
class QSqlDatabase;
#include <QString>
#include <optional>

namespace sandpad {

class Database;

// The run notebook's persistence: every finished run (with its charts) in the workspace DB, so
// the notebook survives restarts. Thread-safe like UsageLedger (per-thread connections).
class RunHistory {
public:
    // A run as a preview load returns it: its texts bounded, cuts saying which.
    struct Preview {
        ExecutionResult run;
        RunPreviewCuts cuts;
    };

    explicit RunHistory(Database& database);

    // Stores a finished run (its result, startedAt included; charts serialized here, once);
    // saving a runId again replaces the earlier copy (one transaction).
    bool save(const ExecutionResult& run);
    // The `limit` most recent runs (all when limit < 0), OLDEST FIRST, ready to display top-down.
    QList<ExecutionResult> recent(int limit = 100) const;
    // The same runs as previews (RunPreview: every text bounded), read without touching the
    // whole texts: what the notebook shows at start. A run stored without a preview gets one
    // here, once.
    QList<Preview> recentPreviews(int limit = 100) const;
    std::optional<ExecutionResult> find(const QString& runId) const;
    // The runs of one saved document, oldest first.
    QList<ExecutionResult> forDocument(const QString& documentId) const;
    int count() const;
    bool remove(const QString& runId);
    // One stored artifact's content (previews carry only small ones), or nullopt.
    std::optional<QByteArray> artifactContent(const QString& runId, const QString& name) const;
    // Keeps only the `keep` most recent runs.
    bool prune(int keep);
    void clear();

    QString lastError() const { return m_lastError.get(); } // this thread's last error

private:
    QList<ExecutionResult> load(const QString& where, const QVariantList& binds, int limit) const;
    QList<ExecutionResult> loadRows(const QString& where, const QVariantList& binds, int limit) const;
    // And its outputs; a preview's tables with their first rows only.
    void loadCharts(ExecutionResult& run, bool preview = false) const;
    void loadOutputs(ExecutionResult& run, bool preview) const;
    // The run's artifacts; content only up to `contentLimit` bytes each (-1: all).
    void loadArtifacts(ExecutionResult& run, qint64 contentLimit) const;
    bool storePreview(QSqlDatabase& db, const ExecutionResult& preview, const RunPreviewCuts& cuts) const;
    Database& m_db;
    mutable ThreadLocalError m_lastError;
};

} // namespace sandpad
