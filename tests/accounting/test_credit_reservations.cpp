// Credits reserved before a sandbox exists: concurrent runs (threads with their own connections,
// and other processes sharing the database) cannot spend one balance twice; a run's ledger row
// consumes or gives back its reservation; a crashed process's reservation expires.
#include "TempDatabase.h"
#include "TestRecords.h"

#include "core/accounting/CreditReservations.h"
#include "core/accounting/CreditsAccount.h"
#include "core/accounting/UsageLedger.h"

#include <QDateTime>
#include <QProcess>
#include <QSqlQuery>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <latch>
#include <memory>
#include <thread>
#include <vector>

using namespace sandpad;
using Outcome = CreditsAccount::Reservation::Outcome;
using RecordOutcome = UsageLedger::RecordOutcome;

namespace {

constexpr qint64 kRun = kCompletedRunCostMicros;

UsageEntry entry(const QString& runId, qint64 cost)
{
    return usageEntry(runId, QDateTime(), QStringLiteral("snippet.py"),
                      cost ? QStringLiteral("success") : QStringLiteral("timeout"), cost,
                      cost ? QString() : QStringLiteral("timeout"));
}

// A credits_child process: commands on its stdin, one answer line each.
class Child {
public:
    bool start(const QString& dataDir)
    {
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(QStringLiteral(CREDITS_CHILD_PATH), {dataDir});
        return m_process.waitForStarted(30000) && readAnswer() == u"ready";
    }
    void send(const QString& command) { m_process.write((command + u'\n').toLocal8Bit()); }
    QString readAnswer()
    {
        while (!m_process.canReadLine()) {
            if (!m_process.waitForReadyRead(30000))
                return QStringLiteral("<no answer: %1>").arg(m_process.errorString());
        }
        return QString::fromLocal8Bit(m_process.readLine()).trimmed();
    }
    QString ask(const QString& command)
    {
        send(command);
        return readAnswer();
    }
    void crash()
    {
        m_process.kill(); // SIGKILL: nothing is released
        m_process.waitForFinished(30000);
    }
    ~Child()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.closeWriteChannel(); // end of input: the child exits
            if (!m_process.waitForFinished(30000))
                crash();
        }
    }

private:
    QProcess m_process;
};

} // namespace

class TestCreditReservations : public QObject {
    Q_OBJECT
    TempDatabase m_data;

    int reservationRows() { return m_data.rowCount(QStringLiteral("credit_reservations")); }

    CreditsAccount& creditsWith(qint64 balance)
    {
        m_credits = std::make_unique<CreditsAccount>(m_data.db());
        m_credits->setEnabled(true);
        if (balance > 0)
            m_credits->topUp(balance);
        return *m_credits;
    }
    std::unique_ptr<CreditsAccount> m_credits;

private slots:
    void init() { m_data.initTest(); }
    void cleanup()
    {
        m_credits.reset();
        m_data.close();
    }

    void disabledReservesNothing()
    {
        CreditsAccount credits(m_data.db());
        QVERIFY(!credits.enabled());
        const auto r = credits.reserve(QStringLiteral("r1"), kRun);
        QCOMPARE(r.outcome, Outcome::NotNeeded);
        QVERIFY(r.granted());
        QVERIFY(r.reason.isEmpty());
        QCOMPARE(reservationRows(), 0);
        QVERIFY(!credits.release(QStringLiteral("r1")));
        QCOMPARE(credits.summary()->runsInProgress, 0);
    }

    void invalidRequestsRefused()
    {
        CreditsAccount& credits = creditsWith(kRun);
        auto r = credits.reserve(QString(), kRun);
        QCOMPARE(r.outcome, Outcome::Failed);
        QVERIFY(!r.granted());
        QVERIFY2(r.reason.contains(QStringLiteral("run id")), qPrintable(r.reason));
        r = credits.reserve(QStringLiteral("neg"), -1);
        QCOMPARE(r.outcome, Outcome::Failed);
        QVERIFY2(r.reason.contains(QStringLiteral("negative")), qPrintable(r.reason));
        QCOMPARE(credits.reserve(QStringLiteral("free"), 0).outcome, Outcome::NotNeeded);
        QCOMPARE(reservationRows(), 0);
    }

