#include "CliDriver.h"

#include "TestFiles.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QProcess>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace sandpad {

QJsonObject CliRun::json() const { return QJsonDocument::fromJson(out).object(); }
QJsonArray CliRun::array() const { return QJsonDocument::fromJson(out).array(); }

CliDriver::CliDriver(const QStringList& leadingArgs) : m_leadingArgs(leadingArgs) {}

QString CliDriver::program() { return QStringLiteral(SANDPAD_BINARY_DIR "/app/sandpad-run/sandpad-run"); }

QStringList CliDriver::baseArgs() const
{
    return QStringList{QStringLiteral("--data-dir"), m_dir.filePath(QStringLiteral("data"))} + m_leadingArgs;
}

CliRun CliDriver::run(const QStringList& args, const QByteArray& stdinData)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("SANDPAD_PROVIDER"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
    p.setProcessEnvironment(env);
    if (!m_workingDirectory.isEmpty())
        p.setWorkingDirectory(m_workingDirectory);
    p.start(program(), baseArgs() + args);
    if (!p.waitForStarted()) {
        QTest::qFail(qPrintable(QStringLiteral("sandpad-run did not start: ") + p.errorString()), __FILE__, __LINE__);
        return {};
    }
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    if (!p.waitForFinished(m_timeoutMs)) {
        // A hung CLI is a failure of its own, not an exit code of -1 for the caller to misread.
        p.kill();
        p.waitForFinished(5000);
        failHung(args, p.readAllStandardOutput(), p.readAllStandardError());
        return {};
    }
    if (p.exitStatus() != QProcess::NormalExit) {
        QTest::qFail(qPrintable(QStringLiteral("sandpad-run %1 crashed: %2")
                                    .arg(args.join(u' '), QString::fromUtf8(p.readAllStandardError().right(2000)))),
                     __FILE__, __LINE__);
        return {};
    }
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

void CliDriver::failHung(const QStringList& args, const QByteArray& out, const QByteArray& err) const
{
    QTest::qFail(qPrintable(QStringLiteral("sandpad-run %1 did not finish within %2 s and was killed; stdout: %3; stderr: %4")
                                .arg(args.join(u' ')).arg(m_timeoutMs / 1000.0)
                                .arg(QString::fromUtf8(out.right(2000)), QString::fromUtf8(err.right(2000)))),
                 __FILE__, __LINE__);
}

CliRun CliDriver::runOnTerminal(const QStringList& args)
{
    QList<QByteArray> argv{program().toLocal8Bit()};
    for (const QString& a : baseArgs() + args)
        argv << a.toLocal8Bit();
    QList<QByteArray> env;
    const QProcessEnvironment system = QProcessEnvironment::systemEnvironment();
    for (const QString& key : system.keys())
        if (key != u"SANDPAD_PROVIDER" && key != u"XDG_CONFIG_HOME")
            env << (key + u'=' + system.value(key)).toLocal8Bit();
    env << "XDG_CONFIG_HOME=" + m_dir.filePath(QStringLiteral("config")).toLocal8Bit();
    const QByteArray cwd = m_workingDirectory.toLocal8Bit();
    // Built before fork: the child may only chdir and exec.
    std::vector<char*> argvp, envp;
    for (QByteArray& a : argv)
        argvp.push_back(a.data());
    argvp.push_back(nullptr);
    for (QByteArray& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    termios raw{};
    cfmakeraw(&raw);
    int master = -1;
    const pid_t pid = forkpty(&master, nullptr, &raw, nullptr);
    if (pid == 0) {
        if (!cwd.isEmpty() && ::chdir(cwd.constData()) != 0)
            _exit(127);
        execve(argvp[0], argvp.data(), envp.data());
        _exit(127);
    }
    CliRun run;
    if (pid < 0)
        return run;
    char buf[65536];
    QDeadlineTimer deadline(m_timeoutMs);
    bool hung = false;
    for (;;) { // until the child's side is closed (EIO), or the CLI is hung
        pollfd pfd{master, POLLIN, 0};
        const int ready = ::poll(&pfd, 1, int(std::min<qint64>(deadline.remainingTime(), 1000)));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0) {
            if (deadline.hasExpired()) {
                hung = true;
                break;
            }
            continue;
        }
        const ssize_t n = ::read(master, buf, sizeof buf);
        if (n <= 0)
            break;
        run.out.append(buf, n);
    }
    if (hung)
        ::kill(pid, SIGKILL);
    ::close(master);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (hung) {
        failHung(args, run.out, {});
        return {};
    }
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

QString CliDriver::file(const QString& name, const QByteArray& content) const
{
    const QString path = m_dir.filePath(name);
    if (!writeFile(path, content))
        QTest::qFail(qPrintable(QStringLiteral("could not write ") + path), __FILE__, __LINE__);
    return path;
}

} // namespace sandpad
