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

char stateOf(const QString& statPath)
{
    QFile stat(statPath);
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray text = stat.read(512);
    const qsizetype close = text.lastIndexOf(')'); // the name may hold spaces and parentheses
    if (close < 0 || close + 2 >= text.size())
        return 0;
    return text.at(close + 2);
}

bool isDead(char state) { return state == 0 || state == 'Z' || state == 'X'; }

// A thread group is live while any of its threads is. A zombie (every thread exited) holds no
// memory, descriptors or CPU, only its pid until reaped; but a leader that ended alone (the raw
// exit system call on the main thread) shows Z while its other threads run, hold memory and fork.
bool isLive(int pid)
{
    if (!isDead(stateOf(QStringLiteral("/proc/%1/stat").arg(pid))))
        return true;
    const QStringList tasks = QDir(QStringLiteral("/proc/%1/task").arg(pid)).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& task : tasks)
        if (task.toInt() != pid && !isDead(stateOf(QStringLiteral("/proc/%1/task/%2/stat").arg(pid).arg(task))))
            return true;
    return false;
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

QList<int> StrayProcesses::find(int pid1, int keep, QSet<int>* seen)
{
    QList<int> found;
    if (pid1 <= 0)
        return found;
    QList<int> queue{pid1};
    QSet<int> visited{pid1};
    while (!queue.isEmpty()) {
        const int pid = queue.takeFirst();
        for (int child : childrenOf(pid)) {
            if (visited.contains(child))
                continue;
            visited.insert(child);
            queue << child;
            if (child != keep && isLive(child))
                found << child;
        }
    }
    if (seen)
        *seen = std::move(visited);
    return found;
}

bool StrayProcesses::killAll(int pid1, int keep, int timeoutMs, int* killed, QString* detail)
{
    QElapsedTimer clock;
    clock.start();
    int count = 0;
    QList<int> left;
    for (;;) {
        // Every pid seen in the tree, zombies included: the parent of a live stray may be a
        // group whose leader ended alone, or a zombie not reaped yet.
        QSet<int> family;
        left = find(pid1, keep, &family);
        if (left.isEmpty())
            break;
        if (clock.elapsed() > timeoutMs)
            break;
        family << pid1 << keep;
        std::vector<Fd> fds;
        for (int pid : std::as_const(left)) {
            Fd fd(int(::syscall(SYS_pidfd_open, pid, 0)));
            if (!fd.valid())
                continue; // gone meanwhile
            // The pid is still one of the sandbox's (never a reused one): its parent is.
            if (!family.contains(statusParentOf(pid)))
                continue;
            // To the whole thread group, also when its leader has ended alone.
            if (::syscall(SYS_pidfd_send_signal, fd.get(), SIGKILL, nullptr, 0) == 0)
                ++count;
            fds.push_back(std::move(fd));
        }
        // Each exit, confirmed by its pidfd (readable once every thread of the group has exited).
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
