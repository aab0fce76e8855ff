#pragma once

#include <QSqlDatabase>
#include <QString>

namespace sandpad {

// The workspace's SQLite database (sandpad.db in the data dir): WAL, foreign keys on, schema
// migrations with a version number (PRAGMA user_version). Usable from any thread: connection()
// returns this thread's own connection to the same file.
class Database {
public:
    static constexpr int kSchemaVersion = 1; // raised by each migration added

    explicit Database(const QString& dataDir);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // Opens (creating and migrating when needed). Returns false with error() set when the file is
    // corrupt, not a database, or of a newer schema than this build knows: it is never overwritten.
    bool open();
    QString error() const { return m_error; }
    QString dataDir() const { return m_dataDir; }
    QString filePath() const;

    // This thread's connection (opened on first use).
    QSqlDatabase connection() const;

    // The default data dir: $SANDPAD_DATA_DIR, else QStandardPaths::AppDataLocation.
    static QString defaultDataDir();

private:
    bool migrate(QSqlDatabase& db);
    QString m_dataDir;
    QString m_error;
    QString m_connectionPrefix;
};

} // namespace sandpad
