// Benchmark: what a large result costs the app. Runs the real `sandpad-run` (local sandbox) on
// the worst results the limits allow (docs/runtime-protocol.md "Limits") and on some they refuse,
// as text (charts written as files) and with --json, and prints its wall time and peak memory
// (the process's own maximum RSS, from wait4; the sandbox's processes are not counted). Each
// result is measured against a control in the same run: the same snippet doing the same work
// without returning it, so "cost" is what returning the result adds.
// Usage: bench_results [runs] [--binary=PATH]   (default 3 runs; PATH: another sandpad-run build)
#include "BenchStats.h"

#include <QByteArray>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <cstdio>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// Python helpers for snippets that write the result channel themselves, as any snippet can.
const QByteArray kFrames = R"(import json, os, struct, zlib
def frame(name, data):
    os.write(3, json.dumps({"name": name, "size": len(data)}).encode() + b"\n" + data)
def png(width, height, depth, channels, compress):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    colour = {1: 0, 3: 2, 4: 6}[channels]
    row = b"\0" * (1 + width * channels * depth // 8)
    z = zlib.compressobj(compress)
    data = b"".join(z.compress(row) for _ in range(height)) + z.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0))
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))
)";

struct Case {
    const char* name;
    QByteArray code;     // returns the result
    QByteArray control;  // the same work, nothing returned
    const char* expect;  // in the output when it went as it should
};

std::vector<Case> cases()
{
    const QByteArray line = "import math\n"
                            "points = [[i * 0.001, math.sin(i * 0.001)] for i in range(1_000_000)]\n";
    const QByteArray bars = "elements = [{'label': 'b%d' % i, 'value': i} for i in range(100_000)]\n";
    const QByteArray manyBars = "elements = [{'label': 'b%d' % i, 'value': i} for i in range(1_000_000)]\n";
    const QByteArray categories = "points = [['c%d' % i, i] for i in range(1_000_000)]\n";
    // 100 PNGs of 0.65 MB (stored, not compressed): 62 MiB, just under the channel's 64 MiB.
    const QByteArray pngs = kFrames + "image = png(466, 466, 8, 3, 0)\n";
    const QByteArray pngsOut = "for i in range(100):\n    frame('chart-%d.png' % i, image)\n"
                               "frame('result.json', json.dumps({'status': 'success', 'charts': "
                               "[{'kind': 'png', 'file': 'chart-%d.png' % i} for i in range(100)]}).encode())\n"
                               "os._exit(0)\n";
    // Two 8192 x 4096 RGBA 16-bit PNGs: 67,108,864 pixels, the most a run may decode (512 MiB raw).
    const QByteArray pixels = kFrames + "image = png(8192, 4096, 16, 4, 9)\n";
    const QByteArray pixelsOut = "frame('a.png', image)\nframe('b.png', image)\n"
                                 "frame('result.json', json.dumps({'status': 'success', 'charts': "
                                 "[{'kind': 'png', 'file': 'a.png'}, {'kind': 'png', 'file': 'b.png'}]}).encode())\n"
                                 "os._exit(0)\n";
    const QByteArray texts = "text = 'y' * 4_000_000\nmessage = 'x' * 3_900_000\n";
    const QByteArray manyCharts = kFrames + "image = png(1, 1, 8, 1, 6)\n";
    const QByteArray manyChartsOut = "for i in range(20_000):\n    frame('c%d.png' % i, image)\n"
                                     "frame('result.json', json.dumps({'status': 'success', 'charts': "
                                     "[{'kind': 'png', 'file': 'c%d.png' % i} for i in range(20_000)]}).encode())\n"
                                     "os._exit(0)\n";
    const QByteArray tenCharts = kFrames + "pts = '[' + ','.join(['[1,2]'] * 1_000_000) + ']'\n"
                                           "spec = '{\"type\":\"scatter\",\"elements\":[{\"points\":%s}]}' % pts\n";
    const QByteArray tenChartsOut = "body = '{\"status\":\"success\",\"charts\":[' + ','.join(['{\"kind\":\"interactive\",\"spec\":%s}' % spec] * 10) + ']}'\n"
                                    "frame('result.json', body.encode())\nos._exit(0)\n";
    const QByteArray bigLine = "points = [[i, 0.5] for i in range(1_900_000)]\n";
    return {
        {"a 1,000,000-point line chart (the most chart values a run may return)",
         line + "chart = {'type': 'line', 'title': '1M', 'elements': [{'label': 'sin', 'points': points}]}\n",
         line + "kept = {'type': 'line', 'title': '1M', 'elements': [{'label': 'sin', 'points': points}]}\n", "success"},
        {"a bar chart of 100,000 bars, each its own label (the most chart elements a run may return)",
         bars + "chart = {'type': 'bar', 'title': 'bars', 'elements': elements}\n",
         bars + "kept = {'type': 'bar', 'title': 'bars', 'elements': elements}\n", "success"},
        {"a scatter chart of 1,000,000 points, each x its own category",
         categories + "chart = {'type': 'scatter', 'title': 'c', 'elements': [{'label': 'c', 'points': points}]}\n",
         categories + "kept = {'type': 'scatter', 'title': 'c', 'elements': [{'label': 'c', 'points': points}]}\n", "success"},
        {"a 4,000,000-character result and a 3,900,000-character error",
         texts + "result = text\nraise ValueError(message)\n", texts + "raise ValueError('short')\n", "ValueError"},
        {"100 PNGs, 62 MiB (charts per run; the channel's 64 MiB)", pngs + pngsOut, pngs, "success"},
        {"two PNGs of 33,554,432 pixels (the most pixels a run may decode)", pixels + pixelsOut, pixels, "success"},
        {"refused: 20,000 PNG charts (wrote 20,000 files)", manyCharts + manyChartsOut, manyCharts, "too large"},
        {"refused: 10 charts of 1,000,000 points (57 MiB result.json)", tenCharts + tenChartsOut, tenCharts, "too large"},
        {"refused: a bar chart of 1,000,000 bars",
         manyBars + "chart = {'type': 'bar', 'title': 'bars', 'elements': elements}\n",
         manyBars + "kept = {'type': 'bar', 'title': 'bars', 'elements': elements}\n", "too large"},
        {"refused: a 1,900,000-point line chart",
         bigLine + "chart = {'type': 'line', 'elements': [{'label': 'a', 'points': points}]}\n",
         bigLine + "kept = {'type': 'line', 'elements': [{'label': 'a', 'points': points}]}\n", "too large"},
    };
}

