#include "FakeSandbox.h"

#include "FakeSandboxProvider.h"

#include "core/runtime/ResultFrameParser.h"
#include "core/sandbox/RunControl.h"

#include <QDir>
#include <QEventLoop>
#include <QTimer>
#include <stdexcept>

namespace sandpad {

QByteArray FakeSandbox::Record::file(const QString& path) const
{
    for (auto it = files.crbegin(); it != files.crend(); ++it)
        if (it->path == path)
            return it->content;
    return {};
}

FakeSandbox::FakeSandbox(FakeSandboxScript script, const SandboxOptions& options, int index,
                         FakeSandboxProvider& provider)
    : m_script(std::move(script)), m_options(options), m_index(index), m_provider(provider)
{
}

QString FakeSandbox::id() const
{
    return QStringLiteral("fake-%1").arg(m_index);
}

QString FakeSandbox::interpreter(Language language) const
{
    return language == Language::Python ? QStringLiteral("python3") : QStringLiteral("node");
}

QStringList FakeSandbox::pipArguments() const
{
    // As the local provider does with an offline wheel folder: the Executor must pass it on.
    if (!m_options.pipWheelDir.isEmpty())
        return {QStringLiteral("--no-index"), QStringLiteral("--find-links"), m_options.pipWheelDir};
    return {};
}

void FakeSandbox::note(const std::function<void(Record&)>& change)
{
    m_provider.updateRecord(m_index, change);
}

void FakeSandbox::writeFiles(const QList<SandboxFile>& files)
{
    note([&](Record& r) { r.files += files; });
    if (m_script.writeError)
        throw *m_script.writeError;
    m_files += files;
}

bool FakeSandbox::waitForCancel(RunControl& control, qint64 timeoutMs)
{
    // The worker's own event loop, woken by cancelRequested (queued from the cancelling thread),
    // as the real providers wait; isCancelled() covers a cancel that came before the connection.
    QEventLoop loop;
    QObject::connect(&control, &RunControl::cancelRequested, &loop, &QEventLoop::quit);
    QTimer::singleShot(std::max<qint64>(timeoutMs, 0), &loop, &QEventLoop::quit);
    if (!control.isCancelled())
        loop.exec();
    return control.isCancelled();
}

CommandOutcome FakeSandbox::run(const SandboxCommand& command, const OutputCallback& onOutput,
                                RunControl& control)
{
    note([&](Record& r) { r.commands << command; });
    if (m_script.runError)
        throw *m_script.runError;
    for (const auto& [stream, bytes] : std::as_const(m_script.output))
        if (onOutput)
            onOutput(stream, bytes);
    if (m_script.duringRun)
        m_script.duringRun(control);

    CommandOutcome outcome;
    QString channelProblem;
    if (m_script.channel == FakeSandboxScript::Channel::Frames) {
        ResultFrameParser parser;
        parser.feed(m_script.resultChannel);
        parser.finish();
        m_results = parser.files();
        channelProblem = parser.protocolError();
        outcome.programStarted = m_results.contains(QStringLiteral("started"));
    } else {
        m_results = m_script.outFiles;
    }
    outcome.limitExceeded = m_script.limitExceeded;
    outcome.detail = m_script.detail;

    switch (m_script.end) {
    case FakeSandboxScript::End::Exit:
        outcome.exitCode = m_script.exitCode;
        if (!channelProblem.isEmpty() && outcome.detail.isEmpty())
            outcome.detail = QStringLiteral("exit code %1; the result channel was malformed: %2")
                                 .arg(outcome.exitCode.value_or(-1))
                                 .arg(channelProblem);
        break;
    case FakeSandboxScript::End::Timeout:
        outcome.timedOut = true;
        break;
    case FakeSandboxScript::End::Hang:
        if (waitForCancel(control, command.timeoutMs))
            outcome.cancelled = true;
        else
            outcome.timedOut = true;
        break;
    }
    return outcome;
}

std::optional<QByteArray> FakeSandbox::readFile(const QString& path)
{
    note([&](Record& r) { r.reads << path; });
    if (m_script.readError)
        throw *m_script.readError;
    const QString clean = QDir::cleanPath(path);
    const QString outPrefix = workDir() + QStringLiteral("/out/");
    if (clean.startsWith(outPrefix)) {
        const auto it = m_results.constFind(clean.mid(outPrefix.size()));
        return it == m_results.constEnd() ? std::nullopt : std::optional<QByteArray>(*it);
    }
    for (auto it = m_files.crbegin(); it != m_files.crend(); ++it)
        if (it->path == clean)
            return it->content;
    return std::nullopt;
}

CleanupReport FakeSandbox::destroy()
{
    note([](Record& r) { ++r.destroyCalls; });
    CleanupReport report;
    report.confirmed = m_script.cleanupConfirmed;
    if (!report.confirmed)
        report.detail = m_script.cleanupDetail;
    return report;
}

} // namespace sandpad
