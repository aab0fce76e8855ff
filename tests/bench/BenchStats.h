#pragma once

// Small helpers shared by the benchmarks: timing and median/p95.
#include <QElapsedTimer>
#include <QFile>
#include <QString>
#include <algorithm>
#include <functional>
#include <vector>

namespace bench {

struct Stats {
    double median = 0, p95 = 0;
};

inline Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    if (v.empty())
        return {};
    return {v[v.size() / 2], v[std::min(v.size() - 1, size_t(double(v.size()) * 0.95))]};
}

inline double timeMs(const std::function<void()>& f)
{
    QElapsedTimer t;
    t.start();
    f();
    return double(t.nsecsElapsed()) / 1e6;
}

// The load average's three figures (figures compare only within one run, on a shared machine).
inline QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).section(QLatin1Char(' '), 0, 2) : QStringLiteral("?");
}

} // namespace bench
