#include "TempDatabase.h"
#include "TestRecords.h"

#include "core/accounting/CreditsAccount.h"
#include "core/accounting/UsageLedger.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QtTest>

#include <atomic>
#include <thread>
#include <vector>

using namespace sandpad;
using Outcome = UsageLedger::RecordOutcome;

namespace {

UsageEntry entry(const QString& runId, qint64 cost = kCompletedRunCostMicros,
                 const QDateTime& time = QDateTime())
{
    return usageEntry(runId, time, QStringLiteral("snippet.py"),
                      cost ? QStringLiteral("success") : QStringLiteral("timeout"), cost,
                      cost ? QString() : QStringLiteral("timeout"));
}

QDateTime utc(const char* iso)
{
    QDateTime t = QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODateWithMs);
    t.setTimeSpec(Qt::UTC);
    return t;
}

} // namespace

class TestUsageLedger : public QObject {
    Q_OBJECT
    TempDatabase m_data;

private slots:
    void init() { m_data.initTest(); }
    void cleanup() { m_data.close(); }

    void recordAndFind()
    {
        UsageLedger ledger(m_data.db());
        UsageEntry e = entry(QStringLiteral("run-1"), 50000, utc("2026-11-29T10:11:12.345"));
        e.source = QStringLiteral("document");
        e.documentId = QStringLiteral("doc");
        e.revisionId = QStringLiteral("rev");
        QCOMPARE(ledger.record(e), Outcome::Recorded);
        const auto got = ledger.find(QStringLiteral("run-1"));
        QVERIFY(got);
        QCOMPARE(got->runId, e.runId);
        QCOMPARE(got->time, e.time);
        QCOMPARE(got->time.timeSpec(), Qt::UTC);
        QCOMPARE(got->provider, e.provider);
        QCOMPARE(got->language, e.language);
        QCOMPARE(got->source, QStringLiteral("document"));
        QCOMPARE(got->documentId, QStringLiteral("doc"));
        QCOMPARE(got->revisionId, QStringLiteral("rev"));
        QCOMPARE(got->title, e.title);
        QCOMPARE(got->status, e.status);
        QCOMPARE(got->costMicros, 50000);
        QVERIFY(!ledger.find(QStringLiteral("nope")));
    }

