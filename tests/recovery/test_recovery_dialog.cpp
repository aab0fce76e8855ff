#include "ui/recovery/RecoveryDialog.h"

#include <QApplication>
#include <QDir>
#include <QTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sandpad;

class TestRecoveryDialog : public QObject {
    Q_OBJECT
private slots:
    void offersEachTabAndAppliesChoices()
    {
        QTemporaryDir dir;
        RecoveryJournal journal(dir.path());
        RecoverySnapshot a;
        a.title = QStringLiteral("alpha.py");
        a.text = QStringLiteral("print('alpha')\n");
        RecoverySnapshot b;
        b.title = QStringLiteral("beta.js");
        b.text = QStringLiteral("console.log('beta')\n");
        b.documentId = QStringLiteral("doc-9");
        b.baseRevisionId = QStringLiteral("0123456789");
        journal.noteChanged(QStringLiteral("a"), a);
        journal.noteChanged(QStringLiteral("b"), b);
        QVERIFY(journal.flush());
        QFile bad(QDir(journal.directory()).filePath(QStringLiteral("c.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("not json");
        bad.close();

        RecoveryDialog dialog(journal);
        QCOMPARE(dialog.count(), 3);
        int ia = -1, ib = -1, ic = -1;
        for (int i = 0; i < dialog.count(); ++i) {
            const RecoveryEntry& e = dialog.entries()[i];
            (e.tabId == QStringLiteral("a") ? ia : e.tabId == QStringLiteral("b") ? ib : ic) = i;
        }
        QVERIFY(ia >= 0 && ib >= 0 && ic >= 0);
        QCOMPARE(dialog.decision(ia), RecoveryDialog::Decision::Restore);
        QCOMPARE(dialog.decision(ic), RecoveryDialog::Decision::Later);

        dialog.setCurrentIndex(ib);
        QVERIFY(dialog.previewText().contains(QStringLiteral("console.log('beta')")));
        QVERIFY(dialog.detailsText().contains(QStringLiteral("beta.js")));
        QVERIFY(dialog.detailsText().contains(QStringLiteral("01234567")));
        dialog.setCurrentIndex(ic);
        QVERIFY(dialog.detailsText().contains(QStringLiteral("cannot be read")));
        dialog.setDecision(ic, RecoveryDialog::Decision::Restore);  // nothing to restore: ignored
        QCOMPARE(dialog.decision(ic), RecoveryDialog::Decision::Later);

        dialog.setDecision(ib, RecoveryDialog::Decision::Discard);
        dialog.accept();
        const QList<RecoveryEntry> restore = dialog.toRestore();
        QCOMPARE(restore.size(), 1);
        QCOMPARE(restore[0].snapshot->text, a.text);
        QVERIFY(!QFile::exists(journal.filePathFor(QStringLiteral("b"))));   // discarded
        QVERIFY(QFile::exists(journal.filePathFor(QStringLiteral("a"))));    // until the caller re-journals it
        QVERIFY(QFile::exists(bad.fileName()));                              // later: kept
        QVERIFY(journal.discardEntry(restore[0]));
        QCOMPARE(journal.pending().size(), 1);
    }

    void offerRunsOnlyWhenThereIsSomething()
    {
        QTemporaryDir dir;
        RecoveryJournal journal(dir.path());
        QVERIFY(RecoveryDialog::offer(journal).isEmpty());   // nothing pending: no dialog, no wait
        RecoverySnapshot s;
        s.title = QStringLiteral("t.py");
        s.text = QStringLiteral("x = 1\n");
        journal.noteChanged(QStringLiteral("t"), s);
        QVERIFY(journal.flush());
        bool sawDialog = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<RecoveryDialog*>(QApplication::activeModalWidget());
            sawDialog = dialog != nullptr;
            if (dialog)
                dialog->accept();
        });
        const QList<RecoveryEntry> restore = RecoveryDialog::offer(journal);
        QVERIFY(sawDialog);
        QCOMPARE(restore.size(), 1);
        QCOMPARE(restore[0].snapshot->text, s.text);
    }

    void longTextPreviewIsCapped()
    {
        QTemporaryDir dir;
        RecoveryJournal journal(dir.path());
        RecoverySnapshot s;
        s.title = QStringLiteral("big.py");
        s.text = QString(200000, QLatin1Char('x'));
        journal.noteChanged(QStringLiteral("big"), s);
        QVERIFY(journal.flush());
        RecoveryDialog dialog(journal);
        QCOMPARE(dialog.count(), 1);
        QVERIFY(dialog.previewText().size() < RecoveryDialog::kPreviewChars + 100);
        QVERIFY(dialog.previewText().contains(QStringLiteral("more character")));
    }
};

QTEST_MAIN(TestRecoveryDialog)
#include "test_recovery_dialog.moc"
