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

} // namespace sandpad
