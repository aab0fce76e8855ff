#include "ProcessChecks.h"

#include <QDir>
#include <QFile>
#include <QString>

namespace sandpad {

namespace {

QList<int> allPids()
{
    QList<int> pids;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool numeric = false;
        const int pid = entry.toInt(&numeric);
        if (numeric)
            pids << pid;
    }
    return pids;
}

} // namespace

QByteArray readProcFile(int pid, const char* file)
{
    QFile f(QStringLiteral("/proc/%1/%2").arg(pid).arg(QLatin1String(file)));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QList<int> childProcessesOf(int parent)
{
    QList<int> children;
    for (int pid : allPids()) {
        const QByteArray stat = readProcFile(pid, "stat");
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1].toInt() == parent && fields[0] != "Z")
            children << pid;
    }
    return children;
}

int hostProcessesWith(const QByteArray& needle)
{
    int n = 0;
    for (int pid : allPids())
        if (readProcFile(pid, "cmdline").replace('\0', ' ').contains(needle))
            ++n;
    return n;
}

namespace {

int parentOf(int pid)
{
    const QByteArray stat = readProcFile(pid, "stat");
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    return fields.size() > 1 && fields[0] != "Z" ? fields[1].toInt() : -1;
}

bool commandLineHas(int pid, const QByteArray& needle)
{
    return readProcFile(pid, "cmdline").replace('\0', ' ').contains(needle);
}

} // namespace

QList<int> descendantsWith(int ancestor, const QByteArray& needle)
{
    QList<int> found;
    for (int pid : allPids()) {
        if (!commandLineHas(pid, needle))
            continue;
        for (int p = parentOf(pid), hops = 0; p > 1 && hops < 64; p = parentOf(p), ++hops)
            if (p == ancestor) {
                found << pid;
                break;
            }
    }
    return found;
}

int stillRunningWith(const QList<int>& pids, const QByteArray& needle)
{
    int n = 0;
    for (int pid : pids)
        if (parentOf(pid) >= 0 && commandLineHas(pid, needle))
            ++n;
    return n;
}

} // namespace sandpad
