// Benchmark: a remote run against the fake Vercel and Daytona servers (tests/fakes): requests per
// run, wall time, what the fake itself spent, and the client's own CPU time per run.
#include "BenchStats.h"
#include "FakeProviderConfigs.h"
#include "FakeServer.h"

#include "core/engine/Executor.h"
#include "core/providers/daytona/DaytonaProvider.h"
#include "core/providers/vercel/VercelProvider.h"
#include "core/run/ExecutionRequest.h"

#include <QCoreApplication>
#include <cstdio>
#include <sys/resource.h>

using namespace sandpad;

namespace {
double cpuMs()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000.0 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1000.0;
}
} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? std::max(3, atoi(argv[1])) : 10;
    FakeServer vercel(QStringLiteral("fake_vercel.py")), daytona(QStringLiteral("fake_daytona.py"));
    if (!vercel.started() || !daytona.started()) {
        std::fprintf(stderr, "the fake servers did not start\n");
        return 1;
    }
    const QStringList base = {QStringLiteral("matplotlib"), QStringLiteral("numpy"), QStringLiteral("pandas"), QStringLiteral("sympy")};
    VercelConfig v = fakeVercelConfig(vercel);
    v.basePackages = base;
    DaytonaConfig d = fakeDaytonaConfig(daytona);
    d.basePackages = base;

    std::printf("### A remote `print('hello')` run against the fakes (%d runs each)\n\n", n);
    std::printf("| provider | requests per run | wall median ms | fake busy median ms | client CPU median ms |\n");
    std::printf("|---|---:|---:|---:|---:|\n");
    struct Case { const char* name; FakeServer* fake; std::shared_ptr<SandboxProvider> provider; };
    for (const Case& c : {Case{"vercel", &vercel, std::make_shared<VercelProvider>(v)},
                          Case{"daytona", &daytona, std::make_shared<DaytonaProvider>(d)}}) {
        Executor executor(c.provider, nullptr);
        executor.run(ExecutionRequest::adHoc(Language::Python, QStringLiteral("print('warm-up')"))); // first-use costs
        std::vector<double> wall, busy, cpu, requests;
        for (int i = 0; i < n; ++i) {
            c.fake->reset();
            const double cpu0 = cpuMs();
            ExecutionResult r;
            wall.push_back(bench::timeMs([&] { r = executor.run(ExecutionRequest::adHoc(Language::Python, QStringLiteral("print('hello')"))); }));
            cpu.push_back(cpuMs() - cpu0);
            if (r.status != RunStatus::Success)
                std::fprintf(stderr, "%s run failed: %s\n", c.name, qPrintable(r.reason));
            requests.push_back(double(c.fake->requests().size()));
            busy.push_back(c.fake->serverMs());
        }
        std::printf("| %s | %.0f | %.0f | %.0f | %.1f |\n", c.name, bench::stats(requests).median, bench::stats(wall).median,
                    bench::stats(busy).median, bench::stats(cpu).median);
    }
    std::printf("\nClient CPU is this process's own CPU time over a run (Executor, HTTP client, result parsing);\n"
                "the fakes and the sandboxed programs are other processes.\n");
    return 0;
}
