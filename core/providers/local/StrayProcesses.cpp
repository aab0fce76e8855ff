#include "core/providers/local/StrayProcesses.h"

#include "core/providers/local/LocalSandboxInternals.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSet>

#include <csignal>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace sandpad::localsandbox {

namespace {

// Children of every thread of a process (a thread can be the parent too).
QList<int> childrenOf(int pid)
{
    QList<int> children;
    const QStringList tasks = QDir(QStringLiteral("/proc/%1/task").arg(pid)).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& task : tasks) {
        QFile file(QStringLiteral("/proc/%1/task/%2/children").arg(pid).arg(task));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray& part : file.readAll().split(' ')) {
            bool ok = false;
            const int child = part.trimmed().toInt(&ok);
            if (ok && child > 0)
                children << child;
        }
    }
    return children;
}

// A zombie has exited: it holds no memory, descriptors or CPU, only its pid until reaped.
bool isLive(int pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.read(512);
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0 || close + 2 >= text.size())
        return false;
    const char state = text.at(close + 2);
    return state != 'Z' && state != 'X';
}

int statusParentOf(int pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("PPid:"))
            return line.mid(5).trimmed().toInt();
    return -1;
}

} // namespace

QList<int> StrayProcesses::find(int pid1, int keep)
{
    QList<int> found;
    if (pid1 <= 0)
        return found;
    QList<int> queue{pid1};
    QSet<int> seen{pid1};
    while (!queue.isEmpty()) {
        const int pid = queue.takeFirst();
        for (int child : childrenOf(pid)) {
            if (seen.contains(child))
                continue;
            seen.insert(child);
            queue << child;
            if (child != keep && isLive(child))
                found << child;
        }
    }
    return found;
}

bool StrayProcesses::killAll(int pid1, int keep, int timeoutMs, int* killed, QString* detail)
{
    QElapsedTimer clock;
    clock.start();
    int count = 0;
    QList<int> left;
    for (;;) {
        left = find(pid1, keep);
        if (left.isEmpty())
            break;
        if (clock.elapsed() > timeoutMs)
            break;
        QSet<int> family(left.begin(), left.end());
        family << pid1 << keep;
        std::vector<Fd> fds;
        for (int pid : std::as_const(left)) {
            Fd fd(int(::syscall(SYS_pidfd_open, pid, 0)));
            if (!fd.valid())
                continue; // gone meanwhile
            // The pid is still one of the sandbox's (never a reused one): its parent is.
            if (!family.contains(statusParentOf(pid)))
                continue;
            if (::syscall(SYS_pidfd_send_signal, fd.get(), SIGKILL, nullptr, 0) == 0)
                ++count;
            fds.push_back(std::move(fd));
        }
        // Each exit, confirmed by its pidfd (readable once the process has exited).
        for (const Fd& fd : fds) {
            pollfd p{fd.get(), POLLIN, 0};
            const qint64 remaining = qMax<qint64>(1, timeoutMs - clock.elapsed());
            while (::poll(&p, 1, int(remaining)) < 0 && errno == EINTR) {
            }
        }
    }
    if (killed)
        *killed = count;
    if (!left.isEmpty()) {
        if (detail)
            *detail = QStringLiteral("%1 process(es) of the execution were still running after %2 ms")
                          .arg(left.size()).arg(timeoutMs);
        return false;
    }
    return true;
}

} // namespace sandpad::localsandbox
