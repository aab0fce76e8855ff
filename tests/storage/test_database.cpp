#include "core/accounting/CreditsAccount.h"
#include "core/accounting/UsageLedger.h"
#include "core/documents/DocumentStore.h"
#include "core/storage/Database.h"
#include "core/storage/Migrations.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QUuid>
#include <QtTest>

#include <atomic>
#include <thread>

using namespace sandpad;

namespace {

QByteArray checksum(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

QString pragma(Database& db, const QString& name)
{
    QSqlQuery q(db.connection());
    if (!q.exec(QStringLiteral("PRAGMA ") + name) || !q.next())
        return QStringLiteral("<failed: %1>").arg(q.lastError().text());
    return q.value(0).toString();
}

// Runs SQL on a file through a plain connection (not through Database), to craft files by hand.
bool rawExec(const QString& path, const QStringList& statements)
{
    const QString name = QStringLiteral("raw-") + QUuid::createUuid().toString();
    bool ok = true;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        ok = db.open();
        for (const QString& sql : statements) {
            QSqlQuery q(db);
            if (!ok || !q.exec(sql)) {
                qDebug() << "raw SQL failed:" << sql << q.lastError().text();
                ok = false;
                break;
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

bool hasConnectionWithPrefix(const QString& prefix)
{
    for (const QString& n : QSqlDatabase::connectionNames())
        if (n.startsWith(prefix))
            return true;
    return false;
}

} // namespace

class TestDatabase : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        // "connection still in use" and friends must never happen.
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
    }

    void createAndReopen()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("nested/data"));
        {
            Database db(dir);
            QVERIFY2(db.open(), qPrintable(db.error()));
            QVERIFY(QFile::exists(dir + QStringLiteral("/sandpad.db")));
            QCOMPARE(db.filePath(), dir + QStringLiteral("/sandpad.db"));
            QCOMPARE(db.schemaVersion(), Database::kSchemaVersion);
            QCOMPARE(pragma(db, QStringLiteral("journal_mode")), QStringLiteral("wal"));
            QCOMPARE(pragma(db, QStringLiteral("foreign_keys")), QStringLiteral("1"));
            QCOMPARE(pragma(db, QStringLiteral("busy_timeout")), QStringLiteral("5000"));
            QCOMPARE(pragma(db, QStringLiteral("synchronous")), QStringLiteral("1")); // NORMAL
            DocumentStore docs(db);
            QVERIFY(docs.create(QStringLiteral("a.py"), QStringLiteral("print(1)")));
        }
        Database again(dir);
        QVERIFY2(again.open(), qPrintable(again.error()));
        QCOMPARE(again.schemaVersion(), Database::kSchemaVersion);
        QCOMPARE(pragma(again, QStringLiteral("journal_mode")), QStringLiteral("wal"));
        QCOMPARE(DocumentStore(again).documents().size(), 1);
    }

