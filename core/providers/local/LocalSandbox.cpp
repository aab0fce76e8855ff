#include "core/providers/local/LocalSandbox.h"
#include "core/providers/local/WrapperBytecode.h"

#include "core/providers/local/CgroupDelegation.h"
#include "core/providers/local/LocalSandboxInternals.h"
#include "core/providers/local/MemoryWatchdog.h"
#include "core/providers/local/RunStopper.h"
#include "core/providers/local/SandboxLaunch.h"
#include "core/providers/local/SandboxProcess.h"
#include "core/providers/local/UserNetwork.h"
#include "core/runtime/ResultFrameParser.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QRandomGenerator>

#include <csignal>
#include <cstring>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sandpad {

using namespace localsandbox;

namespace {

// Waiting for the kernel to tear a sandbox's PID namespace down: 256 processes dying on a loaded
// machine can take seconds.
constexpr int kCleanupTimeoutMs = 10000;

QString signalName(int sig)
{
    const char* abbrev = ::sigabbrev_np(sig);
    return abbrev ? QStringLiteral("SIG") + QLatin1String(abbrev) : QStringLiteral("signal %1").arg(sig);
}

} // namespace

LocalSandbox::LocalSandbox(const LocalSandboxConfig& config) : m_config(config)
{
    m_id = QStringLiteral("local-%1").arg(QRandomGenerator::system()->generate64(), 16, 16, QLatin1Char('0'));
}

LocalSandbox::~LocalSandbox()
{
    destroy();
}

QString LocalSandbox::id() const { return m_id; }
QString LocalSandbox::workDir() const { return QStringLiteral("/sandpad"); }

QString LocalSandbox::interpreter(Language language) const
{
    return language == Language::Python ? m_config.python : m_config.node;
}

QStringList LocalSandbox::pipArguments() const
{
    QStringList args{QStringLiteral("--disable-pip-version-check")};
    if (!m_config.options.pipWheelDir.isEmpty())
        args << QStringLiteral("--no-index") << QStringLiteral("--find-links")
             << QStringLiteral("/sandpad-wheels");
    else if (!m_config.options.pipIndexUrl.isEmpty())
        args << QStringLiteral("--index-url") << m_config.options.pipIndexUrl
             << QStringLiteral("--retries") << QStringLiteral("0") << QStringLiteral("--timeout")
             << QStringLiteral("10");
    else if (!m_config.options.allowNetwork)
        args << QStringLiteral("--no-index"); // fail fast and clearly instead of retrying a dead network
    else
        args << QStringLiteral("--retries") << QStringLiteral("1") << QStringLiteral("--timeout")
             << QStringLiteral("10");
    return args;
}

void LocalSandbox::writeFiles(const QList<SandboxFile>& files)
{
    if (m_destroyed)
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The sandbox was destroyed"));
    const QString base = workDir() + u'/';
    for (SandboxFile file : files) {
        file.path = QDir::cleanPath(file.path);
        if (!file.path.startsWith(base) || file.path.size() == base.size() || file.path.contains(u'\n'))
            throw ProviderError(ProviderError::Kind::Io,
                                QStringLiteral("Cannot place %1: only paths under %2 are writable")
                                    .arg(file.path, workDir()));
        file.mode &= 0777;
        for (qsizetype i = 0; i < m_files.size(); ++i)
            if (m_files[i].path == file.path)
                m_files.removeAt(i--);
        m_files.append(file);
    }
}

QStringList LocalSandbox::commandLine(const SandboxCommand& command) const
{
    return SandboxLaunch::build(m_config, command, m_files, SandboxLaunch::Mode::Cold, false).argv;
}

CommandOutcome LocalSandbox::run(const SandboxCommand& command, const OutputCallback& onOutput,
                                 RunControl& control)
{
    if (m_destroyed)
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("The sandbox was destroyed"));
    if (command.argv.isEmpty())
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("Empty command"));
    if (control.isCancelled()) {
        CommandOutcome outcome;
        outcome.cancelled = true;
        outcome.detail = QStringLiteral("cancelled before start");
        return outcome;
    }
    if (::geteuid() == 0 && m_config.setpriv.isEmpty())
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("Running as root needs setpriv (util-linux) to drop to an "
                                           "unprivileged user before bubblewrap"));
    if (SandboxLaunch::initProgram().isEmpty())
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("sandpad-init is missing from this build"));
    retire(std::move(m_ending)); // a previous command's
    m_results.clear();
    m_truncated.clear();
    m_resultError.clear();
    if (m_warm) {
        if (warmCompatible(command) && isWarmAlive())
            return runWarm(command, onOutput, control);
        retire(std::move(m_warm)); // not the command it was started for: run it cold, here
    }
    return runCold(command, onOutput, control);
}