    void reservationHoldsTheBalanceUntilReleased()
    {
        CreditsAccount& credits = creditsWith(kRun);
        QCOMPARE(credits.reserve(QStringLiteral("r1"), kRun).outcome, Outcome::Reserved);
        QCOMPARE(credits.balanceMicros(), kRun); // held, not spent
        QVERIFY(!credits.canPay(kRun));
        auto s = credits.summary();
        QVERIFY(s);
        QCOMPARE(s->reservedMicros, kRun);
        QCOMPARE(s->runsInProgress, 1);
        QCOMPARE(s->availableMicros(), 0);
        QCOMPARE(s->balanceText(), QStringLiteral("$0.05 ($0.05 of it reserved by 1 run in progress)"));

        const auto refused = credits.reserve(QStringLiteral("r2"), kRun);
        QCOMPARE(refused.outcome, Outcome::Insufficient);
        QVERIFY(!refused.granted());
        QCOMPARE(refused.reason, QStringLiteral("the credits balance ($0.05) cannot cover this run ($0.05): "
                                                "$0.05 of it is reserved by 1 run in progress"));

        QVERIFY(credits.release(QStringLiteral("r1")));
        QVERIFY(!credits.release(QStringLiteral("r1"))); // idempotent
        QCOMPARE(credits.balanceMicros(), kRun);
        QVERIFY(credits.canPay(kRun));
        QCOMPARE(credits.summary()->balanceText(), QStringLiteral("$0.05"));
        QCOMPARE(credits.reserve(QStringLiteral("r2"), kRun).outcome, Outcome::Reserved);
    }

    void insufficientWithoutOtherRuns()
    {
        CreditsAccount& credits = creditsWith(30000);
        const auto r = credits.reserve(QStringLiteral("poor"), kRun);
        QCOMPARE(r.outcome, Outcome::Insufficient);
        QCOMPARE(r.reason, QStringLiteral("the credits balance ($0.03) cannot cover this run ($0.05)"));
        QCOMPARE(reservationRows(), 0);
    }

    void idempotentByRunId()
    {
        CreditsAccount& credits = creditsWith(2 * kRun);
        QCOMPARE(credits.reserve(QStringLiteral("r1"), kRun).outcome, Outcome::Reserved);
        QCOMPARE(credits.reserve(QStringLiteral("r1"), kRun).outcome, Outcome::AlreadyReserved);
        QVERIFY(credits.reserve(QStringLiteral("r1"), kRun).granted());
        QCOMPARE(reservationRows(), 1);
        QCOMPARE(credits.summary()->reservedMicros, kRun);
        const auto other = credits.reserve(QStringLiteral("r1"), 2 * kRun);
        QCOMPARE(other.outcome, Outcome::Failed);
        QVERIFY2(other.reason.contains(QStringLiteral("already holds a reservation of $0.05")),
                 qPrintable(other.reason));
        QCOMPARE(credits.summary()->reservedMicros, kRun);

        // A run already in the ledger is over: it cannot hold money again.
        UsageLedger ledger(m_data.db());
        QCOMPARE(ledger.record(entry(QStringLiteral("r1"), kRun), true), RecordOutcome::Recorded);
        const auto late = credits.reserve(QStringLiteral("r1"), kRun);
        QCOMPARE(late.outcome, Outcome::Failed);
        QVERIFY2(late.reason.contains(QStringLiteral("already recorded")), qPrintable(late.reason));
        QCOMPARE(reservationRows(), 0);
        QCOMPARE(credits.balanceMicros(), kRun);
    }

    void debitConsumesExactlyTheReservation()
    {
        CreditsAccount& credits = creditsWith(3 * kRun);
        UsageLedger ledger(m_data.db());
        QCOMPARE(credits.reserve(QStringLiteral("paid"), kRun).outcome, Outcome::Reserved);
        QCOMPARE(credits.reserve(QStringLiteral("other"), kRun).outcome, Outcome::Reserved);
        QCOMPARE(ledger.record(entry(QStringLiteral("paid"), kRun), true), RecordOutcome::Recorded);
        QCOMPARE(credits.balanceMicros(), 2 * kRun);
        auto s = credits.summary();
        QCOMPARE(s->reservedMicros, kRun); // only "other" still holds money
        QCOMPARE(s->runsInProgress, 1);
        QCOMPARE(s->availableMicros(), kRun);
        // Recording again changes nothing.
        QCOMPARE(ledger.record(entry(QStringLiteral("paid"), kRun), true), RecordOutcome::AlreadyRecorded);
        QCOMPARE(credits.balanceMicros(), 2 * kRun);
        QCOMPARE(credits.summary()->reservedMicros, kRun);
    }

