#include "core/recovery/RecoveryJournal.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

using namespace sandpad;

class TestRecoveryJournal : public QObject {
    Q_OBJECT
private:
    static RecoverySnapshot snap(const QString& text, const QString& title = QStringLiteral("a.py"))
    {
        RecoverySnapshot s;
        s.title = title;
        s.language = QStringLiteral("python");
        s.documentId = QStringLiteral("doc-1");
        s.baseRevisionId = QStringLiteral("rev-1");
        s.text = text;
        return s;
    }

private slots:
    void writesWithinDebounceWindow()
    {
        QTemporaryDir dir;
        RecoveryJournal journal(dir.path());
        journal.setDebounceMs(300);
        QSignalSpy written(&journal, &RecoveryJournal::written);
        QElapsedTimer timer;
        timer.start();
        journal.noteChanged(QStringLiteral("tab1"), snap(QStringLiteral("print('hi')\n")));
        const QString path = journal.filePathFor(QStringLiteral("tab1"));
        QVERIFY(!QFile::exists(path));      // debounced, not written on every keystroke
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(path), 2000);
        qInfo("journal written after %lld ms", static_cast<long long>(timer.elapsed()));
        QCOMPARE(written.count(), 1);

        QString error;
        const auto s = RecoveryJournal::readFile(path, &error);
        QVERIFY2(s, qPrintable(error));
        QCOMPARE(s->text, QStringLiteral("print('hi')\n"));
        QCOMPARE(s->title, QStringLiteral("a.py"));
        QCOMPARE(s->documentId, QStringLiteral("doc-1"));
        QCOMPARE(s->baseRevisionId, QStringLiteral("rev-1"));
        QCOMPARE(s->tabId, QStringLiteral("tab1"));
        QVERIFY(s->savedAt.isValid());

        // Continuous typing (a change every 50 ms) is still written within the window.
        written.clear();
        QElapsedTimer typing;
        typing.start();
        QString text;
        while (typing.elapsed() < 1200) {
            text += QLatin1Char('x');
            journal.noteChanged(QStringLiteral("tab1"), snap(text));
            QTest::qWait(50); // the typist's pace (the input itself, not a wait for an event)
        }
        QVERIFY2(written.count() >= 2, "writes must not wait for typing to stop");
        QVERIFY(journal.flush());
        QCOMPARE(RecoveryJournal::readFile(path, &error)->text, text);

