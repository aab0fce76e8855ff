// UsageView shows the real ledger's rows and totals and exports them as CSV.
#include "TestRecords.h"

#include "ui/usage/UsageTableModel.h"
#include "ui/usage/UsageView.h"

#include "core/accounting/UsageLedger.h"
#include "core/storage/Database.h"

#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace sandpad;

namespace {

UsageEntry entry(const QString& id, const QDateTime& time, const QString& status, qint64 cost, const QString& reason = {})
{
    return usageEntry(id, time, QStringLiteral("Untitled, \"1\""), status, cost, reason);
}

} // namespace

class TestUsageView : public QObject {
    Q_OBJECT
private slots:
    void showsLedgerRowsAndTotals()
    {
        QTemporaryDir dir;
        Database db(dir.path());
        QVERIFY2(db.open(), qPrintable(db.error()));
        UsageLedger ledger(db);
        const QDateTime d1(QDate(2026, 10, 30), QTime(10, 0), QTimeZone::utc());
        const QDateTime d2(QDate(2026, 11, 2), QTime(9, 0), QTimeZone::utc());
        QCOMPARE(ledger.record(entry("r1", d1, "success", kCompletedRunCostMicros)), UsageLedger::RecordOutcome::Recorded);
        QCOMPARE(ledger.record(entry("r2", d2, "error", kCompletedRunCostMicros)), UsageLedger::RecordOutcome::Recorded);
        QCOMPARE(ledger.record(entry("r3", d2.addSecs(60), "timeout", 0, "timeout")), UsageLedger::RecordOutcome::Recorded);
        UsageEntry doc = entry("r4", d2.addSecs(120), "success", kCompletedRunCostMicros);
        doc.source = QStringLiteral("document");
        doc.documentId = QStringLiteral("doc-1");
        doc.revisionId = QStringLiteral("0123456789abcdef");
        doc.title = QStringLiteral("analysis.py");
        QCOMPARE(ledger.record(doc), UsageLedger::RecordOutcome::Recorded);

        UsageView view;
        view.setLedger(&ledger);
        QCOMPARE(view.model()->rowCount(), 4);
        QCOMPARE(view.model()->columnCount(), int(UsageTableModel::ColumnCount));
        QCOMPARE(view.table()->model()->rowCount(), 4);
        QCOMPARE(view.model()->headerData(UsageTableModel::Reason, Qt::Horizontal).toString(), QStringLiteral("Reason"));

        // Find the rows by run id (the ledger answers newest first).
        int timeoutRow = -1, docRow = -1;
        for (int r = 0; r < 4; ++r) {
            if (view.model()->entry(r).runId == "r3") timeoutRow = r;
            if (view.model()->entry(r).runId == "r4") docRow = r;
        }
        QVERIFY(timeoutRow >= 0 && docRow >= 0);
        auto cell = [&](int row, int col) { return view.model()->index(row, col).data().toString(); };
        QCOMPARE(cell(timeoutRow, UsageTableModel::Cost), QStringLiteral("$0.00"));
        QCOMPARE(cell(timeoutRow, UsageTableModel::Status), QStringLiteral("timeout"));
        QCOMPARE(cell(timeoutRow, UsageTableModel::Reason), QStringLiteral("timeout"));
        QCOMPARE(cell(docRow, UsageTableModel::Cost), QStringLiteral("$0.05"));
        QCOMPARE(cell(docRow, UsageTableModel::Provider), QStringLiteral("local"));
        QVERIFY(cell(docRow, UsageTableModel::Source).contains("analysis.py"));
        QVERIFY(cell(docRow, UsageTableModel::Source).contains("01234567"));

        QCOMPARE(view.dayTotals()->rowCount(), 2);
        QCOMPARE(view.monthTotals()->rowCount(), 2);
        bool sawNovember = false;
        for (int r = 0; r < 2; ++r) {
            if (view.monthTotals()->item(r, 0)->text() == "2026-11") {
                sawNovember = true;
                QCOMPARE(view.monthTotals()->item(r, 1)->text(), QStringLiteral("3"));
                QCOMPARE(view.monthTotals()->item(r, 2)->text(), QStringLiteral("$0.10"));
            }
        }
        QVERIFY(sawNovember);
        QVERIFY2(view.summaryText().contains("4 runs") && view.summaryText().contains("$0.15"), qPrintable(view.summaryText()));

        // A new run appears on refresh.
        QCOMPARE(ledger.record(entry("r5", d2.addSecs(300), "success", kCompletedRunCostMicros)), UsageLedger::RecordOutcome::Recorded);
        view.refresh();
        QCOMPARE(view.model()->rowCount(), 5);

        const QString csvPath = dir.filePath("usage.csv");
        QVERIFY(view.exportCsv(csvPath));
        QFile f(csvPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split("\r\n", Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 6);
        QVERIFY(lines.at(0).startsWith("time,run_id,source"));
        const QString r3 = lines.filter(",r3,").value(0);
        QVERIFY2(r3.contains("\"Untitled, \"\"1\"\"\"") && r3.contains(",0.000000,timeout"), qPrintable(r3));
        QVERIFY(lines.filter(",r1,").value(0).startsWith("2026-10-30T10:00:00Z"));
        QVERIFY(lines.filter(",r1,").value(0).contains(",0.050000,"));
    }

    void formatsCosts()
    {
        QCOMPARE(UsageTableModel::formatCost(50000), QStringLiteral("$0.05"));
        QCOMPARE(UsageTableModel::formatCost(0), QStringLiteral("$0.00"));
        QCOMPARE(UsageTableModel::formatCost(12345678), QStringLiteral("$12.345678"));
        QCOMPARE(UsageTableModel::formatCost(1500000), QStringLiteral("$1.50"));
    }
};

QTEST_MAIN(TestUsageView)
#include "test_usage_view.moc"
