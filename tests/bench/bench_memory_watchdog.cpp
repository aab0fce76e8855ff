// Benchmark: what one SandboxMemory sample costs (1, 10 and 256 processes, a 1 GiB process) and
// how far a fast allocator gets past the limit before MemoryWatchdog stops it, per interval.
// Prints Markdown tables. Usage: bench_memory_watchdog [repeats] [--only=costs|overshoot]
// (default: both; 3 runs per overshoot row)
#include "../local/SandboxTree.h"
#include "BenchStats.h"

#include "core/providers/local/MemoryWatchdog.h"
#include "core/providers/local/SandboxMemory.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>

#include <cstdio>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

using namespace sandpad::localsandbox;
using sandpad::test::SandboxTree;
using sandpad::test::pythonPrelude;

namespace {

constexpr qint64 MiB = 1024 * 1024;

double mib(qint64 bytes) { return double(bytes) / double(MiB); }

struct Tree {
    const char* what;
    QString code;
    int samples = 50;
};

// Reads smaps_rollup of every process of the sandbox once: what PSS costs without the cache.
double pssReadUs(const SandboxMemorySample&, pid_t pid1)
{
    std::vector<pid_t> pids{pid1};
    for (size_t i = 0; i < pids.size(); ++i) {
        QFile c(QStringLiteral("/proc/%1/task/%1/children").arg(pids[i]));
        if (c.open(QIODevice::ReadOnly))
            for (const QByteArray& p : c.readAll().trimmed().split(' '))
                if (p.toInt() > 0)
                    pids.push_back(p.toInt());
    }
    QElapsedTimer t;
    t.start();
    char buf[8192];
    for (const pid_t pid : pids) {
        const int fd = ::open(QByteArray("/proc/" + QByteArray::number(pid) + "/smaps_rollup").constData(), O_RDONLY);
        if (fd >= 0) {
            while (::read(fd, buf, sizeof buf) > 0) {
            }
            ::close(fd);
        }
    }
    return double(t.nsecsElapsed()) / 1000.0;
}

void sampleCosts()
{
    const QString forkN = QStringLiteral(
        "import numpy\n"
        "for i in range(%1):\n"
        "    r, w = os.pipe()\n"
        "    if os.fork() == 0:\n"
        "        %2\n"
        "        os.write(w, b'x'); forever()\n"
        "    os.read(r, 1); os.close(r); os.close(w)\n"
        "ready(); forever()");
    const std::vector<Tree> trees{
        {"1 Python process, numpy imported", QStringLiteral("import numpy\nready(); forever()")},
        {"1 process holding 1 GiB", QStringLiteral("x = hold(1024); ready(); forever()")},
        {"10 processes (numpy imported, 9 forks)", forkN.arg(9).arg("pass")},
        {"256 processes (numpy imported, 255 forks)", forkN.arg(255).arg("pass")},
        {"64 processes holding 1000 descriptors each", forkN.arg(63).arg("fds = [os.pipe() for i in range(500)]"), 10},
        // Issue 26: each main thread ended alone, a thread holds 64 MiB (read through that thread).
        {"8 processes whose main thread ended alone", QStringLiteral(
             "import ctypes, platform, threading\n"
             "for i in range(8):\n"
             "    r, w = os.pipe()\n"
             "    if os.fork() == 0:\n"
             "        def held():\n"
             "            x = hold(64); os.write(w, b'x'); forever()\n"
             "        threading.Thread(target=held).start()\n"
             "        ctypes.CDLL(None).syscall(60 if platform.machine() == 'x86_64' else 93, 0)\n"
             "    os.read(r, 1); os.close(r); os.close(w)\n"
             "ready(); forever()")},
    };
    std::printf("### Cost of one sample (50 samples each, 10 for the last row, after a first one; microseconds)\n\n");
    std::printf("| sandbox | processes | counted | first sample | cheap median | p95 | full median | p95 | smaps_rollup of all, once |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Tree& t : trees) {
        SandboxTree tree;
        QString why;
        if (!tree.start(SandboxTree::python(pythonPrelude() + t.code), &why)) {
            std::printf("| %s | failed: %s |\n", t.what, qPrintable(why));
            continue;
        }
        SandboxMemory memory(tree.pid1());
        const SandboxMemorySample first = memory.sample(qint64(1) << 50);
        std::vector<double> estimate, exact;
        SandboxMemorySample last;
        for (int i = 0; i < t.samples; ++i) {
            last = memory.sample(qint64(1) << 50);
            estimate.push_back(double(last.costUs));
        }
        for (int i = 0; i < t.samples; ++i) {
            last = memory.sample(0);
            exact.push_back(double(last.costUs));
        }
        const auto e = bench::stats(estimate), x = bench::stats(exact);
        std::printf("| %s | %d | %.0f MiB | %lld | %.0f | %.0f | %.0f | %.0f | %.0f |\n", t.what, last.processes,
                    mib(last.totalBytes), static_cast<long long>(first.costUs), e.median, e.p95, x.median, x.p95,
                    pssReadUs(last, tree.pid1()));
    }
    std::printf("\ncheap: what the watchdog takes below its limit (counters of every process; descriptors and "
                "mappings of new or changed processes and the longest unread, within %lld us; PSS only past half the "
                "limit); full: every process read now, PSS from smaps_rollup (the watchdog's confirmation before a "
                "kill; a tree of two processes needs no PSS).\n\n",
                static_cast<long long>(SandboxMemory::kScanBudgetUs));
}

struct Allocator {
    const char* what;
    QStringList argv;
};

// One run under the watchdog: the total of the sample that stopped it.
SandboxMemorySample overshootRun(const Allocator& a, qint64 limit, int intervalMs, int nearMs, int* samples)
{
    SandboxTree tree;
    QString why;
    if (!tree.start(a.argv, &why)) {
        SandboxMemorySample failed;
        failed.error = why;
        return failed;
    }
    MemoryWatchdog watchdog(SandboxMemory(tree.pid1()), limit, [&] { tree.killPid1(); }, intervalMs, nearMs);
    watchdog.start();
    QEventLoop loop;
    QObject::connect(&tree.process, &QProcess::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    if (tree.running())
        loop.exec();
    *samples = watchdog.samples();
    return watchdog.exceeded() ? watchdog.last() : SandboxMemorySample{};
}

// MiB/s of the allocator, timed inside (no watchdog): 1 GiB in 64 MiB steps.
double allocationRate(const QString& code)
{
    SandboxTree tree;
    QString why;
    if (!tree.start(SandboxTree::python(pythonPrelude() + code), &why))
        return 0;
    tree.process.waitForFinished(60000);
    tree.out += tree.process.readAllStandardOutput();
    const QList<QByteArray> lines = tree.out.trimmed().split('\n');
    return lines.isEmpty() ? 0 : lines.last().toDouble();
}

void overshoot(int repeats)
{
    const qint64 limit = 1024 * MiB;
    const QString pyLoop = QStringLiteral("held = []\nready()\nwhile True: held.append(b'\\x01' * (64 * MiB))\n");
    const QString py4 = QStringLiteral("for i in range(4):\n"
                                       "    if os.fork() == 0:\n"
                                       "        held = []\n"
                                       "        while True: held.append(b'\\x01' * (64 * MiB))\n"
                                       "ready(); forever()\n");
    const QString node = QStringLiteral("const held = []; console.log('ready'); for (;;) held.push(Buffer.alloc(64 << 20, 1));");
    const std::vector<Allocator> allocators{
        {"Python, 1 process, 64 MiB `bytes` in a loop", SandboxTree::python(pythonPrelude() + pyLoop)},
        {"Python, 4 forked processes allocating at once", SandboxTree::python(pythonPrelude() + py4)},
        {"node, `Buffer.alloc(64 MiB, 1)` in a loop", {QStringLiteral("/usr/bin/node"), QStringLiteral("-e"), node}},
    };
    const double rate = allocationRate(QStringLiteral(
        "t = time.time(); held = [b'\\x01' * (64 * MiB) for i in range(16)]; ready(); print(1024 / (time.time() - t))"));
    std::printf("### Overshoot past a 1024 MiB limit (median of %d runs; the total of the sample that stopped the run)\n\n", repeats);
    std::printf("One Python process writes 64 MiB chunks at %.0f MiB/s here.\n\n", rate);
    std::printf("| allocator | interval | near the limit | overshoot median MiB | max MiB | samples |\n|---|---:|---:|---:|---:|---:|\n");
    for (const Allocator& a : allocators) {
        for (const auto& [interval, near] : std::vector<std::pair<int, int>>{{10, 10}, {20, 20}, {50, 50}, {100, 100},
                                                                             {MemoryWatchdog::kDefaultIntervalMs, MemoryWatchdog::kNearIntervalMs}}) {
            std::vector<double> over;
            int samples = 0;
            QString error;
            for (int i = 0; i < repeats; ++i) {
                const SandboxMemorySample s = overshootRun(a, limit, interval, near, &samples);
                if (!s.valid() || s.totalBytes == 0) {
                    error = s.error.isEmpty() ? QStringLiteral("not stopped") : s.error;
                    break;
                }
                over.push_back(mib(s.totalBytes - limit));
            }
            if (!error.isEmpty()) {
                std::printf("| %s | %d ms | %d ms | %s | | |\n", a.what, interval, near, qPrintable(error));
                continue;
            }
            const auto st = bench::stats(over);
            std::printf("| %s | %d ms | %d ms | %.0f | %.0f | %d |\n", a.what, interval, near, st.median,
                        *std::max_element(over.begin(), over.end()), samples);
        }
    }
    std::printf("\n(The last row of each allocator is the default policy: %d ms, and %d ms past %d%% of the limit.)\n",
                MemoryWatchdog::kDefaultIntervalMs, MemoryWatchdog::kNearIntervalMs, MemoryWatchdog::kNearPercent);
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    int repeats = 3;
    QString only;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (arg.startsWith(QLatin1String("--only=")))
            only = arg.mid(7);
        else
            repeats = std::max(1, arg.toInt());
    }
    if (only.isEmpty() || only == QLatin1String("costs"))
        sampleCosts();
    if (only.isEmpty() || only == QLatin1String("overshoot"))
        overshoot(repeats);
    return 0;
}
