// Benchmark: from starting the `sandpad` process to its main window shown and editable
// (offscreen, the window's notebook filled from the history), over a few starts: with a fresh
// workspace each time, and with a workspace whose history (the 50 runs the window reloads at
// start) is small runs or hostile ones (each printed a 4 MiB line, then more, and set a 2 MB
// result). A start must not depend on what earlier runs printed.
// Usage: bench_app_start [STARTS] [SANDPAD-BINARY]
#include "BenchStats.h"

#include "TestRecords.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <cstdio>

using namespace sandpad;

namespace {

// One start of the app on dataDir (a new workspace when dataDir is empty): ms from starting the
// process to its "window shown".
double startMs(const QString& binary, const QString& dataDir)
{
    QTemporaryDir dir;
    const QString data = dataDir.isEmpty() ? dir.filePath(QStringLiteral("data")) : dataDir;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("SANDPAD_PROVIDER"), QStringLiteral("local"));
    p.setProcessEnvironment(env);
    QElapsedTimer clock;
    clock.start();
    p.start(binary, {QStringLiteral("--data-dir"), data, QStringLiteral("--report-startup")});
    while (p.waitForReadyRead(600'000))
        if (p.readAllStandardOutput().contains("window shown"))
            break;
    const double ms = double(clock.nsecsElapsed()) / 1e6;
    p.waitForFinished(600'000);
    return ms;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? std::max(3, atoi(argv[1])) : 10;
    const QString binary = argc > 2 ? QString::fromLocal8Bit(argv[2])
                                    : QStringLiteral(SANDPAD_BINARY_DIR "/app/sandpad/sandpad");
    QTemporaryDir small, hostile;
    const QString smallData = small.filePath(QStringLiteral("data"));
    const QString hostileData = hostile.filePath(QStringLiteral("data"));
    QString error;
    if (!fillHistory(smallData, 50, false, &error) || !fillHistory(hostileData, 50, true, &error)) {
        std::fprintf(stderr, "cannot fill the history: %s\n", qPrintable(error));
        return 1;
    }

    // Interleaved, so that what else this machine runs meanwhile weighs on the three alike.
    std::vector<double> fresh, smallRuns, hostileRuns;
    for (int i = 0; i < n; ++i) {
        fresh.push_back(startMs(binary, QString()));
        smallRuns.push_back(startMs(binary, smallData));
        hostileRuns.push_back(startMs(binary, hostileData));
    }
    std::printf("### App start to an editable window (offscreen, %d starts each, interleaved)\n\n", n);
    std::printf("| workspace | median ms | p95 ms |\n|---|---:|---:|\n");
    auto row = [](const char* what, const std::vector<double>& v) {
        const bench::Stats s = bench::stats(v);
        std::printf("| %s | %.0f | %.0f |\n", what, s.median, s.p95);
    };
    row("fresh (goal < 500 ms)", fresh);
    row("history: 50 small runs", smallRuns);
    row("history: 50 runs that each printed a 4 MiB line, a 1 MB stderr line and a 2 MB result", hostileRuns);
    return 0;
}