    void uncreatableDataDir()
    {
        QTemporaryDir tmp;
        QFile blocker(tmp.filePath(QStringLiteral("file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        Database db(tmp.filePath(QStringLiteral("file/data")));
        QVERIFY(!db.open());
        QVERIFY2(db.error().contains(QStringLiteral("cannot create the data dir")), qPrintable(db.error()));
    }

    void notOpenGivesInvalidConnection()
    {
        QTemporaryDir tmp;
        Database db(tmp.path());
        QVERIFY(!db.connection().isValid());
        QVERIFY(!QFile::exists(db.filePath()));
    }

    void defaultDataDir()
    {
        const QByteArray saved = qgetenv("SANDPAD_DATA_DIR");
        qputenv("SANDPAD_DATA_DIR", "/tmp/sandpad-env-dir");
        QCOMPARE(Database::defaultDataDir(), QStringLiteral("/tmp/sandpad-env-dir"));
        qunsetenv("SANDPAD_DATA_DIR");
        QVERIFY(Database::defaultDataDir().endsWith(QStringLiteral("/sandpad")));
        if (!saved.isEmpty())
            qputenv("SANDPAD_DATA_DIR", saved);
    }

    void migrateFromEmptyFile()
    {
        QTemporaryDir tmp;
        QFile f(tmp.filePath(QStringLiteral("sandpad.db")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QCOMPARE(f.size(), 0);
        Database db(tmp.path());
        QVERIFY2(db.open(), qPrintable(db.error()));
        QCOMPARE(db.schemaVersion(), Database::kSchemaVersion);
    }

    void migrateFromVersion0SqliteFile()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("sandpad.db"));
        QVERIFY(rawExec(path, {QStringLiteral("CREATE TABLE t (x)"), QStringLiteral("DROP TABLE t")}));
        QVERIFY(QFileInfo(path).size() > 0);
        Database db(tmp.path());
        QVERIFY2(db.open(), qPrintable(db.error()));
        QCOMPARE(db.schemaVersion(), Database::kSchemaVersion);
    }

    void migrateFromVersion1KeepsData()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("sandpad.db"));
        // A schema-1 file as an older Sandpad left it, with a document and a ledger row.
        QStringList sql = Migrations::all().at(0).statements;
        QCOMPARE(Migrations::all().at(0).version, 1);
        sql << QStringLiteral("INSERT INTO documents (id, title, created_ms, updated_ms) "
                              "VALUES ('d1', 'old.py', 1, 1)")
            << QStringLiteral("INSERT INTO revisions (id, document_id, seq, content, sha256, size, "
                              "created_ms) VALUES ('r1', 'd1', 1, 'print(1)', "
                              "'%1', 8, 1)")
                   .arg(QString::fromLatin1(
                       QCryptographicHash::hash("print(1)", QCryptographicHash::Sha256).toHex()))
            << QStringLiteral("UPDATE documents SET head_revision_id = 'r1' WHERE id = 'd1'")
            << QStringLiteral("INSERT INTO usage (run_id, time_ms, cost_micros) VALUES ('run1', 5, 50000)")
            << QStringLiteral("PRAGMA user_version = 1");
        QVERIFY(rawExec(path, sql));

        Database db(tmp.path());
        QVERIFY2(db.open(), qPrintable(db.error()));
        QCOMPARE(db.schemaVersion(), Database::kSchemaVersion);
        QSqlQuery q(db.connection());
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM runs")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        q.finish();
        DocumentStore docs(db);
        QString reason;
        const auto rev = docs.authorize(QStringLiteral("d1"), QString(), &reason);
        QVERIFY2(rev, qPrintable(reason));
        QCOMPARE(rev->content, QStringLiteral("print(1)"));
        UsageLedger ledger(db);
        QVERIFY(ledger.find(QStringLiteral("run1")));
        QCOMPARE(ledger.totalMicros(), 50000);
    }

    void migrateFromVersion2KeepsCreditsAndAddsReservations()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("sandpad.db"));
        // A schema-2 file with credits on, a balance and a paid run, as the previous release left it.
        QStringList sql = Migrations::all().at(0).statements + Migrations::all().at(1).statements;
        QCOMPARE(Migrations::all().at(1).version, 2);
        sql << QStringLiteral("UPDATE credits SET enabled = 1, balance_micros = 120000 WHERE id = 1")
            << QStringLiteral("INSERT INTO usage (run_id, time_ms, cost_micros) VALUES ('run1', 5, 50000)")
            << QStringLiteral("PRAGMA user_version = 2");
        QVERIFY(rawExec(path, sql));

        Database db(tmp.path());
        QVERIFY2(db.open(), qPrintable(db.error()));
        QCOMPARE(db.schemaVersion(), Database::kSchemaVersion);
        QSqlQuery q(db.connection());
        QVERIFY2(q.exec(QStringLiteral("SELECT COUNT(*) FROM credit_reservations")), qPrintable(q.lastError().text()));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        // A reservation needs a positive amount.
        QVERIFY(!q.exec(QStringLiteral("INSERT INTO credit_reservations (run_id, amount_micros, created_ms, "
                                       "expires_ms) VALUES ('r', 0, 1, 2)")));
        q.finish();
        CreditsAccount credits(db);
        QVERIFY(credits.enabled());
        QCOMPARE(credits.balanceMicros(), 120000);
        QCOMPARE(credits.reserve(QStringLiteral("run2"), kCompletedRunCostMicros).outcome,
                 CreditsAccount::Reservation::Outcome::Reserved);
        QCOMPARE(credits.summary()->reservedMicros, kCompletedRunCostMicros);
        QCOMPARE(UsageLedger(db).totalMicros(), 50000);