    void zeroCostOutcomeGivesTheMoneyBack()
    {
        CreditsAccount& credits = creditsWith(kRun);
        UsageLedger ledger(m_data.db());
        QCOMPARE(credits.reserve(QStringLiteral("timeout"), kRun).outcome, Outcome::Reserved);
        QCOMPARE(ledger.record(entry(QStringLiteral("timeout"), 0), true), RecordOutcome::Recorded);
        QCOMPARE(reservationRows(), 0);
        QCOMPARE(credits.balanceMicros(), kRun);
        QVERIFY(credits.canPay(kRun));
        // Unbilled recording (debit not asked for) also ends the reservation.
        QCOMPARE(credits.reserve(QStringLiteral("unbilled"), kRun).outcome, Outcome::Reserved);
        QCOMPARE(ledger.record(entry(QStringLiteral("unbilled"), kRun), false), RecordOutcome::Recorded);
        QCOMPARE(reservationRows(), 0);
        QCOMPARE(credits.balanceMicros(), kRun);
    }

    void debitWithoutReservationLeavesOtherRunsMoney()
    {
        // The old path (debit at the end, no reservation) must not spend what a running run holds.
        CreditsAccount& credits = creditsWith(kRun);
        UsageLedger ledger(m_data.db());
        QCOMPARE(credits.reserve(QStringLiteral("running"), kRun).outcome, Outcome::Reserved);
        QCOMPARE(ledger.record(entry(QStringLiteral("unreserved"), kRun), true),
                 RecordOutcome::InsufficientCredits);
        QVERIFY2(ledger.lastError().contains(QStringLiteral("other runs in progress hold 50000")),
                 qPrintable(ledger.lastError()));
        QVERIFY(!ledger.find(QStringLiteral("unreserved")));
        QCOMPARE(ledger.record(entry(QStringLiteral("running"), kRun), true), RecordOutcome::Recorded);
        QCOMPARE(credits.balanceMicros(), 0);
    }

    void failedRecordKeepsTheReservation()
    {
        CreditsAccount& credits = creditsWith(kRun);
        UsageLedger ledger(m_data.db());
        QCOMPARE(credits.reserve(QStringLiteral("half"), kRun).outcome, Outcome::Reserved);
        QSqlQuery q(m_data.db().connection());
        QVERIFY(q.exec(QStringLiteral("CREATE TRIGGER block_debit BEFORE UPDATE OF balance_micros "
                                      "ON credits BEGIN SELECT RAISE(ABORT, 'debit blocked'); END")));
        QCOMPARE(ledger.record(entry(QStringLiteral("half"), kRun), true), RecordOutcome::Failed);
        // Rolled back as a whole: no row, no debit, and the money is still held for the run.
        QVERIFY(!ledger.find(QStringLiteral("half")));
        QCOMPARE(credits.balanceMicros(), kRun);
        QCOMPARE(credits.summary()->reservedMicros, kRun);
        QVERIFY(credits.release(QStringLiteral("half")));
        QVERIFY(credits.canPay(kRun));
    }

    void reservationOfACrashedProcessExpires()
    {
        CreditsAccount& credits = creditsWith(kRun);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const qint64 lifetime = CreditReservations::kLifetimeMs;
        QVERIFY(lifetime >= 3 * 300 * 1000); // well above the longest run

        // Made just inside its lifetime: it still holds the balance.
        CreditsAccount earlier(m_data.db());
        earlier.setClockForTesting([&] { return now - lifetime + 60 * 1000; });
        QCOMPARE(earlier.reserve(QStringLiteral("recent"), kRun).outcome, Outcome::Reserved);
        QCOMPARE(credits.reserve(QStringLiteral("new"), kRun).outcome, Outcome::Insufficient);
        QVERIFY(credits.release(QStringLiteral("recent")));

        // Made longer ago than its lifetime (its process died without recording): it no longer counts,
        // and the next reservation removes it.
        earlier.setClockForTesting([&] { return now - lifetime - 1000; });
        QCOMPARE(earlier.reserve(QStringLiteral("crashed"), kRun).outcome, Outcome::Reserved);
        QCOMPARE(reservationRows(), 1);
        QCOMPARE(credits.summary()->runsInProgress, 0);
        QVERIFY(credits.canPay(kRun));
        QCOMPARE(credits.reserve(QStringLiteral("new"), kRun).outcome, Outcome::Reserved);
        QCOMPARE(reservationRows(), 1);
        QVERIFY(credits.release(QStringLiteral("new")));

        // Made "in the future" (the clock was set back since): bounded as well.
        CreditsAccount later(m_data.db());
        later.setClockForTesting([&] { return now + lifetime + 60 * 1000; });
        QCOMPARE(later.reserve(QStringLiteral("future"), kRun).outcome, Outcome::Reserved);
        QCOMPARE(credits.summary()->runsInProgress, 0);
        QCOMPARE(credits.reserve(QStringLiteral("after"), kRun).outcome, Outcome::Reserved);
    }

