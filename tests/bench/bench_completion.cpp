// Benchmark: the Python language service (Jedi in its own local sandbox; issue 16's goal: first
// suggestions under 150 ms after a warm start). Prints the start to ready, the first answers
// once ready, and per-keystroke latency while "typing" (each keystroke one request, waited for),
// plus a burst of keystrokes where only the newest is answered. The load average is printed: the
// figures are only comparable within one run. Usage: bench_completion [keystroke rounds] (default 5)
#include "BenchStats.h"

#include "core/completion/CompletionService.h"

#include <QCoreApplication>
#include <QFile>
#include <QStringList>
#include <QThread>
#include <cstdio>
#include <vector>

using namespace sandpad;

namespace {

AssistRequest at(AssistKind kind, const QString& source)
{
    AssistRequest request;
    request.kind = kind;
    request.source = source;
    const QStringList lines = source.split(QLatin1Char('\n'));
    request.line = int(lines.size());
    request.column = int(lines.last().size());
    return request;
}

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).section(QLatin1Char(' '), 0, 2) : QStringLiteral("?");
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int rounds = argc > 1 ? qMax(1, atoi(argv[1])) : 5;
    std::printf("Load average at start: %s (%d cores)\n\n", qPrintable(loadAverage()), QThread::idealThreadCount());

    CompletionService service;
    QElapsedTimer clock;
    clock.start();
    if (!service.waitReady(180000)) {
        std::printf("The service did not start: %s\n", qPrintable(service.lastError()));
        return 1;
    }
    const double startMs = double(clock.nsecsElapsed()) / 1e6;

    std::printf("| step | ms | answer |\n|---|---:|---|\n");
    std::printf("| start to ready (sandbox, import jedi, warm-up numpy/pandas/matplotlib) | %.0f | |\n", startMs);
    const QList<QPair<QString, AssistRequest>> firsts{
        {QStringLiteral("first: `import os; os.pa`"), at(AssistKind::Complete, QStringLiteral("import os; os.pa"))},
        {QStringLiteral("first numpy: `np.`"), at(AssistKind::Complete, QStringLiteral("import numpy as np\nx = np.linspace(0, 1)\nnp."))},
        {QStringLiteral("first pandas: `df.`"), at(AssistKind::Complete, QStringLiteral("import pandas as pd\ndf = pd.DataFrame({'a': [1]})\ndf."))},
        {QStringLiteral("first calltip: `np.linspace(`"), at(AssistKind::Signatures, QStringLiteral("import numpy as np\nnp.linspace("))},
        {QStringLiteral("first help: `plt.plot`"), at(AssistKind::Help, QStringLiteral("import matplotlib.pyplot as plt\nplt.plot"))},
    };
    for (const auto& [label, request] : firsts) {
        AssistAnswer answer;
        const double ms = bench::timeMs([&] { answer = service.ask(request, 30000); });
        const int count = int(answer.completions.size() + answer.signatures.size() + answer.help.size());
        std::printf("| %s | %.1f | %s |\n", qPrintable(label), ms,
                    answer.ok ? qPrintable(QStringLiteral("%1 items").arg(count)) : qPrintable(answer.error));
    }

    // Typing a line of pandas code, one request per keystroke, each waited for.
    const QString prefix = QStringLiteral("import numpy as np\nimport pandas as pd\ndf = pd.DataFrame({'a': np.arange(3)})\n");
    const QString typed = QStringLiteral("df.groupby('a').agg");
    std::vector<double> keystrokes;
    for (int r = 0; r < rounds; ++r)
        for (int i = 1; i <= typed.size(); ++i) {
            AssistAnswer answer;
            keystrokes.push_back(bench::timeMs([&] { answer = service.ask(at(AssistKind::Complete, prefix + typed.left(i)), 30000); }));
        }
    const bench::Stats typing = bench::stats(keystrokes);
    std::printf("| per keystroke, `%s` typed %d times (median) | %.1f | %zu requests |\n", qPrintable(typed), rounds,
                typing.median, keystrokes.size());
    std::printf("| per keystroke (p95) | %.1f | |\n", typing.p95);

    // A burst: 20 keystrokes sent at once; the newest wins, the others are dropped.
    int delivered = 0;
    QObject::connect(&service, &CompletionService::answered, [&](const AssistAnswer&) { ++delivered; });
    AssistAnswer last;
    const double burstMs = bench::timeMs([&] {
        for (int i = 1; i < 20; ++i)
            service.request(at(AssistKind::Complete, prefix + typed.left(i % typed.size() + 1)));
        last = service.ask(at(AssistKind::Complete, prefix + typed), 30000);
    });
    std::printf("| burst of 20 keystrokes to the newest answer | %.1f | %d answers delivered |\n", burstMs, delivered);

    const CleanupReport cleanup = service.shutdown();
    std::printf("\nShutdown: %s. Load average at end: %s.\n", cleanup.confirmed ? "sandbox confirmed gone" : qPrintable(cleanup.detail),
                qPrintable(loadAverage()));
    return 0;
}
