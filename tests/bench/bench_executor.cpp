// Benchmark: one cold local run end to end through the Executor, against plain interpreters and a
// plain bwrap in the same run (ratios, so the machine's speed cancels out). Prints Markdown.
#include "engine/ExecutionRequest.h"
#include "engine/Executor.h"
#include "providers/local/LocalProvider.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace sandpad;

namespace {

struct Stats {
    double median = 0, p95 = 0;
};

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    if (v.empty())
        return {};
    return {v[v.size() / 2], v[std::min(v.size() - 1, size_t(double(v.size()) * 0.95))]};
}

double timeIt(const std::function<void()>& f)
{
    QElapsedTimer t;
    t.start();
    f();
    return double(t.nsecsElapsed()) / 1e6;
}

void runProcess(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(program, args);
    p.waitForFinished(60000);
    if (p.exitCode() != 0)
        std::fprintf(stderr, "baseline failed: %s\n", p.readAllStandardError().constData());
}

QStringList plainBwrap(const QStringList& command)
{
    QStringList a{QStringLiteral("--unshare-all"), QStringLiteral("--die-with-parent"), QStringLiteral("--new-session"),
                  QStringLiteral("--ro-bind"), QStringLiteral("/usr"), QStringLiteral("/usr"),
                  QStringLiteral("--symlink"), QStringLiteral("usr/lib"), QStringLiteral("/lib"),
                  QStringLiteral("--symlink"), QStringLiteral("usr/lib64"), QStringLiteral("/lib64"),
                  QStringLiteral("--symlink"), QStringLiteral("usr/bin"), QStringLiteral("/bin"),
                  QStringLiteral("--ro-bind"), QStringLiteral("/etc/ld.so.cache"), QStringLiteral("/etc/ld.so.cache"),
                  QStringLiteral("--proc"), QStringLiteral("/proc"), QStringLiteral("--dev"), QStringLiteral("/dev"),
                  QStringLiteral("--tmpfs"), QStringLiteral("/tmp"), QStringLiteral("--")};
    return a + command;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? std::max(3, atoi(argv[1])) : 30;
    Executor executor(std::make_shared<LocalProvider>(), nullptr);
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));

    auto execRun = [&](Language lang, const QString& code) {
        const auto r = executor.run(ExecutionRequest::adHoc(lang, code));
        if (r.status != RunStatus::Success)
            std::fprintf(stderr, "run failed: %s %s\n", qPrintable(r.reason), qPrintable(r.stderrText));
    };
    execRun(Language::Python, QStringLiteral("print(1)")); // warm caches (font cache, page cache)

    std::vector<double> plainPy, bwrapPy, execPy, bwrapNode, execNode;
    for (int i = 0; i < n; ++i) { // interleaved, so drift hits every column alike
        plainPy.push_back(timeIt([] { runProcess(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral("print(1)")}); }));
        bwrapPy.push_back(timeIt([] { runProcess(QStringLiteral("bwrap"), plainBwrap({QStringLiteral("/usr/bin/python3"), QStringLiteral("-c"), QStringLiteral("print(1)")})); }));
        execPy.push_back(timeIt([&] { execRun(Language::Python, QStringLiteral("print(1)")); }));
        if (!node.isEmpty()) {
            bwrapNode.push_back(timeIt([&] { runProcess(QStringLiteral("bwrap"), plainBwrap({node, QStringLiteral("-e"), QStringLiteral("console.log(1)")})); }));
            execNode.push_back(timeIt([&] { execRun(Language::JavaScript, QStringLiteral("console.log(1)")); }));
        }
    }
    const QString sine = QStringLiteral(
        "import matplotlib.pyplot as plt\nimport numpy as np\nx = np.linspace(0, 10, 100)\ny = np.sin(x)\n"
        "plt.figure(figsize=(10, 6))\nplt.plot(x, y)\nplt.title('Sine Wave')\nplt.xlabel('x')\nplt.ylabel('sin(x)')\n");
    std::vector<double> sineRuns;
    for (int i = 0; i < std::max(3, n / 6); ++i)
        sineRuns.push_back(timeIt([&] { execRun(Language::Python, sine); }));

    const Stats sp = stats(plainPy), sb = stats(bwrapPy), se = stats(execPy), nb = stats(bwrapNode), ne = stats(execNode),
                ss = stats(sineRuns);
    std::printf("### Cold local runs through the Executor (%d runs each, interleaved)\n\n", n);
    std::printf("| what | median ms | p95 ms | ratio to plain bwrap |\n|---|---:|---:|---:|\n");
    std::printf("| `python3 -c 'print(1)'` (no sandbox) | %.1f | %.1f | %.2f |\n", sp.median, sp.p95, sp.median / sb.median);
    std::printf("| plain `bwrap … python3 -c 'print(1)'` | %.1f | %.1f | 1.00 |\n", sb.median, sb.p95);
    std::printf("| Executor, local, `print(1)` (cold) | %.1f | %.1f | **%.2f** |\n", se.median, se.p95, se.median / sb.median);
    if (!node.isEmpty()) {
        std::printf("| plain `bwrap … node -e 'console.log(1)'` | %.1f | %.1f | 1.00 |\n", nb.median, nb.p95);
        std::printf("| Executor, local, `console.log(1)` (cold) | %.1f | %.1f | **%.2f** |\n", ne.median, ne.p95, ne.median / nb.median);
    }
    std::printf("| Executor, local, the seed's sine-wave chart (cold) | %.1f | %.1f | |\n", ss.median, ss.p95);
    return 0;
}
