// Benchmark: the Python language service (Jedi in its own local sandbox; issue 16's goal: first
// suggestions under 150 ms after a warm start). Two services in the same run, asked in turn: the
// baseline (a new jedi.Script per request, as before: Options::reuseInference = false) and the
// service as it is (one inference state kept across requests, the warm-up's included, and the
// completions of the context of a name being typed reused). Prints the start to ready, the first
// answers once ready, per-keystroke latency while "typing" pandas code (each keystroke one
// request, waited for; each round a different variable, so no round reuses another's contexts),
// and a burst where only the newest is answered, with the ratio baseline / now. The load average
// is printed: the figures are only comparable within one run.
// Usage: bench_completion [keystroke rounds] (default 5)
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

QString summary(const AssistAnswer& answer)
{
    const int count = int(answer.completions.size() + answer.signatures.size() + answer.help.size());
    return answer.ok ? QStringLiteral("%1 items").arg(count) : answer.error;
}

void row(const QString& label, double before, double now, const QString& note)
{
    std::printf("| %s | %.1f | %.1f | %.1fx | %s |\n", qPrintable(label), before, now, now > 0 ? before / now : 0.0,
                qPrintable(note));
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int rounds = argc > 1 ? qMax(1, atoi(argv[1])) : 5;
    std::printf("Load average at start: %s (%d cores)\n\n", qPrintable(bench::loadAverage()), QThread::idealThreadCount());

    CompletionService::Options baselineOptions;
    baselineOptions.reuseInference = false;
    CompletionService baseline(baselineOptions);
    CompletionService service;
    double startMs[2] = {0, 0};
    CompletionService* both[2] = {&baseline, &service};
    for (int i = 0; i < 2; ++i) {
        startMs[i] = bench::timeMs([&] { both[i]->waitReady(180000); });
        if (!both[i]->isReady()) {
            std::printf("The service did not start: %s\n", qPrintable(both[i]->lastError()));
            return 1;
        }
    }

    std::printf("| step | baseline ms | now ms | baseline / now | answers (baseline; now) |\n|---|---:|---:|---:|---|\n");
    row(QStringLiteral("start to ready (sandbox, import jedi, warm-up numpy/pandas/matplotlib)"), startMs[0], startMs[1], {});
    const QList<QPair<QString, AssistRequest>> firsts{
        {QStringLiteral("first: `import os; os.pa`"), AssistRequest::atEnd(AssistKind::Complete, QStringLiteral("import os; os.pa"))},
        {QStringLiteral("first numpy: `np.`"), AssistRequest::atEnd(AssistKind::Complete, QStringLiteral("import numpy as np\nx = np.linspace(0, 1)\nnp."))},
        {QStringLiteral("first pandas: `df.`"), AssistRequest::atEnd(AssistKind::Complete, QStringLiteral("import pandas as pd\ndf = pd.DataFrame({'a': [1]})\ndf."))},
        {QStringLiteral("first calltip: `np.linspace(`"), AssistRequest::atEnd(AssistKind::Signatures, QStringLiteral("import numpy as np\nnp.linspace("))},
        {QStringLiteral("first help: `plt.plot`"), AssistRequest::atEnd(AssistKind::Help, QStringLiteral("import matplotlib.pyplot as plt\nplt.plot"))},
    };
    for (const auto& [label, request] : firsts) {
        AssistAnswer answers[2];
        double ms[2];
        for (int i = 0; i < 2; ++i)
            ms[i] = bench::timeMs([&] { answers[i] = both[i]->ask(request, 30000); });
        row(label, ms[0], ms[1], summary(answers[0]) + QStringLiteral("; ") + summary(answers[1]));
    }

    // Typing a line of pandas code, one request per keystroke, each waited for; the two services
    // take turns keystroke by keystroke (the same load for both).
    std::vector<double> keystrokes[2];
    QString typed;
    for (int r = 0; r < rounds; ++r) {
        const QString frame = QStringLiteral("frame%1").arg(r);
        const QString prefix = QStringLiteral("import numpy as np\nimport pandas as pd\n%1 = pd.DataFrame({'a': np.arange(3)})\n").arg(frame);
        typed = frame + QStringLiteral(".groupby('a').agg");
        for (int i = 1; i <= typed.size(); ++i)
            for (int s = 0; s < 2; ++s) {
                AssistAnswer answer;
                keystrokes[s].push_back(bench::timeMs([&] { answer = both[s]->ask(AssistRequest::atEnd(AssistKind::Complete, prefix + typed.left(i)), 30000); }));
            }
    }
    const bench::Stats typing[2] = {bench::stats(keystrokes[0]), bench::stats(keystrokes[1])};
    row(QStringLiteral("per keystroke, `frameN.groupby('a').agg` typed %1 times (median)").arg(rounds), typing[0].median,
        typing[1].median, QStringLiteral("%1 requests each").arg(keystrokes[0].size()));
    row(QStringLiteral("per keystroke (p95)"), typing[0].p95, typing[1].p95, {});

    // A burst: 20 keystrokes sent at once; the newest wins, the others are dropped.
    const QString prefix = QStringLiteral("import numpy as np\nimport pandas as pd\nburst = pd.DataFrame({'a': np.arange(3)})\n");
    typed = QStringLiteral("burst.groupby('a').agg");
    double burstMs[2];
    int delivered[2] = {0, 0};
    for (int s = 0; s < 2; ++s) {
        QObject::connect(both[s], &CompletionService::answered, [&delivered, s](const AssistAnswer&) { ++delivered[s]; });
        burstMs[s] = bench::timeMs([&] {
            for (int i = 1; i < 20; ++i)
                both[s]->request(AssistRequest::atEnd(AssistKind::Complete, prefix + typed.left(i % typed.size() + 1)));
            both[s]->ask(AssistRequest::atEnd(AssistKind::Complete, prefix + typed), 30000);
        });
    }
    row(QStringLiteral("burst of 20 keystrokes to the newest answer"), burstMs[0], burstMs[1],
        QStringLiteral("%1; %2 answers delivered").arg(delivered[0]).arg(delivered[1]));

    const CleanupReport cleanup[2] = {baseline.shutdown(), service.shutdown()};
    std::printf("\nShutdown: %s. Load average at end: %s.\n",
                cleanup[0].confirmed && cleanup[1].confirmed ? "both sandboxes confirmed gone" : "NOT confirmed",
                qPrintable(bench::loadAverage()));
    return 0;
}
