#pragma once

// A sandbox-like process tree for the memory tests and benchmark: bubblewrap with its own PID
// namespace (bwrap's init is PID 1), the real sandbox's tmpfs mounts, uid 65534 inside and, as
// root, host uid 65534 (setpriv) like LocalSandbox. The program prints "ready" when it holds
// what the test measures.
#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStringList>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>

namespace sandpad::test {

class SandboxTree {
public:
    // Host uid of the sandbox's processes: -1 = 65534 as root, else ours. asPid1: the program
    // itself is PID 1 (bwrap --as-pid-1), e.g. to make PID 1 non-dumpable like the real init.
    explicit SandboxTree(int hostUid = -1, bool asPid1 = false) : m_uid(hostUid), m_asPid1(asPid1) {}
    ~SandboxTree() { kill(); }

    static QStringList python(const QString& code) { return {QStringLiteral("/usr/bin/python3"), QStringLiteral("-c"), code}; }

    // Starts `argv` inside and waits for its "ready" line (false with `error` if it never comes).
    bool start(const QStringList& argv, QString* error, int waitMs = 120000)
    {
        QStringList line;
        const int uid = m_uid >= 0 ? m_uid : (::geteuid() == 0 ? 65534 : -1);
        if (uid >= 0 && uid != int(::geteuid()))
            line << QStringLiteral("setpriv") << QStringLiteral("--reuid=%1").arg(uid) << QStringLiteral("--regid=%1").arg(uid)
                 << QStringLiteral("--clear-groups") << QStringLiteral("--inh-caps=-all") << QStringLiteral("--bounding-set=-all");
        line << QStringLiteral("bwrap") << QStringLiteral("--unshare-all") << QStringLiteral("--unshare-user")
             << QStringLiteral("--uid") << QStringLiteral("65534") << QStringLiteral("--gid") << QStringLiteral("65534")
             << QStringLiteral("--die-with-parent") << QStringLiteral("--new-session") << QStringLiteral("--cap-drop")
             << QStringLiteral("ALL") << QStringLiteral("--ro-bind") << QStringLiteral("/usr") << QStringLiteral("/usr");
        for (const char* top : {"/bin", "/sbin", "/lib", "/lib64", "/lib32"}) {
            const QFileInfo info(QString::fromLatin1(top));
            if (info.isSymLink())
                line << QStringLiteral("--symlink") << info.symLinkTarget().mid(1) << info.filePath();
            else if (info.isDir())
                line << QStringLiteral("--ro-bind") << info.filePath() << info.filePath();
        }
        line << QStringLiteral("--ro-bind-try") << QStringLiteral("/etc/ld.so.cache") << QStringLiteral("/etc/ld.so.cache")
             << QStringLiteral("--ro-bind-try") << QStringLiteral("/etc/alternatives") << QStringLiteral("/etc/alternatives")
             << QStringLiteral("--proc") << QStringLiteral("/proc") << QStringLiteral("--dev") << QStringLiteral("/dev")
             << QStringLiteral("--size") << QString::number(512 << 20) << QStringLiteral("--tmpfs") << QStringLiteral("/tmp")
             << QStringLiteral("--size") << QString::number(64 << 20) << QStringLiteral("--tmpfs") << QStringLiteral("/home/sandbox")
             << QStringLiteral("--size") << QString::number(64 << 20) << QStringLiteral("--tmpfs") << QStringLiteral("/dev/shm")
             << QStringLiteral("--chdir") << QStringLiteral("/tmp");
        if (m_asPid1)
            line << QStringLiteral("--as-pid-1");
        line << QStringLiteral("--") << argv;
        process.setProgram(line.takeFirst());
        process.setArguments(line);
        process.setStandardInputFile(QProcess::nullDevice());
        process.start();
        QElapsedTimer t;
        t.start();
        while (!out.contains("ready\n")) {
            if (process.state() == QProcess::NotRunning || t.elapsed() > waitMs) {
                *error = QStringLiteral("no ready line; stdout: %1 stderr: %2")
                             .arg(QString::fromUtf8(out), QString::fromUtf8(process.readAllStandardError()));
                return false;
            }
            process.waitForReadyRead(200);
            out += process.readAllStandardOutput();
        }
        // bwrap (setpriv execs it) has one child: the namespace's PID 1.
        QFile children(QStringLiteral("/proc/%1/task/%1/children").arg(process.processId()));
        if (children.open(QIODevice::ReadOnly))
            m_pid1 = pid_t(children.readAll().trimmed().split(' ').value(0).toInt());
        if (m_pid1 <= 0)
            *error = QStringLiteral("no PID 1 under bwrap %1").arg(process.processId());
        return m_pid1 > 0;
    }

    pid_t pid1() const { return m_pid1; }
    bool running() const { return process.state() != QProcess::NotRunning; }
    // Kills bwrap; --die-with-parent takes the namespace down with it.
    void kill()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(30000);
        }
    }
    // Kills the namespace's PID 1 (what the host does at a run's end).
    void killPid1()
    {
        if (m_pid1 > 0)
            ::kill(m_pid1, SIGKILL);
    }

    QProcess process;
    QByteArray out;

private:
    int m_uid;
    bool m_asPid1;
    pid_t m_pid1 = 0;
};

// Python prelude of the test programs: hold(n) returns n MiB with every page written.
inline QString pythonPrelude()
{
    return QStringLiteral("import os, sys, time, mmap, socket\n"
                          "MiB = 1 << 20\n"
                          "def hold(n): return b'\\x01' * (n * MiB)\n"
                          "def ready(): print('ready', flush=True)\n"
                          "def forever(): time.sleep(3600)\n");
}

} // namespace sandpad::test
