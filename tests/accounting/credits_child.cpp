// Another process sharing the workspace database, for the concurrency tests: it opens DATA_DIR,
// prints "ready", then answers one line per command read on stdin:
//   reserve RUN MICROS   -> reserved | already | not-needed | insufficient REASON | failed REASON
//   release RUN          -> released | none
//   record RUN MICROS    -> recorded | already | insufficient | failed REASON   (debiting credits)
//   barrier FIFO         -> waiting, then blocks until the parent opens FIFO for writing: all the
//                           children's next commands then start at once
// The parent kills it with SIGKILL to stand for a crash between reserving and recording.
#include "core/accounting/CreditsAccount.h"
#include "core/accounting/UsageLedger.h"
#include "core/storage/Database.h"

#include <QCoreApplication>
#include <QStringList>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

using namespace sandpad;

namespace {

void answer(const QString& line)
{
    std::printf("%s\n", qPrintable(line));
    std::fflush(stdout);
}

QString reserve(CreditsAccount& credits, const QString& runId, qint64 micros)
{
    using Outcome = CreditsAccount::Reservation::Outcome;
    const auto r = credits.reserve(runId, micros);
    switch (r.outcome) {
    case Outcome::Reserved: return QStringLiteral("reserved");
    case Outcome::AlreadyReserved: return QStringLiteral("already");
    case Outcome::NotNeeded: return QStringLiteral("not-needed");
    case Outcome::Insufficient: return QStringLiteral("insufficient ") + r.reason;
    case Outcome::Failed: break;
    }
    return QStringLiteral("failed ") + r.reason;
}

QString record(UsageLedger& ledger, const QString& runId, qint64 micros)
{
    UsageEntry e;
    e.runId = runId;
    e.provider = QStringLiteral("local");
    e.status = micros ? QStringLiteral("success") : QStringLiteral("timeout");
    e.costMicros = micros;
    switch (ledger.record(e, true)) {
    case UsageLedger::RecordOutcome::Recorded: return QStringLiteral("recorded");
    case UsageLedger::RecordOutcome::AlreadyRecorded: return QStringLiteral("already");
    case UsageLedger::RecordOutcome::InsufficientCredits: return QStringLiteral("insufficient");
    case UsageLedger::RecordOutcome::Failed: break;
    }
    return QStringLiteral("failed ") + ledger.lastError();
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: credits_child DATA_DIR\n");
        return 2;
    }
    Database db(QString::fromLocal8Bit(argv[1]));
    if (!db.open()) {
        answer(QStringLiteral("failed ") + db.error());
        return 3;
    }
    CreditsAccount credits(db);
    UsageLedger ledger(db);
    answer(QStringLiteral("ready"));
    char buf[512];
    while (std::fgets(buf, sizeof buf, stdin)) {
        const QStringList words = QString::fromLocal8Bit(buf).simplified().split(QLatin1Char(' '));
        const QString command = words.value(0);
        const QString runId = words.value(1);
        const qint64 micros = words.value(2).toLongLong();
        if (command == u"reserve")
            answer(reserve(credits, runId, micros));
        else if (command == u"release")
            answer(credits.release(runId) ? QStringLiteral("released") : QStringLiteral("none"));
        else if (command == u"record")
            answer(record(ledger, runId, micros));
        else if (command == u"barrier") {
            answer(QStringLiteral("waiting"));
            const int fd = ::open(words.value(1).toLocal8Bit().constData(), O_RDONLY); // blocks
            if (fd < 0)
                answer(QStringLiteral("failed cannot open the barrier"));
            else
                ::close(fd);
        }
        else
            answer(QStringLiteral("failed unknown command: ") + command);
    }
    return 0;
}
