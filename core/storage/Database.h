#pragma once

#include <QSqlDatabase>
#include <QString>

namespace sandpad {

// The workspace's SQLite database (sandpad.db in the data dir): WAL, foreign keys on, schema
// migrations with a version number (PRAGMA user_version). Usable from any thread: connection()
// returns this thread's own connection to the same file.
//
// Connections are per (Database, thread). A thread's connections are closed when that thread
// ends; the destructor closes every connection of this Database (so destroy it only after the
// threads using it are done with it).
class Database {
public:
    static constexpr int kSchemaVersion = 9; // raised by each migration added (storage/Migrations.cpp)

    explicit Database(const QString& dataDir); // empty: defaultDataDir()
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // Opens (creating and migrating when needed). Returns false with error() set when the file is
    // corrupt, not a database, or of a newer schema than this build knows: it is never overwritten.
    bool open();
    bool isOpen() const { return m_opened; }
    QString error() const { return m_error; }
    QString dataDir() const { return m_dataDir; }
    QString filePath() const;

    // This thread's connection (opened on first use). Invalid (every query fails) until open()
    // has succeeded.
    QSqlDatabase connection() const;

    // The schema version stored in the file (PRAGMA user_version), -1 when unreadable.
    int schemaVersion() const;

    // The default data dir: $SANDPAD_DATA_DIR, else QStandardPaths::AppDataLocation of an
    // application named "sandpad" (GenericDataLocation/sandpad), whatever the running binary is
    // called, so that the GUI and sandpad-run share one workspace.
    static QString defaultDataDir();
    // Closes the connections the calling thread opened, of every Database. A worker thread calls
    // it when its database work is done: left to the thread's end, the closing runs after
    // QThread::wait() has returned, and can meet a process that is already tearing down Qt's
    // registry of connections (a heap corruption seen in sandpad-run's exit).
    static void releaseThreadConnections();

    static constexpr const char* kFileName = "sandpad.db";
    static constexpr int kBusyTimeoutMs = 5000;

private:
    bool probeExisting();
    bool migrate(QSqlDatabase& db);
    QString m_dataDir;
    QString m_error;
    QString m_connectionPrefix;
    bool m_opened = false;
};

} // namespace sandpad
