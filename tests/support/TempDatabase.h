#pragma once

#include "core/storage/Database.h"

#include <QString>
#include <QTemporaryDir>
#include <memory>

namespace sandpad {

// A workspace database in a temporary folder of its own, for suites that start each test (or the
// whole suite) on an empty database. The folder outlives reopen(), so a test can "quit and start
// again" on the same data.
class TempDatabase {
public:
    // A new empty folder with the database opened in it (any earlier one is closed and removed).
    // False with error() set when either fails.
    bool open();
    // Closes the database and opens it again from the same folder.
    bool reopen();
    // For a suite's init(): any warning printed during the test fails it, and the test starts on a
    // new database (when that fails, so does init(), and the test is not run).
    void initTest();
    // Closes the database, then removes the folder.
    void close();

    Database& db() { return *m_db; }
    QString path() const { return m_dir ? m_dir->path() : QString(); }
    QString filePath(const QString& name) const { return m_dir ? m_dir->filePath(name) : QString(); }
    QString error() const { return m_error; }
    // SELECT COUNT(*) FROM table; -1 when the query fails.
    int rowCount(const QString& table);

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Database> m_db; // declared after m_dir: closed before the folder goes
    QString m_error;
};

} // namespace sandpad
