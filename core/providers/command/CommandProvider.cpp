#include "core/providers/command/CommandProvider.h"

#include "core/providers/command/CommandChannel.h"
#include "core/providers/command/CommandSandbox.h"
#include "core/sandbox/ProviderError.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

namespace sandpad {

CommandProvider::CommandProvider(CommandProviderConfig config) : m_config(std::move(config)) {}

QString CommandProvider::displayName() const
{
    return QStringLiteral("Command provider (%1)").arg(QFileInfo(m_config.program).fileName());
}

ValidationReport CommandProvider::validate()
{
    ValidationReport report;
    report.provider = name();
    using Level = ValidationItem::Level;
    const QFileInfo info(m_config.program);
    if (m_config.program.isEmpty()) {
        report.items.append({QStringLiteral("program"), Level::Error, QStringLiteral("no command-provider executable set")});
        return report;
    }
    if (!info.exists() || !info.isExecutable()) {
        report.items.append({QStringLiteral("program"), Level::Error,
                             QStringLiteral("%1 is not an executable file").arg(m_config.program)});
        return report;
    }
    report.items.append({QStringLiteral("program"), Level::Ok, m_config.program});
    CommandChannel channel(m_config.program, m_config.arguments);
    try {
        channel.start();
        CommandChannel::CallOptions call;
        call.deadline = QDeadlineTimer(m_config.requestTimeoutMs);
        const auto reply = channel.call(QStringLiteral("validate"), QJsonObject{{QStringLiteral("protocol"), 1}}, call);
        if (reply.end != CommandChannel::Reply::End::Answered) {
            report.items.append({QStringLiteral("protocol"), Level::Error, QStringLiteral("no answer to validate in time")});
        } else {
            report.items.append({QStringLiteral("protocol"), Level::Ok, QStringLiteral("JSON lines, version 1")});
            for (const auto& v : reply.response.value(QLatin1String("items")).toArray()) {
                const QJsonObject o = v.toObject();
                const QString level = o.value(QLatin1String("level")).toString();
                report.items.append({o.value(QLatin1String("name")).toString(),
                                     level == QLatin1String("error")     ? Level::Error
                                     : level == QLatin1String("warning") ? Level::Warning
                                                                         : Level::Ok,
                                     o.value(QLatin1String("detail")).toString()});
            }
        }
    } catch (const ProviderError& e) {
        report.items.append({QStringLiteral("protocol"), Level::Error, e.message()});
    }
    channel.finish(3000);
    return report;
}

std::unique_ptr<Sandbox> CommandProvider::create(const SandboxOptions& options, RunControl& control)
{
    if (m_config.program.isEmpty())
        throw ProviderError(ProviderError::Kind::NotConfigured, QStringLiteral("Command provider: no executable set"));
    auto sandbox = std::make_unique<CommandSandbox>(m_config);
    sandbox->start(options, control);
    return sandbox;
}

namespace {
// The example command provider that comes with Sandpad (packaging/Packaging.cmake), next to the
// app or system-wide; empty when it is not installed.
QString installedExample()
{
    const QString name = QStringLiteral("command-provider-example.py");
    for (const QString& dir : {QCoreApplication::applicationDirPath() + QStringLiteral("/../share/sandpad"),
                               QStringLiteral("/usr/share/sandpad")}) {
        const QFileInfo info(QDir(dir).filePath(name));
        if (info.isFile() && info.isExecutable())
            return QDir::cleanPath(info.absoluteFilePath());
    }
    return {};
}
} // namespace

ProviderDescriptor CommandProvider::descriptor()
{
    ProviderDescriptor d;
    d.name = QStringLiteral("command");
    d.displayName = QStringLiteral("Custom command provider");
    d.fields = {
        {.key = QStringLiteral("path"), .label = QStringLiteral("E&xecutable:"),
         .environmentVariable = QStringLiteral("SANDPAD_COMMAND_PROVIDER"), .kind = ProviderField::Kind::Program,
         .placeholder = QStringLiteral("a program speaking the command provider protocol"),
         .suggestionLabel = QStringLiteral("Use the &Example"), .suggestion = installedExample},
    };
    // What it needs, said where it is set: a Docker, SSH or Kubernetes runner plugs in here.
    d.help = QStringLiteral("Any executable that speaks Sandpad's JSON-lines protocol on its stdin and "
                            "stdout (Help > Documentation: providers, “Command providers”): it creates a "
                            "sandbox, runs commands in it with their output streamed, reads files back "
                            "and destroys it. Validate starts it once and asks it to check itself.");
    d.create = [](const ProviderSettings& settings) -> std::shared_ptr<SandboxProvider> {
        CommandProviderConfig config;
        config.program = settings.value(QStringLiteral("path"));
        if (config.program.isEmpty())
            throw ProviderError(ProviderError::Kind::NotConfigured,
                                QStringLiteral("the command provider needs an executable: set it in Settings or SANDPAD_COMMAND_PROVIDER"));
        return std::make_shared<CommandProvider>(config);
    };
    return d;
}

} // namespace sandpad
