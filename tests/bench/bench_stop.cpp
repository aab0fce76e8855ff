// Benchmark: how fast a run stops, per provider (the figures the test suite used to bound with
// wall-clock assertions): a timeout's overshoot past its deadline, a cancel's latency (cancel to
// run() returned), destroy; and three local sandboxes at once against one. Each provider's
// `print(1)` command in the same run is the baseline the figures are compared with.
#include "BenchStats.h"
#include "FakeProviderConfigs.h"
#include "FakeServer.h"
#include "SandboxChecks.h"

#include "core/providers/command/CommandProvider.h"
#include "core/providers/daytona/DaytonaProvider.h"
#include "core/providers/local/LocalProvider.h"
#include "core/providers/vercel/VercelProvider.h"
#include "core/sandbox/RunControl.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>
#include <cstdio>

using namespace sandpad;

namespace {

constexpr qint64 kTimeoutMs = 1500;

struct Figures {
    std::vector<double> print, timeoutOvershoot, cancelLatency, destroy;
};

void measure(SandboxProvider& provider, Figures& f)
{
    SandboxOptions options;
    options.deadlineSeconds = 30;
    {
        RunControl control;
        auto sb = provider.create(options, control);
        f.print.push_back(bench::timeMs([&] { sb->run(pythonCommand(QStringLiteral("print(1)")), {}, control); }));
        f.destroy.push_back(bench::timeMs([&] { sb->destroy(); }));
    }
    {
        RunControl control;
        auto sb = provider.create(options, control);
        const double ms = bench::timeMs([&] {
            sb->run(pythonCommand(QStringLiteral("import time\ntime.sleep(60)"), kTimeoutMs), {}, control);
        });
        f.timeoutOvershoot.push_back(ms - double(kTimeoutMs));
        sb->destroy();
    }
    {
        RunControl control;
        auto sb = provider.create(options, control);
        QElapsedTimer clock;
        double cancelledAt = 0;
        clock.start();
        runAndCancelWhen(*sb, control, pythonCommand(QStringLiteral("import time\nprint('up', flush=True)\ntime.sleep(60)")),
                         [&](const QByteArray& out, const QByteArray&) {
                             if (out.isEmpty())
                                 return false;
                             cancelledAt = double(clock.nsecsElapsed()) / 1e6;
                             return true;
                         });
        f.cancelLatency.push_back(double(clock.nsecsElapsed()) / 1e6 - cancelledAt);
        sb->destroy();
    }
}

// n local sandboxes, each sleeping one second, on n threads at once.
double concurrentLocal(LocalProvider& provider, int n)
{
    return bench::timeMs([&] {
        QList<QThread*> threads;
        for (int i = 0; i < n; ++i) {
            threads << QThread::create([&provider] {
                RunControl control;
                SandboxOptions options;
                auto sb = provider.create(options, control);
                sb->run(pythonCommand(QStringLiteral("import time; time.sleep(1)")), {}, control);
                sb->destroy();
            });
            threads.last()->start();
        }
        for (QThread* t : threads) {
            t->wait();
            delete t;
        }
    });
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? std::max(3, atoi(argv[1])) : 5;
    FakeServer vercel(QStringLiteral("fake_vercel.py")), daytona(QStringLiteral("fake_daytona.py"));
    if (!vercel.started() || !daytona.started()) {
        std::fprintf(stderr, "the fake servers did not start\n");
        return 1;
    }
    VercelConfig v = fakeVercelConfig(vercel);
    v.basePackages = {QStringLiteral("numpy")};
    DaytonaConfig d = fakeDaytonaConfig(daytona);
    d.basePackages = v.basePackages;
    CommandProviderConfig c;
    c.program = QStringLiteral(SANDPAD_SOURCE_DIR "/resources/runtime/command-provider-example.py");
    auto local = std::make_shared<LocalProvider>();

    std::printf("### Stopping a run (%d runs each; timeout at %lld ms; medians, p95 in brackets)\n\n", n, kTimeoutMs);
    std::printf("| provider | print(1) ms (baseline) | timeout overshoot ms | cancel latency ms | cancel / baseline | destroy ms |\n");
    std::printf("|---|---:|---:|---:|---:|---:|\n");
    struct Case { const char* name; std::shared_ptr<SandboxProvider> provider; };
    for (const Case& k : {Case{"local", local}, Case{"vercel (fake)", std::make_shared<VercelProvider>(v)},
                          Case{"daytona (fake)", std::make_shared<DaytonaProvider>(d)},
                          Case{"command (example)", std::make_shared<CommandProvider>(c)}}) {
        Figures f;
        try {
            for (int i = 0; i < n; ++i)
                measure(*k.provider, f);
        } catch (const std::exception& e) {
            std::printf("| %s | failed: %s | | | | |\n", k.name, e.what());
            continue;
        }
        const auto p = bench::stats(f.print), t = bench::stats(f.timeoutOvershoot), cl = bench::stats(f.cancelLatency),
                   de = bench::stats(f.destroy);
        std::printf("| %s | %.0f (%.0f) | %.0f (%.0f) | %.0f (%.0f) | %.2f | %.0f (%.0f) |\n", k.name, p.median, p.p95,
                    t.median, t.p95, cl.median, cl.p95, p.median > 0 ? cl.median / p.median : 0.0, de.median, de.p95);
        std::fflush(stdout);
    }

    std::printf("\n### Local sandboxes at once (each sleeps 1 s)\n\n| sandboxes | wall ms | / one sandbox |\n|---:|---:|---:|\n");
    std::vector<double> one;
    for (int i = 0; i < 3; ++i)
        one.push_back(concurrentLocal(*local, 1));
    const double single = bench::stats(one).median;
    std::printf("| 1 | %.0f | 1.00 |\n", single);
    for (int count : {3, 6}) {
        const double ms = concurrentLocal(*local, count);
        std::printf("| %d | %.0f | %.2f |\n", count, ms, ms / single);
    }
    return 0;
}
