#include "core/allocations/ProcessIdentity.h"

#include <QCoreApplication>
#include <QFile>

namespace sandpad {

namespace {
QString bootId()
{
    QFile f(QStringLiteral("/proc/sys/kernel/random/boot_id"));
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll().trimmed()) : QString();
}
} // namespace

ProcessIdentity ProcessIdentity::current()
{
    return of(QCoreApplication::applicationPid());
}

ProcessIdentity ProcessIdentity::of(qint64 pid)
{
    ProcessIdentity id;
    id.pid = pid;
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return id;
    const QByteArray stat = f.readAll();
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    const qsizetype close = stat.lastIndexOf(')');
    if (close < 0)
        return id;
    const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
    // Field 22 (starttime) is the 20th after the name.
    if (fields.size() > 19)
        id.start = QString::fromLatin1(fields.at(19)) + QLatin1Char('@') + bootId();
    return id;
}

bool ProcessIdentity::alive() const
{
    if (pid <= 0 || start.isEmpty())
        return false;
    return of(pid).start == start;
}

} // namespace sandpad
