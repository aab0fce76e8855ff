#include "core/storage/Database.h"

#include "core/storage/Migrations.h"
#include "core/storage/Transaction.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QThread>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QUuid>

#include <atomic>

namespace sandpad {

namespace {

// A serial number per thread: unlike thread ids it is never reused, so a connection name can
// never be picked up by a later thread.
std::atomic<quint64> g_threadSerial{0};
thread_local const quint64 t_threadSerial = ++g_threadSerial;

// The connections this thread opened; closed when the thread ends (QSqlDatabase connections are
// thread-affine and must not outlive their thread).
struct ThreadConnections {
    QStringList names;
    ~ThreadConnections()
    {
        for (const QString& name : std::as_const(names))
            QSqlDatabase::removeDatabase(name); // a no-op when the Database already removed it
    }
};
thread_local ThreadConnections t_connections;

QString sqlError(const QSqlQuery& q)
{
    return q.lastError().text();
}

} // namespace

Database::Database(const QString& dataDir)
    : m_dataDir(dataDir.isEmpty() ? defaultDataDir() : dataDir),
      m_connectionPrefix(QStringLiteral("sandpad-db-")
                         + QUuid::createUuid().toString(QUuid::WithoutBraces))
{
}

Database::~Database()
{
    // Close every connection of this Database, whichever thread opened it: the threads are done
    // with it (see the header) and the names are unique to this instance.
    const QStringList names = QSqlDatabase::connectionNames();
    for (const QString& name : names) {
        if (name.startsWith(m_connectionPrefix))
            QSqlDatabase::removeDatabase(name);
    }
    t_connections.names.removeIf(
        [this](const QString& n) { return n.startsWith(m_connectionPrefix); });
}

void Database::releaseThreadConnections()
{
    for (const QString& name : std::as_const(t_connections.names))
        QSqlDatabase::removeDatabase(name); // a no-op when the Database already removed it
    t_connections.names.clear();
}

QString Database::filePath() const
{
    return QDir(m_dataDir).filePath(QString::fromLatin1(kFileName));
}

QString Database::defaultDataDir()
{
    const QString env = qEnvironmentVariable("SANDPAD_DATA_DIR");
    if (!env.isEmpty())
        return env;
    // Not AppDataLocation of whatever binary runs (it would be "sandpad-run" for the CLI, or a
    // test's name): the location AppDataLocation gives an application named "sandpad".
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return QDir(base.isEmpty() ? QDir::homePath() + QStringLiteral("/.local/share") : base)
        .filePath(QStringLiteral("sandpad"));
}

QSqlDatabase Database::connection() const
{
    if (!m_opened)
        return QSqlDatabase();
    const QString name = m_connectionPrefix + QStringLiteral("-t") + QString::number(t_threadSerial);
    if (QSqlDatabase::contains(name))
        return QSqlDatabase::database(name);

    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(filePath());
    t_connections.names.append(name);
    if (!db.open()) {
        qWarning("sandpad: cannot open %s: %s", qPrintable(filePath()),
                 qPrintable(db.lastError().text()));
        return db;
    }
    QSqlQuery q(db);
    // Per connection settings (journal_mode=WAL is stored in the file by open()).
    for (const QString& pragma :
         {QStringLiteral("PRAGMA foreign_keys = ON"),
          QStringLiteral("PRAGMA busy_timeout = %1").arg(kBusyTimeoutMs),
          QStringLiteral("PRAGMA synchronous = NORMAL")}) {
        if (!q.exec(pragma))
            qWarning("sandpad: %s failed: %s", qPrintable(pragma), qPrintable(sqlError(q)));
    }
    return db;
}

int Database::schemaVersion() const
{
    QSqlQuery q(connection());
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
        return -1;
    return q.value(0).toInt();
}

// Inspects an existing file without writing to it: the header, then a read-only connection.
bool Database::probeExisting()
{
    const QString path = filePath();
    QFile file(path);
    if (!file.exists() || file.size() == 0)
        return true; // new (SQLite treats an empty file as an empty database)

    const QString untouched = QStringLiteral(" Sandpad left it untouched; move it away or choose "
                                             "another data dir (SANDPAD_DATA_DIR).");
    if (!file.open(QIODevice::ReadOnly)) {
        m_error = QStringLiteral("cannot read %1: %2.").arg(path, file.errorString());
        return false;
    }
    static const QByteArray magic("SQLite format 3\0", 16);
    if (file.read(16) != magic) {
        m_error = QStringLiteral("%1 is not an SQLite database (corrupt or another kind of file).")
                      .arg(path) + untouched;
        return false;
    }
    file.close();

    const QString probeName = m_connectionPrefix + QStringLiteral("-probe");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), probeName);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        bool ok = db.open();
        QString why = ok ? QString() : db.lastError().text();
        int version = -1;
        int objects = 0;
        if (ok) {
            // One statement, one snapshot: read apart, another opener's first migration could
            // commit in between (version 0 read before, its tables after: "another program").
            QSqlQuery q(db);
            ok = q.exec(QStringLiteral("SELECT (SELECT user_version FROM pragma_user_version), "
                                       "(SELECT count(*) FROM sqlite_master)")) &&
                 q.next();
            if (ok) {
                version = q.value(0).toInt();
                objects = q.value(1).toInt();
            }
            // No full integrity check here: it reads every page, and startup must stay fast.
            if (!ok)
                why = q.lastError().text();
        }
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(probeName);

        if (!ok) {
            m_error = QStringLiteral("%1 is corrupt or not a database (%2).").arg(path, why)
                      + untouched;
            return false;
        }
        if (version > kSchemaVersion) {
            m_error = QStringLiteral("%1 was created by a newer Sandpad (schema %2); this build "
                                     "knows up to %3.")
                          .arg(path)
                          .arg(version)
                          .arg(kSchemaVersion)
                      + untouched;
            return false;
        }
        if (version == 0 && objects > 0) {
            m_error = QStringLiteral("%1 is an SQLite database of another program (it has tables "
                                     "but no Sandpad schema version).")
                          .arg(path)
                      + untouched;
            return false;
        }
    }
    return true;
}