    void concurrentThreadsOneBalanceOneRun()
    {
        CreditsAccount& credits = creditsWith(kRun);
        constexpr int kThreads = 8;
        for (int round = 0; round < 30; ++round) {
            std::latch start(kThreads);
            std::atomic<int> reserved{0}, insufficient{0}, other{0};
            std::atomic<int> winner{-1};
            std::vector<std::thread> threads;
            for (int t = 0; t < kThreads; ++t) {
                threads.emplace_back([&, t] {
                    start.arrive_and_wait(); // every thread has its connection's turn at once
                    const auto r = credits.reserve(QStringLiteral("t%1-%2").arg(round).arg(t), kRun);
                    if (r.outcome == Outcome::Reserved) {
                        ++reserved;
                        winner = t;
                    } else if (r.outcome == Outcome::Insufficient) {
                        ++insufficient;
                    } else {
                        ++other;
                    }
                    Database::releaseThreadConnections();
                });
            }
            for (auto& t : threads)
                t.join();
            QCOMPARE(other.load(), 0);
            QCOMPARE(reserved.load(), 1);
            QCOMPARE(insufficient.load(), kThreads - 1);
            QCOMPARE(reservationRows(), 1);
            QVERIFY(credits.release(QStringLiteral("t%1-%2").arg(round).arg(winner.load())));
        }
        QCOMPARE(credits.balanceMicros(), kRun);
    }