        // Opening again (another process, a later start) migrates nothing twice.
        Database again(tmp.path());
        QVERIFY2(again.open(), qPrintable(again.error()));
        QCOMPARE(again.schemaVersion(), Database::kSchemaVersion);
        QCOMPARE(CreditsAccount(again).summary()->runsInProgress, 1);
    }

    void newerSchemaRefusedAndUntouched()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("sandpad.db"));
        QVERIFY(rawExec(path, {QStringLiteral("CREATE TABLE future (x)"),
                               QStringLiteral("INSERT INTO future VALUES (42)"),
                               QStringLiteral("PRAGMA user_version = 99")}));
        const QByteArray before = checksum(path);
        const QDateTime mtime = QFileInfo(path).lastModified();
        QVERIFY(!before.isEmpty());
        Database db(tmp.path());
        QVERIFY(!db.open());
        QVERIFY2(db.error().contains(QStringLiteral(
                     "was created by a newer Sandpad (schema 99); this build knows up to %1")
                                         .arg(Database::kSchemaVersion)),
                 qPrintable(db.error()));
        QVERIFY(!db.isOpen());
        QVERIFY(!db.connection().isValid());
        QCOMPARE(checksum(path), before);
        QCOMPARE(QFileInfo(path).lastModified(), mtime);
        // Still refused the second time (nothing was "fixed" by the first attempt).
        Database again(tmp.path());
        QVERIFY(!again.open());
        QCOMPARE(checksum(path), before);
    }

    void corruptFilesRefusedAndUntouched_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QByteArray text;
        for (int i = 0; i < 200; ++i)
            text += "this is not a database\n";
        QTest::newRow("text") << text << QStringLiteral("is not an SQLite database");
        QByteArray garbage("SQLite format 3\0", 16);
        QRandomGenerator rng(7);
        for (int i = 0; i < 8192; ++i)
            garbage += char(rng.bounded(256));
        QTest::newRow("header+garbage") << garbage << QStringLiteral("is corrupt or not a database");
    }

    void corruptFilesRefusedAndUntouched()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("sandpad.db"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        const QByteArray before = checksum(path);
        Database db(tmp.path());
        QVERIFY(!db.open());
        QVERIFY2(db.error().contains(expected), qPrintable(db.error()));
        QVERIFY2(db.error().contains(QStringLiteral("untouched")), qPrintable(db.error()));
        QCOMPARE(checksum(path), before);
    }

    void foreignSqliteFileRefusedAndUntouched()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("sandpad.db"));
        QVERIFY(rawExec(path, {QStringLiteral("CREATE TABLE contacts (name)")}));
        const QByteArray before = checksum(path);
        Database db(tmp.path());
        QVERIFY(!db.open());
        QVERIFY2(db.error().contains(QStringLiteral("another program")), qPrintable(db.error()));
        QCOMPARE(checksum(path), before);
    }

    void connectionPerThreadAndCleanup()
    {
        QTemporaryDir tmp;
        QString prefix;
        {
            Database db(tmp.path());
            QVERIFY(db.open());
            const QString mainName = db.connection().connectionName();
            prefix = mainName.left(mainName.lastIndexOf(QStringLiteral("-t")));
            QString threadName;
            bool threadOk = false;
            std::thread t([&] {
                QSqlDatabase c = db.connection();
                threadName = c.connectionName();
                QSqlQuery q(c);
                threadOk = q.exec(QStringLiteral("SELECT COUNT(*) FROM documents")) && q.next();
            });
            t.join();
            QVERIFY(threadOk);
            QVERIFY(threadName != mainName);
            // The thread ended: its connection went with it.
            QVERIFY(!QSqlDatabase::connectionNames().contains(threadName));
            QVERIFY(QSqlDatabase::connectionNames().contains(mainName));
        }
        QVERIFY(!hasConnectionWithPrefix(prefix));
    }

    void destroyedWhileOtherThreadAlive()
    {
        QTemporaryDir tmp;
        auto db = std::make_unique<Database>(tmp.path());
        QVERIFY(db->open());
        std::atomic<int> stage{0};
        QString name;
        std::thread t([&] {
            name = db->connection().connectionName();
            stage = 1;
            while (stage != 2)
                std::this_thread::yield();
        });
        while (stage != 1)
            std::this_thread::yield();
        db.reset(); // closes the other thread's connection too
        QVERIFY(!QSqlDatabase::connectionNames().contains(name));
        stage = 2;
        t.join();
    }

    // Two instances (as the GUI and sandpad-run would be) creating the same new workspace at once.
    void concurrentFirstOpen()
    {
        QTemporaryDir tmp;
        std::atomic<int> ok{0};
        std::atomic<bool> go{false};
        auto work = [&] {
            while (!go)
                std::this_thread::yield();
            Database db(tmp.path());
            if (!db.open())
                qWarning("open: %s", qPrintable(db.error()));
            else if (db.schemaVersion() != Database::kSchemaVersion)
                qWarning("schema %d", db.schemaVersion());
            else if (DocumentStore store(db); !store.create(QStringLiteral("x.py"), QStringLiteral("1")))
                qWarning("create: %s", qPrintable(store.lastError()));
            else
                ++ok;
        };
        std::thread a(work), b(work);
        go = true;
        a.join();
        b.join();
        QCOMPARE(ok.load(), 2);
        Database db(tmp.path());
        QVERIFY(db.open());
        QCOMPARE(DocumentStore(db).documents().size(), 2);
    }

    void twoThreadsUsingTheLedger()
    {
        QTemporaryDir tmp;
        Database db(tmp.path());
        QVERIFY(db.open());
        UsageLedger ledger(db);
        std::atomic<int> failures{0};
        auto work = [&](int t) {
            for (int i = 0; i < 50; ++i) {
                UsageEntry e;
                e.runId = QStringLiteral("t%1-%2").arg(t).arg(i);
                e.costMicros = kCompletedRunCostMicros;
                if (ledger.record(e) != UsageLedger::RecordOutcome::Recorded)
                    ++failures;
                if (ledger.entries(5).isEmpty())
                    ++failures;
            }
        };
        std::thread a(work, 0), b(work, 1);
        a.join();
        b.join();
        QCOMPARE(failures.load(), 0);
        QCOMPARE(ledger.entries().size(), 100);
        QCOMPARE(ledger.totalMicros(), 100 * kCompletedRunCostMicros);
    }
};

QTEST_GUILESS_MAIN(TestDatabase)
#include "test_database.moc"