bool Database::open()
{
    if (m_opened)
        return true;
    m_error.clear();
    if (!QDir().mkpath(m_dataDir)) {
        m_error = QStringLiteral("cannot create the data dir %1.").arg(m_dataDir);
        return false;
    }
    if (!probeExisting())
        return false;

    m_opened = true; // connection() may now open this thread's connection
    QSqlDatabase db = connection();
    if (!db.isOpen()) {
        m_error = QStringLiteral("cannot open %1: %2.").arg(filePath(), db.lastError().text());
        m_opened = false;
        return false;
    }
    {
        // Switching the journal mode needs the file to itself while another process or thread
        // opens it too (e.g. the GUI and sandpad-run on a first start); SQLite then answers
        // "database is locked" at once (no busy handler), or keeps the old mode and names it
        // without an error: either way, try again for as long as the busy timeout.
        QElapsedTimer waited;
        waited.start();
        for (;;) {
            QSqlQuery q(db);
            const bool answered = q.exec(QStringLiteral("PRAGMA journal_mode = WAL")) && q.next();
            const QString mode = answered ? q.value(0).toString().toLower() : QString();
            if (mode == u"wal")
                break;
            const QString error = answered ? QStringLiteral("the journal mode stayed %1").arg(mode) : sqlError(q);
            const bool busy = answered || error.contains(QLatin1String("locked"));
            if (!busy || waited.elapsed() > kBusyTimeoutMs) {
                m_error = QStringLiteral("cannot switch %1 to WAL mode: %2.").arg(filePath(), error);
                m_opened = false;
                return false;
            }
            QThread::msleep(10);
        }
    }
    if (!migrate(db)) {
        m_opened = false;
        return false;
    }
    return true;
}

bool Database::migrate(QSqlDatabase& db)
{
    for (const Migration& m : Migrations::all()) {
        Transaction tx(db);
        if (!tx.isActive()) {
            m_error = QStringLiteral("cannot start the migration to schema %1: %2.")
                          .arg(m.version)
                          .arg(tx.error());
            return false;
        }
        // Read the version inside the write lock: another process may have migrated meanwhile.
        int current = -1;
        {
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next())
                current = q.value(0).toInt();
        }
        if (current < 0) {
            m_error = QStringLiteral("cannot read the schema version of %1.").arg(filePath());
            return false;
        }
        if (current > kSchemaVersion) {
            m_error = QStringLiteral("%1 was created by a newer Sandpad (schema %2); this build "
                                     "knows up to %3.")
                          .arg(filePath())
                          .arg(current)
                          .arg(kSchemaVersion);
            return false;
        }
        if (current >= m.version)
            continue;
        for (const QString& sql : m.statements) {
            QSqlQuery q(db);
            if (!q.exec(sql)) {
                m_error = QStringLiteral("migration to schema %1 failed: %2 (in: %3)")
                              .arg(m.version)
                              .arg(sqlError(q), sql.simplified().left(80));
                return false; // rolled back by tx
            }
        }
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("PRAGMA user_version = %1").arg(m.version))) {
            m_error = QStringLiteral("cannot set the schema version: %1").arg(sqlError(q));
            return false;
        }
        q.finish();
        if (!tx.commit()) {
            m_error = QStringLiteral("migration to schema %1 failed to commit: %2")
                          .arg(m.version)
                          .arg(tx.error());
            return false;
        }
    }
    return true;
}

} // namespace sandpad