        journal.discard(QStringLiteral("tab1"));
        QVERIFY(!QFile::exists(path));
        QVERIFY(journal.pending().isEmpty());
    }

    void lazySnapshotAndOddTabIds()
    {
        QTemporaryDir dir;
        RecoveryJournal journal(dir.path());
        int calls = 0;
        const QString odd = QStringLiteral("../../escape me");
        journal.noteChanged(odd, RecoveryJournal::SnapshotFn([&] {
                                ++calls;
                                return snap(QStringLiteral("lazy"));
                            }));
        journal.noteChanged(odd, RecoveryJournal::SnapshotFn([&] {
                                ++calls;
                                return snap(QStringLiteral("lazy 2"));
                            }));
        QVERIFY(journal.flush());
        QCOMPARE(calls, 1);                                  // taken once, at write time
        const QString path = journal.filePathFor(odd);
        QCOMPARE(QFileInfo(path).absolutePath(), QDir(dir.path()).filePath(QStringLiteral("recovery")));
        const auto entries = journal.pending();
        QCOMPARE(entries.size(), 1);
        QVERIFY(entries[0].isValid());
        QCOMPARE(entries[0].tabId, odd);
        QCOMPARE(entries[0].snapshot->text, QStringLiteral("lazy 2"));
    }

    void corruptFilesAreReported()
    {
        QTemporaryDir dir;
        RecoveryJournal journal(dir.path());
        journal.noteChanged(QStringLiteral("good"), snap(QStringLiteral("kept text")));
        QVERIFY(journal.flush());
        const QString rdir = journal.directory();
        auto put = [&](const QString& name, const QByteArray& bytes) {
            QFile f(QDir(rdir).filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        put(QStringLiteral("garbage.json"), QByteArray("{\"format\": \"sandpad-recov", 25));
        put(QStringLiteral("binary.json"), QByteArray("\x00\xff\xfe junk", 9));
        put(QStringLiteral("newer.json"),
            R"({"format":"sandpad-recovery","version":99,"text":"from the future"})");
        put(QStringLiteral("notext.json"), R"({"format":"sandpad-recovery","version":1})");
        put(QStringLiteral("array.json"), "[1,2,3]");

        const QList<RecoveryEntry> entries = journal.pending();
        QCOMPARE(entries.size(), 6);
        int valid = 0;
        for (const RecoveryEntry& e : entries) {
            if (e.isValid()) {
                ++valid;
                QCOMPARE(e.snapshot->text, QStringLiteral("kept text"));
            } else {
                QVERIFY2(!e.error.isEmpty(), qPrintable(e.path));
                qInfo("reported: %s", qPrintable(e.error));
            }
        }
        QCOMPARE(valid, 1);
        for (const RecoveryEntry& e : entries)
            if (e.tabId == QStringLiteral("newer"))
                QVERIFY(e.error.contains(QStringLiteral("newer")));

        // Discarding a damaged file sets it aside instead of deleting it.
        for (const RecoveryEntry& e : entries)
            if (e.tabId == QStringLiteral("garbage"))
                QVERIFY(journal.discardEntry(e));
        QVERIFY(QFile::exists(QDir(rdir).filePath(QStringLiteral("garbage.json.corrupt"))));
        QCOMPARE(journal.pending().size(), 5);
    }

    void unwritableDirIsAnErrorNotACrash()
    {
        QTemporaryDir dir;
        // A regular file where the recovery directory should be: mkdir fails even for root.
        QFile blocker(QDir(dir.path()).filePath(QStringLiteral("recovery")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        RecoveryJournal journal(dir.path());
        journal.setDebounceMs(100);
        QSignalSpy failed(&journal, &RecoveryJournal::writeFailed);
        journal.noteChanged(QStringLiteral("t"), snap(QStringLiteral("precious")));
        QTRY_VERIFY_WITH_TIMEOUT(failed.count() >= 1, 2000);
        QVERIFY(!journal.lastError().isEmpty());
        qInfo("reported: %s", qPrintable(journal.lastError()));
        QVERIFY(journal.hasPendingWrite(QStringLiteral("t")));   // kept for a retry
        QVERIFY(!journal.flush());
        QVERIFY(journal.pending().isEmpty());

        // Once the directory becomes usable the pending text is written.
        QVERIFY(QFile::remove(blocker.fileName()));
        QVERIFY(journal.flush());
        QCOMPARE(journal.pending().size(), 1);
        QCOMPARE(journal.pending()[0].snapshot->text, QStringLiteral("precious"));

        if (::geteuid() != 0) {
            // A read-only directory (permissions do not stop root, hence the test above).
            QTemporaryDir ro;
            QVERIFY(QDir(ro.path()).mkdir(QStringLiteral("recovery")));
            QFile::setPermissions(QDir(ro.path()).filePath(QStringLiteral("recovery")),
                                  QFileDevice::ReadOwner | QFileDevice::ExeOwner);
            RecoveryJournal j2(ro.path());
            j2.noteChanged(QStringLiteral("t"), snap(QStringLiteral("x")));
            QVERIFY(!j2.flush());
            QVERIFY(!j2.lastError().isEmpty());
            QFile::setPermissions(QDir(ro.path()).filePath(QStringLiteral("recovery")),
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        }
    }

    void textSurvivesSigkill()
    {
        QTemporaryDir dir;
        QProcess child;
        child.setProcessChannelMode(QProcess::SeparateChannels);
        child.start(QStringLiteral(RECOVERY_CHILD_PATH), {dir.path(), QStringLiteral("tab-7")});
        QVERIFY(child.waitForStarted(5000));
        QVERIFY(child.waitForReadyRead(5000));
        QCOMPARE(child.readLine().trimmed(), QByteArray("ready"));

        // "Type" in three bursts.
        const QByteArray typed = "import math\nprint(math.pi)\n# ünïcode ✓\n";
        const QString expected = QString::fromUtf8(typed);
        QElapsedTimer timer;
        timer.start();
        for (const QByteArray& part : {typed.left(12), typed.mid(12, 15), typed.mid(27)}) {
            child.write(part);
            QVERIFY(child.waitForBytesWritten(2000));
            QTest::qWait(100); // a pause between bursts of typing (the input, not a wait for an event)
        }
        // Wait until the child reports that everything typed is on disk.
        QByteArray last;
        while (last != QByteArray("saved ") + QByteArray::number(expected.size())) {
            if (!child.canReadLine())
                QVERIFY2(child.waitForReadyRead(5000), "the child never journaled the text");
            last = child.readLine().trimmed();
            QVERIFY2(!last.startsWith("failed"), last.constData());
        }
        qInfo("journaled %lld ms after the first keystroke", static_cast<long long>(timer.elapsed()));

        QCOMPARE(::kill(static_cast<pid_t>(child.processId()), SIGKILL), 0);
        QVERIFY(child.waitForFinished(5000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        RecoveryJournal journal(dir.path());
        const QList<RecoveryEntry> entries = journal.pending();
        QCOMPARE(entries.size(), 1);
        QVERIFY2(entries[0].isValid(), qPrintable(entries[0].error));
        QCOMPARE(entries[0].tabId, QStringLiteral("tab-7"));
        QCOMPARE(entries[0].snapshot->text, expected);
        QCOMPARE(entries[0].snapshot->title, QStringLiteral("crash.py"));
        // No temporary files from the atomic writes are left looking like recovery files.
        QCOMPARE(QDir(journal.directory()).entryList(QDir::Files).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestRecoveryJournal)
#include "test_recovery_journal.moc"