bool LocalSandbox::placeCompiledWrapper(const SandboxCommand& command)
{
    // Beside W/wrapper.py and each Python support module, its bytecode compiled on the host
    // (WrapperBytecode): placed for cold and pre-started sandboxes alike, so that a run's files do
    // not tell them apart. Only our own runtime files are compiled, never the user's code or input.
    const QString wrapper = workDir() + QStringLiteral("/wrapper.py");
    // Only an interpreter named by its path: the host runs that same file to compile.
    if (command.argv.size() < 2 || command.argv[1] != wrapper || !QDir::isAbsolutePath(command.argv[0]))
        return false;
    QHash<QString, QByteArray> ours;
    ours.insert(wrapper, RuntimeProgram::wrapperSource(Language::Python));
    for (const SandboxFile& file : RuntimeProgram::supportFiles(Language::Python, workDir()))
        ours.insert(file.path, file.content);
    QList<SandboxFile> compiled;
    bool wrapperCompiled = false;
    for (const SandboxFile& file : m_files) {
        const auto it = ours.constFind(file.path);
        if (it == ours.constEnd() || *it != file.content)
            continue;
        const auto pyc = localsandbox::WrapperBytecode::lookup(command.argv[0], file.content, file.path);
        if (!pyc)
            continue;
        compiled << SandboxFile{file.path + u'c', *pyc, file.mode};
        wrapperCompiled = wrapperCompiled || file.path == wrapper;
    }
    writeFiles(compiled);
    return wrapperCompiled;
}

SandboxCommand LocalSandbox::withCompiledWrapper(const SandboxCommand& command)
{
    // `python3 W/wrapper.py …` runs as `python3 W/wrapper.pyc …`; its code objects still name
    // wrapper.py. (A pre-started one has compiled the source at its start, unseen.)
    if (!placeCompiledWrapper(command))
        return command;
    SandboxCommand compiled = command;
    compiled.argv[1] += u'c';
    return compiled;
}

CommandOutcome LocalSandbox::runCold(const SandboxCommand& command, const OutputCallback& onOutput,
                                     RunControl& control)
{
    const bool wait = setUpFromOutsideNeeded();
    auto process = std::make_unique<SandboxProcess>();
    const SandboxCommand compiled = withCompiledWrapper(command);
    process->start(SandboxLaunch::build(m_config, compiled, m_files, SandboxLaunch::Mode::Cold, wait), false);
    const qint64 timeoutMs = command.timeoutMs > 0 ? command.timeoutMs : m_config.options.deadlineSeconds * 1000LL;
    return runAndRetire(std::move(process), onOutput, control, timeoutMs, wait);
}

CommandOutcome LocalSandbox::runAndRetire(std::unique_ptr<SandboxProcess> process, const OutputCallback& onOutput,
                                          RunControl& control, qint64 timeoutMs, bool setUpFirst)
{
    CommandOutcome outcome;
    try {
        if (setUpFirst)
            setUpFromOutside(*process);
        outcome = runToEnd(*process, onOutput, control, timeoutMs);
    } catch (...) {
        retire(std::move(process));
        throw;
    }
    if (process->programDone())
        m_ending = std::move(process); // its teardown is confirmed by destroy(), after the result
    else
        retire(std::move(process));
    return outcome;
}

bool LocalSandbox::setUpFromOutsideNeeded() const
{
    return m_config.options.allowNetwork ||
           (m_config.options.memoryLimitMb > 0 && CgroupDelegation::forThisProcess().available());
}

void LocalSandbox::setUpFromOutside(SandboxProcess& process)
{
    // PID 1 waits on its lifeline until this is done: no user code runs outside its cgroup or
    // before its network is there.
    if (m_config.options.memoryLimitMb > 0) {
        CgroupDelegation& delegation = CgroupDelegation::forThisProcess();
        if (delegation.available()) {
            QString error;
            auto cgroup = delegation.create({m_config.options.memoryLimitMb * kMiB, kMaxProcesses}, &error);
            if (cgroup) // else the host watchdog holds the limit (create() says why, once)
                process.attachCgroup(std::move(cgroup));
            else
                qWarning("sandpad: no cgroup for this sandbox, the memory watchdog holds its limit: %s", qPrintable(error));
        }
    }
    if (m_config.options.allowNetwork)
        process.attachNetwork(UserNetwork::kReadyTimeoutMs);
    process.releaseGo();
}