    void concurrentThreadRunsNeverOverspend()
    {
        // Whole runs (reserve, then record paid or free) from 4 threads against a balance for 10
        // paid runs: every granted run that ends paid is debited in full, none is recorded at $0
        // for lack of credits, and the balance never goes below zero.
        CreditsAccount& credits = creditsWith(10 * kRun);
        UsageLedger ledger(m_data.db());
        std::atomic<int> granted{0}, paid{0}, unpaidForLackOfCredits{0}, other{0};
        std::latch start(4);
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                start.arrive_and_wait();
                for (int i = 0; i < 1000; ++i) {
                    const QString runId = QStringLiteral("c%1-%2").arg(t).arg(i);
                    const auto r = credits.reserve(runId, kRun);
                    if (r.outcome == Outcome::Insufficient) {
                        // Refused while others hold the rest: try again, until it is all spent.
                        const auto s = credits.summary();
                        if (!s)
                            ++other;
                        if (!s || s->balanceMicros < kRun)
                            break;
                        std::this_thread::yield();
                        continue;
                    }
                    if (r.outcome != Outcome::Reserved) {
                        ++other;
                        break;
                    }
                    ++granted;
                    const qint64 cost = (i % 3 == 2) ? 0 : kRun; // some runs end at $0 (timeouts)
                    switch (ledger.record(entry(runId, cost), true)) {
                    case RecordOutcome::Recorded: paid += cost ? 1 : 0; break;
                    case RecordOutcome::InsufficientCredits: ++unpaidForLackOfCredits; break;
                    default: ++other; break;
                    }
                }
                Database::releaseThreadConnections();
            });
        }
        for (auto& t : threads)
            t.join();
        QCOMPARE(other.load(), 0);
        QCOMPARE(unpaidForLackOfCredits.load(), 0);
        QCOMPARE(paid.load(), 10);
        QVERIFY(granted.load() >= 10);
        QCOMPARE(credits.balanceMicros(), 0);
        QCOMPARE(reservationRows(), 0);
    }

    void concurrentProcessesOneBalanceOneRun()
    {
        CreditsAccount& credits = creditsWith(kRun);
        constexpr int kChildren = 6;
        std::vector<std::unique_ptr<Child>> children;
        for (int i = 0; i < kChildren; ++i) {
            children.push_back(std::make_unique<Child>());
            QVERIFY2(children.back()->start(m_data.path()), "credits_child did not start");
        }
        // A FIFO as a barrier: the children wait in open() until this process opens it for writing.
        const QByteArray fifo = m_data.filePath(QStringLiteral("barrier")).toLocal8Bit();
        QCOMPARE(::mkfifo(fifo.constData(), 0600), 0);
        const auto reserveAll = [&](const QString& prefix) {
            QStringList answers;
            for (int i = 0; i < kChildren; ++i) {
                children[size_t(i)]->send(QStringLiteral("barrier %1").arg(QString::fromLocal8Bit(fifo)));
                children[size_t(i)]->send(QStringLiteral("reserve %1%2 %3").arg(prefix).arg(i).arg(kRun));
            }
            for (int i = 0; i < kChildren; ++i) {
                if (const QString w = children[size_t(i)]->readAnswer(); w != u"waiting")
                    answers << w;
            }
            const int writer = ::open(fifo.constData(), O_WRONLY); // lets them all go at once
            for (int i = 0; i < kChildren; ++i)
                answers << children[size_t(i)]->readAnswer();
            if (writer >= 0)
                ::close(writer);
            return answers;
        };
        const auto winnerOf = [](const QStringList& answers) {
            int winner = -1;
            for (int i = 0; i < answers.size(); ++i) {
                if (answers[i] == u"reserved")
                    winner = i;
                else if (!answers[i].startsWith(QStringLiteral("insufficient the credits balance")))
                    return -2; // neither won nor refused for the balance
            }
            return answers.count(QStringLiteral("reserved")) == 1 ? winner : -3;
        };

        // 1. One wins; the winner gives the money back; every next round has one winner too.
        QStringList answers;
        int winner = -1;
        for (int round = 0; round < 100; ++round) {
            const QString prefix = QStringLiteral("a%1-").arg(round);
            answers = reserveAll(prefix);
            winner = winnerOf(answers);
            QVERIFY2(winner >= 0, qPrintable(answers.join(u'|')));
            QCOMPARE(children[size_t(winner)]->ask(QStringLiteral("release %1%2").arg(prefix).arg(winner)),
                     QStringLiteral("released"));
        }
        QCOMPARE(credits.balanceMicros(), kRun);
        QCOMPARE(reservationRows(), 0);

        // 2. One wins and records a paid run: the reservation is consumed, the balance spent once.
        answers = reserveAll(QStringLiteral("b"));
        winner = winnerOf(answers);
        QVERIFY2(winner >= 0, qPrintable(answers.join(u'|')));
        QCOMPARE(children[size_t(winner)]->ask(QStringLiteral("record b%1 %2").arg(winner).arg(kRun)),
                 QStringLiteral("recorded"));
        QCOMPARE(credits.balanceMicros(), 0);
        QCOMPARE(reservationRows(), 0);
        answers = reserveAll(QStringLiteral("c"));
        QCOMPARE(answers.count(QStringLiteral("insufficient the credits balance ($0.00) cannot cover this run ($0.05)")),
                 kChildren);

        // 3. One wins and crashes before recording: the money stays held (by a run that will never
        // end) until the reservation's lifetime is over, then it is free again.
        credits.topUp(kRun);
        answers = reserveAll(QStringLiteral("d"));
        winner = winnerOf(answers);
        QVERIFY2(winner >= 0, qPrintable(answers.join(u'|')));
        children[size_t(winner)]->crash();
        const auto held = credits.reserve(QStringLiteral("after-crash"), kRun);
        QCOMPARE(held.outcome, Outcome::Insufficient);
        QVERIFY2(held.reason.contains(QStringLiteral("reserved by 1 run in progress")), qPrintable(held.reason));
        CreditsAccount later(m_data.db());
        later.setClockForTesting([] {
            return QDateTime::currentMSecsSinceEpoch() + CreditReservations::kLifetimeMs + 1000;
        });
        QCOMPARE(later.reserve(QStringLiteral("after-expiry"), kRun).outcome, Outcome::Reserved);
        QCOMPARE(reservationRows(), 1); // the crashed run's row is gone
    }
};

QTEST_GUILESS_MAIN(TestCreditReservations)
#include "test_credit_reservations.moc"
