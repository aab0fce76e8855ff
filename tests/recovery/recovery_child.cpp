// A stand-in editor process for the crash test: everything read on stdin is "typed" into one tab
// and journaled; after each journal write it prints "saved <chars>" so the parent knows the text
// is on disk before it kills us with SIGKILL.
#include "core/recovery/RecoveryJournal.h"

#include <QCoreApplication>
#include <QSocketNotifier>
#include <cstdio>
#include <unistd.h>

using namespace sandpad;

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: recovery_child DATA_DIR TAB_ID\n");
        return 2;
    }
    const QString tabId = QString::fromLocal8Bit(argv[2]);
    RecoveryJournal journal(QString::fromLocal8Bit(argv[1]));
    journal.setDebounceMs(500);
    QString text;
    QSocketNotifier notifier(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &app, [&] {
        char buf[4096];
        const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
        if (n <= 0) {
            notifier.setEnabled(false);
            return;
        }
        text += QString::fromUtf8(buf, static_cast<qsizetype>(n));
        RecoverySnapshot s;
        s.title = QStringLiteral("crash.py");
        s.language = QStringLiteral("python");
        s.text = text;
        journal.noteChanged(tabId, s);
    });
    QObject::connect(&journal, &RecoveryJournal::written, &app, [&] {
        std::printf("saved %lld\n", static_cast<long long>(text.size()));
        std::fflush(stdout);
    });
    QObject::connect(&journal, &RecoveryJournal::writeFailed, &app, [](const QString&, const QString& e) {
        std::printf("failed %s\n", qPrintable(e));
        std::fflush(stdout);
    });
    std::printf("ready\n");
    std::fflush(stdout);
    return app.exec();
}
