#pragma once

#include "core/recovery/TabInput.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <optional>

namespace sandpad {

// What an editor tab would need to come back after a crash.
struct RecoverySnapshot {
    QString tabId;
    QString title;
    QString language;          // "python" / "javascript" (informative)
    QString documentId;        // empty for an unsaved scratch tab
    QString baseRevisionId;    // the revision the text was opened from, if any
    QString text;
    TabInput input;            // its attached files (by path) and Input box
    QDateTime savedAt;         // when the journal wrote it (UTC); set by the journal
};

// One recovery file found on disk. A file that cannot be read has no snapshot and an error.
struct RecoveryEntry {
    QString path;
    QString tabId;             // from the file name when the file itself is unreadable
    std::optional<RecoverySnapshot> snapshot;
    QString error;
    bool isValid() const { return snapshot.has_value(); }
};

// The unsaved-text journal: one JSON file per open editor tab in <dataDir>/recovery/<tabId>.json,
// written atomically (QSaveFile) at most `debounceMs` after a change, removed when the tab is
// saved or closed cleanly. Files left behind are what a crash or kill -9 left unsaved.
// Lives on one thread (the GUI's); writes are synchronous and small enough for that.
class RecoveryJournal : public QObject {
    Q_OBJECT
public:
    explicit RecoveryJournal(const QString& dataDir, QObject* parent = nullptr);
    ~RecoveryJournal() override;

    QString directory() const { return m_dir; }
    // The longest a change waits before it is on disk. The timer is not restarted by further
    // changes, so continuous typing is still written every debounceMs. Default 1000 ms.
    void setDebounceMs(int ms);
    int debounceMs() const { return m_timer.interval(); }

    // Records the tab's current state; written when the timer fires. savedAt is set on write.
    void noteChanged(const QString& tabId, const RecoverySnapshot& snapshot);
    // Same, but the snapshot is taken only when the write happens (cheap for huge texts: the
    // caller need not copy the text on every keystroke). The function must stay valid until
    // discard(tabId) or the journal's destruction.
    using SnapshotFn = std::function<RecoverySnapshot()>;
    void noteChanged(const QString& tabId, const SnapshotFn& snapshot);

    // Writes every pending change now (e.g. on quit). False when any write failed (lastError()).
    bool flush();
    bool flush(const QString& tabId);
    // The tab was saved or closed cleanly: forget pending changes and remove its file.
    void discard(const QString& tabId);
    bool hasPendingWrite(const QString& tabId) const { return m_dirty.contains(tabId); }

    // Recovery files on disk, oldest first (read robustly: corrupt files are entries with an
    // error). Call at start, before this session writes anything.
    QList<RecoveryEntry> pending() const;
    // Removes a recovery file found by pending(). A corrupt one is kept aside as *.corrupt so
    // whatever is salvageable in it is not destroyed.
    bool discardEntry(const RecoveryEntry& entry);

    static std::optional<RecoverySnapshot> readFile(const QString& path, QString* error);
    QString filePathFor(const QString& tabId) const;
    QString lastError() const { return m_lastError; }

    static constexpr int kFormatVersion = 1;

signals:
    void written(const QString& tabId);
    // A write failed (read-only dir, disk full...). The change stays pending and is retried.
    void writeFailed(const QString& tabId, const QString& error);

private:
    bool write(const QString& tabId);
    void onTimer();

    QString m_dir;
    QTimer m_timer;
    QHash<QString, SnapshotFn> m_dirty;
    QString m_lastError;
};

} // namespace sandpad