CommandOutcome LocalSandbox::runToEnd(SandboxProcess& process, const OutputCallback& onOutput,
                                      RunControl& control, qint64 timeoutMs)
{
    ResultFrameParser parser(kMaxResultBytes);
    RunStopper stopper(control, [&process] { process.kill(); });
    stopper.start(timeoutMs);
    // One memory limit for the whole sandbox, summed from the host (every process, memfd, shared
    // memory and tmpfs of it); with a delegated cgroup the kernel holds it too.
    std::optional<MemoryWatchdog> watchdog;
    const qint64 limit = m_config.options.memoryLimitMb * kMiB;
    if (limit > 0 && process.awaitPid1(5000)) {
        QStringList mounts = SandboxMemory::defaultTmpfsMounts();
        mounts << workDir();
        watchdog.emplace(SandboxMemory(process.pid1(), mounts), limit, [&process] { process.kill(); });
        watchdog->start();
    }
    process.pump(onOutput, parser);
    stopper.stop();
    if (watchdog)
        watchdog->stop();
    if (process.pid1() > 0)
        m_lastPid1 = process.pid1();

    parser.finish();
    for (auto it = parser.files().begin(); it != parser.files().end(); ++it)
        m_results.insert(it.key(), it.value());
    m_truncated = parser.truncatedNames();
    m_resultError = parser.protocolError();

    const InitStatus& init = process.initStatus();
    QString limitExceeded;
    if (watchdog && watchdog->exceeded())
        limitExceeded = watchdog->message();
    else if (process.cgroup() && !process.cgroup()->message().isEmpty())
        limitExceeded = process.cgroup()->message();
    if (!limitExceeded.isEmpty() && !control.isCancelled()) {
        CommandOutcome outcome;
        outcome.limitExceeded = limitExceeded;
        outcome.programStarted = m_results.contains(QStringLiteral("started"));
        outcome.detail = QStringLiteral("stopped at the memory limit");
        return outcome;
    }
    if (stopper.stopped())
        return stopper.outcome();
    CommandOutcome outcome;
    outcome.programStarted = m_results.contains(QStringLiteral("started"));
    if (const auto& done = process.programDone()) {
        // The wrapper's last frame: its exit status; the sandbox is already being killed.
        bool ok = false;
        const int status = done->trimmed().toInt(&ok);
        outcome.exitCode = ok ? status : 0;
    } else if (!init.started) {
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("The sandbox could not be set up: %1")
                                .arg(process.setupMessage().isEmpty()
                                         ? QStringLiteral("bubblewrap exited with status %1").arg(WEXITSTATUS(process.waitStatus()))
                                         : process.setupMessage()));
    } else if (init.exitCode) {
        outcome.exitCode = *init.exitCode;
    } else if (init.signal) {
        outcome.exitCode = 128 + *init.signal;
        outcome.detail = QStringLiteral("killed by signal %1 (%2)").arg(*init.signal).arg(signalName(*init.signal));
    } else {
        // PID 1 did not say how the program ended: it was killed itself.
        outcome.detail = QStringLiteral("the sandbox ended before its program did");
    }
    QStringList channel;
    if (!m_resultError.isEmpty())
        channel << QStringLiteral("the result channel was malformed: %1").arg(m_resultError);
    if (!m_truncated.isEmpty())
        channel << QStringLiteral("results beyond the %1 the result channel carries were dropped (%2)")
                       .arg(ResultLimits::bytesText(kMaxResultBytes), m_truncated.mid(0, 5).join(QStringLiteral(", ")));
    if (!channel.isEmpty())
        outcome.detail = (outcome.detail.isEmpty() ? QStringLiteral("exit code %1").arg(outcome.exitCode.value_or(-1))
                                                   : outcome.detail) +
                         QStringLiteral("; ") + channel.join(QStringLiteral("; "));
    return outcome;
}

void LocalSandbox::retire(std::unique_ptr<SandboxProcess> process)
{
    if (!process)
        return;
    // Every run ends with PID 1 killed through its pidfd (the whole PID namespace goes with it),
    // and PID 1's exit confirms from the host that nothing of the sandbox is left.
    QString detail;
    if (!process->killAndConfirm(kCleanupTimeoutMs, &detail))
        m_cleanupProblems << detail;
}

std::optional<QByteArray> LocalSandbox::readFile(const QString& path)
{
    const QString clean = QDir::cleanPath(path);
    const QString outPrefix = workDir() + QStringLiteral("/out/");
    if (clean.startsWith(outPrefix)) {
        const auto it = m_results.constFind(clean.mid(outPrefix.size()));
        if (it != m_results.constEnd())
            return *it;
        return std::nullopt;
    }
    for (const SandboxFile& file : m_files)
        if (file.path == clean)
            return file.content;
    return std::nullopt;
}

CleanupReport LocalSandbox::destroy()
{
    if (m_destroyed)
        return m_cleanup;
    m_destroyed = true;
    try {
        retire(std::move(m_ending)); // the last command's sandbox, killed at its "done"
        retire(std::move(m_warm)); // a pre-started process never used
    } catch (const std::exception& e) {
        m_cleanupProblems << QString::fromUtf8(e.what());
    }
    m_results.clear();
    m_files.clear();
    m_cleanup.confirmed = m_cleanupProblems.isEmpty();
    m_cleanup.detail = m_cleanupProblems.join(QStringLiteral("; "));
    return m_cleanup;
}

} // namespace sandpad