struct Sample {
    double ms = 0;
    double peakMiB = 0;
    bool ok = false;
};

// Runs `binary args...` in `cwd` with stdout and stderr into files there; its wall time and peak RSS.
Sample runOnce(const QByteArray& binary, const QList<QByteArray>& args, const QString& cwd, const char* expect)
{
    std::vector<QByteArray> argv{binary};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> argp;
    for (QByteArray& a : argv)
        argp.push_back(a.data());
    argp.push_back(nullptr);
    const QByteArray dir = cwd.toLocal8Bit();
    QElapsedTimer clock;
    clock.start();
    const pid_t pid = ::fork();
    if (pid == 0) { // the benchmark has no other threads: plain calls are safe until exec
        if (::chdir(dir.constData()) != 0)
            ::_exit(126);
        const int out = ::open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = ::open("err.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(out, 1);
        ::dup2(err, 2);
        ::execv(argp[0], argp.data());
        ::_exit(127);
    }
    int status = 0;
    rusage usage{};
    ::wait4(pid, &status, 0, &usage);
    Sample s;
    s.ms = double(clock.nsecsElapsed()) / 1e6;
    s.peakMiB = double(usage.ru_maxrss) / 1024.0;
    QFile out(cwd + QStringLiteral("/out.txt")), err(cwd + QStringLiteral("/err.txt"));
    out.open(QIODevice::ReadOnly);
    err.open(QIODevice::ReadOnly);
    const QByteArray all = out.readAll() + err.readAll();
    s.ok = all.contains(expect);
    if (!s.ok)
        std::fprintf(stderr, "unexpected outcome (%s): %s\n", expect, all.right(400).constData());
    return s;
}

struct Measured {
    bench::Stats ms, peak;
    bool ok = true;
};

Measured measure(int runs, const QByteArray& binary, const QList<QByteArray>& args, const QString& cwd, const char* expect)
{
    std::vector<double> ms, peak;
    Measured m;
    for (int i = 0; i < runs; ++i) {
        QDir(cwd).removeRecursively(); // chart files of the run before
        QDir().mkpath(cwd);
        const Sample s = runOnce(binary, args, cwd, expect);
        ms.push_back(s.ms);
        peak.push_back(s.peakMiB);
        m.ok = m.ok && s.ok;
    }
    m.ms = bench::stats(ms);
    m.peak = bench::stats(peak);
    return m;
}

} // namespace

int main(int argc, char* argv[])
{
    int runs = 3;
    QByteArray binary = SANDPAD_BINARY_DIR "/app/sandpad-run/sandpad-run";
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a.startsWith("--binary="))
            binary = a.mid(9);
        else
            runs = std::max(1, a.toInt());
    }
    QTemporaryDir tmp;
    const QByteArray data = tmp.filePath(QStringLiteral("data")).toLocal8Bit();
    const QString cwd = tmp.filePath(QStringLiteral("run"));
    auto script = [&](const QString& name, const QByteArray& code) {
        QFile f(tmp.filePath(name));
        f.open(QIODevice::WriteOnly);
        f.write(code);
        return tmp.filePath(name).toLocal8Bit();
    };
    const QList<QByteArray> common{"--data-dir", data, "--timeout", "120"};
    const QByteArray print = script(QStringLiteral("print.py"), "print(1)\n");
    const Measured base = measure(runs, binary, common + QList<QByteArray>{print}, cwd, "success");

    std::printf("### sandpad-run with large results (local sandbox; median of %d runs; peak = the process's own max RSS)\n\n", runs);
    std::printf("Baseline `print(1)`: %.0f ms, peak %.0f MiB. *Control*: the same snippet doing the same work "
                "without returning the result; *cost* = the run minus its control.\n\n", base.ms.median, base.peak.median);
    std::printf("| result | mode | wall ms | control ms | cost ms | peak MiB | control peak MiB | peak / print(1) |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
    int index = 0;
    for (const Case& c : cases()) {
        ++index;
        const QByteArray code = script(QStringLiteral("case%1.py").arg(index), c.code);
        const QByteArray control = script(QStringLiteral("control%1.py").arg(index), c.control);
        const Measured ctl = measure(runs, binary, common + QList<QByteArray>{control}, cwd, "[");
        for (const char* mode : {"text, charts to files", "--json"}) {
            QList<QByteArray> args = common;
            if (QByteArray(mode) == "--json")
                args << "--json";
            const Measured m = measure(runs, binary, args + QList<QByteArray>{code}, cwd, c.expect);
            std::printf("| %s%s | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.1f |\n", c.name, m.ok ? "" : " (unexpected outcome)",
                        mode, m.ms.median, ctl.ms.median, m.ms.median - ctl.ms.median, m.peak.median, ctl.peak.median,
                        m.peak.median / base.peak.median);
            std::fflush(stdout);
        }
    }
    return 0;
}