    void missingTimeMeansNow()
    {
        UsageLedger ledger(m_data.db());
        const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-1);
        QCOMPARE(ledger.record(entry(QStringLiteral("r"))), Outcome::Recorded);
        QVERIFY(ledger.find(QStringLiteral("r"))->time >= before);
    }

    void invalidEntriesRefused()
    {
        UsageLedger ledger(m_data.db());
        QCOMPARE(ledger.record(entry(QString())), Outcome::Failed);
        QVERIFY(!ledger.lastError().isEmpty());
        QCOMPARE(ledger.record(entry(QStringLiteral("neg"), -5)), Outcome::Failed);
        QCOMPARE(m_data.rowCount(QStringLiteral("usage")), 0);
    }

    void idempotent()
    {
        UsageLedger ledger(m_data.db());
        QCOMPARE(ledger.record(entry(QStringLiteral("same"), 50000)), Outcome::Recorded);
        UsageEntry second = entry(QStringLiteral("same"), 0);
        second.status = QStringLiteral("timeout");
        QCOMPARE(ledger.record(second), Outcome::AlreadyRecorded);
        QCOMPARE(ledger.record(second, true), Outcome::AlreadyRecorded);
        QCOMPARE(m_data.rowCount(QStringLiteral("usage")), 1);
        QCOMPARE(ledger.find(QStringLiteral("same"))->costMicros, 50000);
        QCOMPARE(ledger.find(QStringLiteral("same"))->status, QStringLiteral("success"));
    }

    void orderingNewestFirst()
    {
        UsageLedger ledger(m_data.db());
        QCOMPARE(ledger.record(entry(QStringLiteral("b"), 0, utc("2026-11-02T00:00:00"))), Outcome::Recorded);
        QCOMPARE(ledger.record(entry(QStringLiteral("c"), 0, utc("2026-11-03T00:00:00"))), Outcome::Recorded);
        QCOMPARE(ledger.record(entry(QStringLiteral("a"), 0, utc("2026-11-01T00:00:00"))), Outcome::Recorded);
        const auto all = ledger.entries();
        QCOMPARE(all.size(), 3);
        QCOMPARE(all[0].runId, QStringLiteral("c"));
        QCOMPARE(all[1].runId, QStringLiteral("b"));
        QCOMPARE(all[2].runId, QStringLiteral("a"));
        const auto two = ledger.entries(2);
        QCOMPARE(two.size(), 2);
        QCOMPARE(two[0].runId, QStringLiteral("c"));
    }

    void totalsAreExactIntegers()
    {
        UsageLedger ledger(m_data.db());
        QCOMPARE(ledger.record(entry(QStringLiteral("1"), 50000, utc("2026-10-31T23:59:59"))), Outcome::Recorded);
        QCOMPARE(ledger.record(entry(QStringLiteral("2"), 50000, utc("2026-11-01T00:00:00"))), Outcome::Recorded);
        QCOMPARE(ledger.record(entry(QStringLiteral("3"), 0, utc("2026-11-01T12:00:00"))), Outcome::Recorded);
        QCOMPARE(ledger.record(entry(QStringLiteral("4"), 50000, utc("2026-11-29T08:00:00"))), Outcome::Recorded);
        QCOMPARE(ledger.totalMicros(), 150000);

        const auto days = ledger.totalsByDay();
        QCOMPARE(days.size(), 3);
        QCOMPARE(days[0].period, QStringLiteral("2026-11-29"));
        QCOMPARE(days[0].runs, 1);
        QCOMPARE(days[0].costMicros, 50000);
        QCOMPARE(days[1].period, QStringLiteral("2026-11-01"));
        QCOMPARE(days[1].runs, 2);
        QCOMPARE(days[1].costMicros, 50000);
        QCOMPARE(days[2].period, QStringLiteral("2026-10-31"));

        const auto months = ledger.totalsByMonth();
        QCOMPARE(months.size(), 2);
        QCOMPARE(months[0].period, QStringLiteral("2026-11"));
        QCOMPARE(months[0].runs, 3);
        QCOMPARE(months[0].costMicros, 100000);
        QCOMPARE(months[1].period, QStringLiteral("2026-10"));
        QCOMPARE(months[1].costMicros, 50000);

        // Stored as SQLite integers, never floats.
        QSqlQuery q(m_data.db().connection());
        QVERIFY(q.exec(QStringLiteral("SELECT DISTINCT typeof(cost_micros), typeof(time_ms) FROM usage")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("integer"));
        QCOMPARE(q.value(1).toString(), QStringLiteral("integer"));
        QVERIFY(!q.next());
    }

    void entriesForDocument()
    {
        UsageLedger ledger(m_data.db());
        UsageEntry d1 = entry(QStringLiteral("d1"));
        d1.documentId = QStringLiteral("doc-A");
        UsageEntry d2 = entry(QStringLiteral("d2"), 50000, QDateTime::currentDateTimeUtc().addSecs(5));
        d2.documentId = QStringLiteral("doc-A");
        UsageEntry other = entry(QStringLiteral("o"));
        other.documentId = QStringLiteral("doc-B");
        QCOMPARE(ledger.record(d1), Outcome::Recorded);
        QCOMPARE(ledger.record(d2), Outcome::Recorded);
        QCOMPARE(ledger.record(other), Outcome::Recorded);
        QCOMPARE(ledger.record(entry(QStringLiteral("adhoc"))), Outcome::Recorded);
        const auto forA = ledger.entriesForDocument(QStringLiteral("doc-A"));
        QCOMPARE(forA.size(), 2);
        QCOMPARE(forA[0].runId, QStringLiteral("d2"));
        QCOMPARE(forA[1].runId, QStringLiteral("d1"));
        QVERIFY(ledger.entriesForDocument(QStringLiteral("doc-C")).isEmpty());
    }

    void creditsOffByDefault()
    {
        CreditsAccount credits(m_data.db());
        QVERIFY(!credits.enabled());
        QCOMPARE(credits.balanceMicros(), 0);
        QVERIFY(credits.canPay(kCompletedRunCostMicros)); // disabled: no billing adapter

        // Debit requested but the account is off: recorded, nothing debited.
        UsageLedger ledger(m_data.db());
        QCOMPARE(ledger.record(entry(QStringLiteral("r")), true), Outcome::Recorded);
        QCOMPARE(credits.balanceMicros(), 0);
    }

    void creditsTopUpAndBalance()
    {
        CreditsAccount credits(m_data.db());
        credits.setEnabled(true);
        QVERIFY(credits.enabled());
        QVERIFY(!credits.canPay(1));
        QVERIFY(credits.canPay(0));
        credits.topUp(100000);
        credits.topUp(20000);
        QCOMPARE(credits.balanceMicros(), 120000);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("must be positive")));
        credits.topUp(-500);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("must be positive")));
        credits.topUp(0);
        QCOMPARE(credits.balanceMicros(), 120000);
        QVERIFY(credits.canPay(120000));
        QVERIFY(!credits.canPay(120001));
        credits.setEnabled(false);
        QVERIFY(!credits.enabled());
        QVERIFY(credits.canPay(10'000'000));
        QCOMPARE(credits.balanceMicros(), 120000);
        // Persisted in the DB, seen by another instance and after reopening.
        QVERIFY(m_data.reopen());
        CreditsAccount again(m_data.db());
        QCOMPARE(again.balanceMicros(), 120000);
        QVERIFY(!again.enabled());
    }

    void insufficientCreditsWritesNothing()
    {
        CreditsAccount credits(m_data.db());
        credits.setEnabled(true);
        credits.topUp(30000);
        UsageLedger ledger(m_data.db());
        QCOMPARE(ledger.record(entry(QStringLiteral("poor")), true), Outcome::InsufficientCredits);
        QVERIFY(ledger.lastError().contains(QStringLiteral("insufficient credits")));
        QVERIFY(!ledger.find(QStringLiteral("poor")));
        QCOMPARE(m_data.rowCount(QStringLiteral("usage")), 0);
        QCOMPARE(credits.balanceMicros(), 30000);
        // A zero-cost run (timeout, failure) is always recorded.
        QCOMPARE(ledger.record(entry(QStringLiteral("free"), 0), true), Outcome::Recorded);
        QCOMPARE(credits.balanceMicros(), 30000);
    }

    void debitInTheSameTransaction()
    {
        CreditsAccount credits(m_data.db());
        credits.setEnabled(true);
        credits.topUp(120000);
        UsageLedger ledger(m_data.db());
        QCOMPARE(ledger.record(entry(QStringLiteral("paid")), true), Outcome::Recorded);
        QCOMPARE(credits.balanceMicros(), 70000);
        QCOMPARE(ledger.record(entry(QStringLiteral("paid")), true), Outcome::AlreadyRecorded);
        QCOMPARE(credits.balanceMicros(), 70000);
        QCOMPARE(ledger.record(entry(QStringLiteral("unbilled")), false), Outcome::Recorded);
        QCOMPARE(credits.balanceMicros(), 70000);

        // Make the debit fail after the ledger row was inserted: the row must go too.
        QSqlQuery q(m_data.db().connection());
        QVERIFY(q.exec(QStringLiteral("CREATE TRIGGER block_debit BEFORE UPDATE OF balance_micros "
                                      "ON credits BEGIN SELECT RAISE(ABORT, 'debit blocked'); END")));
        QCOMPARE(ledger.record(entry(QStringLiteral("half")), true), Outcome::Failed);
        QVERIFY2(ledger.lastError().contains(QStringLiteral("debit blocked")),
                 qPrintable(ledger.lastError()));
        QVERIFY(!ledger.find(QStringLiteral("half")));
        QCOMPARE(credits.balanceMicros(), 70000);
        QCOMPARE(m_data.rowCount(QStringLiteral("usage")), 2);
    }

    void fourConcurrentWriters()
    {
        UsageLedger ledger(m_data.db());
        std::atomic<int> failures{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < 50; ++i) {
                    if (ledger.record(entry(QStringLiteral("w%1-%2").arg(t).arg(i)))
                        != Outcome::Recorded)
                        ++failures;
                }
            });
        }
        for (auto& t : threads)
            t.join();
        QCOMPARE(failures.load(), 0);
        QCOMPARE(m_data.rowCount(QStringLiteral("usage")), 200);
        QCOMPARE(ledger.entries().size(), 200);
        QCOMPARE(ledger.totalMicros(), 200 * kCompletedRunCostMicros);
    }

    void concurrentDebitsNeverOverdraw()
    {
        CreditsAccount credits(m_data.db());
        credits.setEnabled(true);
        credits.topUp(100 * kCompletedRunCostMicros);
        UsageLedger ledger(m_data.db());
        std::atomic<int> recorded{0}, refused{0}, other{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < 40; ++i) {
                    switch (ledger.record(entry(QStringLiteral("c%1-%2").arg(t).arg(i)), true)) {
                    case Outcome::Recorded: ++recorded; break;
                    case Outcome::InsufficientCredits: ++refused; break;
                    default: ++other; break;
                    }
                }
            });
        }
        for (auto& t : threads)
            t.join();
        QCOMPARE(other.load(), 0);
        QCOMPARE(recorded.load(), 100);
        QCOMPARE(refused.load(), 60);
        QCOMPARE(credits.balanceMicros(), 0);
        QCOMPARE(m_data.rowCount(QStringLiteral("usage")), 100);
    }
};

QTEST_GUILESS_MAIN(TestUsageLedger)
#include "test_usage_ledger.moc"
