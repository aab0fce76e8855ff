// Benchmark: from starting the `sandpad` process to its main window shown and editable
// (offscreen), over a few starts with a fresh workspace each time.
#include "BenchStats.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>
#include <cstdio>

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? std::max(3, atoi(argv[1])) : 10;
    std::vector<double> shown;
    for (int i = 0; i < n; ++i) {
        QTemporaryDir dir;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("SANDPAD_PROVIDER"), QStringLiteral("local"));
        p.setProcessEnvironment(env);
        shown.push_back(bench::timeMs([&] {
            p.start(QStringLiteral(SANDPAD_BINARY_DIR "/app/sandpad/sandpad"),
                    {QStringLiteral("--data-dir"), dir.filePath(QStringLiteral("data")), QStringLiteral("--report-startup")});
            while (p.waitForReadyRead(20000))
                if (p.readAllStandardOutput().contains("window shown"))
                    break;
        }));
        p.waitForFinished(20000);
    }
    const bench::Stats s = bench::stats(shown);
    std::printf("### App start to an editable window (offscreen, %d starts, fresh workspace each)\n\n", n);
    std::printf("| what | median ms | p95 ms |\n|---|---:|---:|\n");
    std::printf("| process start -> main window shown (goal < 500 ms) | %.0f | %.0f |\n", s.median, s.p95);
    return 0;
}
