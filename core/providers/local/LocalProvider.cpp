#include "core/providers/local/LocalProvider.h"

#include "core/providers/local/CgroupDelegation.h"
#include "core/providers/local/LocalSandbox.h"
#include "core/providers/local/LocalSessionSandbox.h"
#include "core/providers/local/SeccompFilter.h"
#include "core/providers/local/UserNetwork.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QDir>
#include <QFile>
#include <QDateTime>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QRegularExpression>
#include <QSaveFile>

#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

namespace sandpad {

namespace {

// jedi is the editor's language service (core/completion), checked in the same sandbox.
const char* const kBasePackages[] = {"matplotlib", "pandas", "numpy", "sympy", "plotly", "yfinance", "jedi"};

QString firstExisting(const QString& preferred, const QString& name, const QString& fallback)
{
    if (!preferred.isEmpty())
        return preferred;
    const QString found = QStandardPaths::findExecutable(name);
    return found.isEmpty() ? fallback : found;
}

struct Captured {
    CommandOutcome outcome;
    QByteArray out;
    QByteArray err;
};

Captured runCaptured(Sandbox& sandbox, const QStringList& argv, qint64 timeoutMs,
                     const QMap<QString, QString>& env = {})
{
    Captured c;
    RunControl control;
    SandboxCommand cmd;
    cmd.argv = argv;
    cmd.env = env;
    cmd.timeoutMs = timeoutMs;
    c.outcome = sandbox.run(cmd, [&](OutputStream s, const QByteArray& chunk) {
        QByteArray& target = s == OutputStream::Stdout ? c.out : c.err;
        if (target.size() < 65536)
            target.append(chunk);
    }, control);
    return c;
}

} // namespace

LocalProvider::LocalProvider(const LocalProviderOptions& options)
{
    m_python = options.python.isEmpty() ? QStringLiteral("/usr/bin/python3") : options.python;
    m_node = firstExisting(options.node, QStringLiteral("node"), QStringLiteral("/usr/bin/node"));
    m_bwrap = firstExisting(options.bwrap, QStringLiteral("bwrap"), QStringLiteral("/usr/bin/bwrap"));
    m_setpriv = QStandardPaths::findExecutable(QStringLiteral("setpriv"));
    if (m_setpriv.isEmpty() && QFileInfo::exists(QStringLiteral("/usr/bin/setpriv")))
        m_setpriv = QStringLiteral("/usr/bin/setpriv");
    // A node found through a symlink farm (e.g. /usr/local/bin -> /opt/...) must be seen inside.
    const QString canonicalNode = QFileInfo(m_node).canonicalFilePath();
    if (!canonicalNode.isEmpty() && !m_node.startsWith(QLatin1String("/usr/")))
        m_node = canonicalNode;
    m_pool = std::make_unique<SandboxPool>(
        [this](Language language, const SandboxOptions& options) { return prestarted(language, options); });
}

LocalProvider::~LocalProvider()
{
    m_pool.reset(); // joins the pool thread and kills what it started, before members go
}

void LocalProvider::setPoolSize(int perLanguage) { m_pool->setSize(perLanguage); }
void LocalProvider::setPoolBurstMax(int perLanguage) { m_pool->setBurstMax(perLanguage); }
int LocalProvider::poolSize() const { return m_pool->size(); }
void LocalProvider::startPool() { m_pool->start(); }
void LocalProvider::warmLanguage(Language language) { m_pool->warmLanguage(language); }
void LocalProvider::drainPool() { m_pool->drain(); }
void LocalProvider::setPoolOptions(const SandboxOptions& options) { m_pool->setOptions(options); }

LocalSandboxConfig LocalProvider::sandboxConfig(const SandboxOptions& options)
{
    LocalSandboxConfig config;
    config.options = options;
    config.bwrap = m_bwrap;
    config.setpriv = m_setpriv;
    config.python = m_python;
    config.node = m_node;
    if (options.language == Language::Python) {
        const QString file = fontCacheFile();
        QMutexLocker lock(&m_fontMutex);
        if (!file.isEmpty() && m_fontBytes.isEmpty()) {
            QFile f(file);
            if (f.open(QIODevice::ReadOnly))
                m_fontBytes = f.readAll();
        }
        if (!m_fontBytes.isEmpty()) {
            config.fontCacheName = QFileInfo(file).fileName();
            config.fontCache = m_fontBytes; // shared, not copied
        }
    }
    if (options.allowNetwork)
        config.resolvConf = UserNetwork::resolvConf();
    return config;
}

std::unique_ptr<LocalSandbox> LocalProvider::prestarted(Language language, const SandboxOptions& options)
{
    // On the pool thread. The wrapper is placed now (the Executor writes the same file again; a
    // pre-started sandbox runs only a job whose wrapper is the one it started with).
    const QFileInfo bwrap(m_bwrap);
    if (!bwrap.exists() || !bwrap.isExecutable())
        return nullptr;
    auto sandbox = std::make_unique<LocalSandbox>(sandboxConfig(options));
    const SandboxCommand command = LocalSandbox::warmCommand(language, sandbox->interpreter(language));
    const QByteArray wrapper = RuntimeProgram::wrapperSource(language);
    if (wrapper.isEmpty())
        return nullptr;
    sandbox->writeFiles(QList<SandboxFile>{SandboxFile{command.argv[1], wrapper, 0644}}
                        + RuntimeProgram::supportFiles(language, sandbox->workDir()));
    sandbox->prestart(command);
    return sandbox;
}

QString LocalProvider::fontCacheFile()
{
    QMutexLocker lock(&m_fontMutex);
    if (!m_fontTried) {
        m_fontTried = true;
        m_fontFile = buildFontCache();
    }
    return m_fontFile;
}

QString LocalProvider::fontCacheDir() const
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    if (!dir.isEmpty() && QDir().mkpath(dir + QStringLiteral("/sandpad/mpl")))
        return dir + QStringLiteral("/sandpad/mpl");
    dir = QDir::tempPath() + QStringLiteral("/sandpad-mpl-%1").arg(::geteuid());
    return QDir().mkpath(dir) ? dir : QString();
}

QString LocalProvider::fontCacheKey() const
{
    // What the font list depends on: the interpreter, the installed packages (matplotlib and
    // font packages; dpkg's status changes on every install) and the font folders.
    QStringList parts{m_python};
    for (const QString& path : {QFileInfo(m_python).canonicalFilePath(), QStringLiteral("/var/lib/dpkg/status"),
                                QStringLiteral("/usr/lib/python3/dist-packages/matplotlib"),
                                QStringLiteral("/usr/local/lib"), QStringLiteral("/usr/share/fonts"),
                                QStringLiteral("/usr/local/share/fonts"), QStringLiteral("/etc/fonts"),
                                QStringLiteral("/etc/fonts/conf.d")}) {
        const QFileInfo info(path);
        parts << path + u'=' + (info.exists() ? QString::number(info.lastModified().toMSecsSinceEpoch()) : QStringLiteral("-"));
    }
    return parts.join(u'\n');
}

QString LocalProvider::buildFontCache()
{
    // A one-off sandbox lets matplotlib build fontlist-*.json in its own MPLCONFIGDIR and sends
    // it back over the result channel (no host folder is bound in, none can be left behind);
    // sandboxes then get a copy of that file. Kept across app starts while its key
    // (fontCacheKey) holds.
    try {
        const QString cacheDir = fontCacheDir();
        if (cacheDir.isEmpty())
            return {};
        const QString key = fontCacheKey();
        const QString keyFile = cacheDir + QStringLiteral("/fontlist.key");
        {
            QFile stored(keyFile);
            const QStringList existing = QDir(cacheDir).entryList({QStringLiteral("fontlist-*.json")}, QDir::Files);
            if (existing.size() == 1 && stored.open(QIODevice::ReadOnly) &&
                QString::fromUtf8(stored.readAll()) == key)
                return cacheDir + u'/' + existing.first();
        }

        LocalSandboxConfig config;
        config.bwrap = m_bwrap;
        config.setpriv = m_setpriv;
        config.python = m_python;
        config.node = m_node;
        LocalSandbox sandbox(config);
        const Captured c = runCaptured(sandbox, {m_python, QStringLiteral("-c"), QStringLiteral(
            "import glob, os\n"
            "import matplotlib.font_manager\n"
            "path = glob.glob('/tmp/mplbuild/fontlist-*.json')[0]\n"
            "data = open(path, 'rb').read()\n"
            "name = os.path.basename(path)\n"
            "os.write(3, ('{\"name\": \"%s\", \"size\": %d}\\n' % (name, len(data))).encode())\n"
            "view = memoryview(data)\n"
            "while view:\n"
            "    view = view[os.write(3, view):]\n"
            "print(name)\n")},
                                       120000, {{QStringLiteral("MPLCONFIGDIR"), QStringLiteral("/tmp/mplbuild")}});
        const QString name = QString::fromUtf8(c.out).trimmed();
        const auto content = sandbox.readFile(QStringLiteral("/sandpad/out/") + name);
        sandbox.destroy();
        static const QRegularExpression valid(QStringLiteral("^fontlist-v\\d+\\.json$"));
        if (c.outcome.exitCode != 0 || !valid.match(name).hasMatch() || !content || content->isEmpty())
            return {};
        for (const QString& old : QDir(cacheDir).entryList({QStringLiteral("fontlist-*.json")}, QDir::Files))
            if (old != name)
                QFile::remove(cacheDir + u'/' + old);
        const QString target = cacheDir + u'/' + name;
        QSaveFile file(target); // written whole, then renamed: a concurrent app never reads half of it
        if (!file.open(QIODevice::WriteOnly) || file.write(*content) != content->size() || !file.commit())
            return {};
        QFile stored(keyFile);
        if (stored.open(QIODevice::WriteOnly | QIODevice::Truncate))
            stored.write(key.toUtf8());
        return target;
    } catch (const std::exception&) {
        return {};
    }
}

std::unique_ptr<Sandbox> LocalProvider::create(const SandboxOptions& options, RunControl& control)
{
    if (control.isCancelled())
        throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Cancelled"));
    const QFileInfo bwrap(m_bwrap);
    if (!bwrap.exists() || !bwrap.isExecutable())
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("bubblewrap (bwrap) was not found at %1: install the "
                                           "'bubblewrap' package").arg(m_bwrap));
    if (::geteuid() == 0 && m_setpriv.isEmpty())
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("Running as root needs setpriv (util-linux) to drop privileges"));
    if (auto pooled = m_pool->take(options, control)) {
        ++m_pooledCreates;
        control.setPrestarted(); // the run says so (status bar, result)
        return pooled;
    }
    if (control.isCancelled())
        throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Cancelled"));
    return std::make_unique<LocalSandbox>(sandboxConfig(options));
}

std::unique_ptr<SessionSandbox> LocalProvider::createSession(const SandboxOptions& options, RunControl& control)
{
    if (control.isCancelled())
        throw ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("Cancelled"));
    if (::geteuid() == 0 && m_setpriv.isEmpty())
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("Running as root needs setpriv (util-linux) to drop privileges"));
    SandboxOptions sessionOptions = options;
    sessionOptions.coldOnly = false; // `!pip install` in a session installs into the session
    std::unique_ptr<LocalSandbox> sandbox = m_pool->take(sessionOptions, control);
    if (sandbox)
        ++m_pooledCreates;
    else
        sandbox = prestarted(options.language, sessionOptions);
    if (!sandbox)
        throw ProviderError(ProviderError::Kind::Io,
                            QStringLiteral("bubblewrap (bwrap) was not found at %1: install the 'bubblewrap' package").arg(m_bwrap));
    auto session = std::make_unique<LocalSessionSandbox>(std::move(sandbox), options.language);
    session->start(control);
    return session;
}

ValidationReport LocalProvider::validate()
{
    ValidationReport report;
    report.provider = name();
    using L = ValidationItem::Level;
    auto add = [&](const QString& item, L level, const QString& detail) {
        report.items.append({item, level, detail});
    };

    // Privileges.
    if (::geteuid() == 0) {
        if (m_setpriv.isEmpty())
            add(QStringLiteral("privileges"), L::Error,
                QStringLiteral("running as root but setpriv (util-linux) is missing: cannot drop to uid 65534"));
        else
            add(QStringLiteral("privileges"), L::Ok,
                QStringLiteral("running as root: each sandbox drops to uid 65534 with setpriv, no capabilities"));
    } else {
        add(QStringLiteral("privileges"), L::Ok,
            QStringLiteral("running as uid %1: the sandbox maps it to uid 65534").arg(::geteuid()));
    }

    // seccomp.
    const QByteArray bpf = SeccompFilter::bpf();
    if (bpf.isEmpty())
        add(QStringLiteral("seccomp filter"), L::Error,
            QStringLiteral("could not be built: %1").arg(SeccompFilter::buildError()));
    else
        add(QStringLiteral("seccomp filter"), L::Ok,
            QStringLiteral("%1 rules, %2 BPF instructions").arg(SeccompFilter::ruleCount()).arg(bpf.size() / 8));

    // bubblewrap: its version, then a real start.
    QProcess version;
    version.start(m_bwrap, {QStringLiteral("--version")});
    const bool haveBwrap = version.waitForFinished(5000) && version.exitCode() == 0;
    if (!haveBwrap) {
        add(QStringLiteral("bubblewrap"), L::Error,
            QStringLiteral("%1 does not run: install the 'bubblewrap' package").arg(m_bwrap));
        return report;
    }
    const QString bwrapVersion = QString::fromUtf8(version.readAllStandardOutput()).trimmed();

    std::unique_ptr<Sandbox> sandbox;
    try {
        RunControl control;
        SandboxOptions options;
        options.coldOnly = true; // runs several commands; the pooled sandboxes are for snippets
        sandbox = create(options, control);
        const Captured c = runCaptured(*sandbox, {QStringLiteral("true")}, 20000);
        if (c.outcome.exitCode != 0)
            throw ProviderError(ProviderError::Kind::Io, QString::fromUtf8(c.err).trimmed());
        add(QStringLiteral("bubblewrap"), L::Ok,
            QStringLiteral("%1 (%2): a sandbox starts").arg(bwrapVersion, m_bwrap));
    } catch (const std::exception& e) {
        add(QStringLiteral("bubblewrap"), L::Error,
            QStringLiteral("%1 cannot start a sandbox: %2").arg(bwrapVersion, QString::fromUtf8(e.what())));
        return report;
    }

    // Python and the base packages: one interpreter start tries every import.
    try {
        QString script = QStringLiteral(
            "import importlib, json, sys\n"
            "out = {'python': sys.version.split()[0], 'packages': {}}\n"
            "for name in %1:\n"
            "    try:\n"
            "        m = importlib.import_module(name)\n"
            "        out['packages'][name] = str(getattr(m, '__version__', 'unknown'))\n"
            "    except Exception as e:\n"
            "        out['packages'][name] = None\n"
            "print(json.dumps(out))\n");
        QStringList names;
        for (const char* p : kBasePackages)
            names << QStringLiteral("'%1'").arg(QLatin1String(p));
        script = script.arg(QStringLiteral("[") + names.join(u',') + u']');
        const Captured c = runCaptured(*sandbox, {m_python, QStringLiteral("-c"), script}, 120000);
        const auto json = nlohmann::json::parse(c.out.constData(), c.out.constData() + c.out.size(), nullptr, false);
        if (c.outcome.exitCode != 0 || json.is_discarded() || !json.is_object()) {
            add(QStringLiteral("python3"), L::Error,
                QStringLiteral("%1 does not run in the sandbox: %2")
                    .arg(m_python, QString::fromUtf8(c.err.right(500)).trimmed()));
        } else {
            add(QStringLiteral("python3"), L::Ok,
                QStringLiteral("Python %1 (%2)").arg(QString::fromStdString(json.value("python", "")), m_python));
            const auto& packages = json["packages"];
            for (const char* p : kBasePackages) {
                const QString item = QStringLiteral("package %1").arg(QLatin1String(p));
                if (packages.contains(p) && packages[p].is_string()) {
                    add(item, L::Ok, QStringLiteral("%1 %2").arg(QLatin1String(p),
                                                                 QString::fromStdString(packages[p].get<std::string>())));
                } else {
                    const QString hint = QLatin1String(p) == QLatin1String("yfinance")
                        ? QStringLiteral("yfinance is not packaged in Debian; snippets can `!pip install yfinance` when the network or a wheel folder is available")
                        : QLatin1String(p) == QLatin1String("jedi")
                        ? QStringLiteral("install the Debian package python3-jedi for completion, calltips and help in Python tabs; the editor completes words meanwhile")
                        : QStringLiteral("install the Debian package python3-%1").arg(QLatin1String(p));
                    add(item, L::Warning, QStringLiteral("missing: %1 cannot be imported (%2)").arg(QLatin1String(p), hint));
                }
            }
        }
    } catch (const std::exception& e) {
        add(QStringLiteral("python3"), L::Error, QString::fromUtf8(e.what()));
    }

    // Node.js.
    try {
        const Captured c = runCaptured(*sandbox, {m_node, QStringLiteral("--version")}, 30000);
        if (c.outcome.exitCode == 0)
            add(QStringLiteral("node"), L::Ok,
                QStringLiteral("Node.js %1 (%2)").arg(QString::fromUtf8(c.out).trimmed(), m_node));
        else
            add(QStringLiteral("node"), L::Error,
                QStringLiteral("%1 does not run in the sandbox: JavaScript snippets cannot run (%2)")
                    .arg(m_node, QString::fromUtf8(c.err.right(300)).trimmed()));
    } catch (const std::exception& e) {
        add(QStringLiteral("node"), L::Error, QString::fromUtf8(e.what()));
    }

    report.items.append(UserNetwork::validationItem());
    // Which mechanism holds the sandbox-wide memory limit here.
    QString memory = localsandbox::CgroupDelegation::forThisProcess().describe();
    memory.remove(QRegularExpression(QStringLiteral("^memory limit: ")));
    add(QStringLiteral("memory limit"), L::Ok,
        QStringLiteral("one limit for the whole sandbox, held by the %1").arg(memory));

    add(QStringLiteral("matplotlib font cache"), fontCacheFile().isEmpty() ? L::Warning : L::Ok,
        fontCacheFile().isEmpty() ? QStringLiteral("not built: plots start slower (matplotlib builds it per run)")
                                  : fontCacheFile());

    const CleanupReport cleanup = sandbox->destroy();
    add(QStringLiteral("cleanup"), cleanup.confirmed ? L::Ok : L::Error,
        cleanup.confirmed ? QStringLiteral("the sandbox's PID 1 was killed and its exit seen: no process left behind") : cleanup.detail);
    return report;
}

ProviderDescriptor LocalProvider::descriptor()
{
    using Kind = ProviderField::Kind;
    ProviderDescriptor d;
    d.name = QStringLiteral("local");
    d.displayName = QStringLiteral("Local sandbox (bubblewrap)");
    d.fields = {
        {.key = QStringLiteral("python"), .label = QStringLiteral("P&ython:"), .kind = Kind::Program,
         .placeholder = QStringLiteral("/usr/bin/python3")},
        {.key = QStringLiteral("node"), .label = QStringLiteral("&Node.js:"), .kind = Kind::Program,
         .placeholder = QStringLiteral("node on PATH")},
    };
    d.create = [](const ProviderSettings& settings) -> std::shared_ptr<SandboxProvider> {
        LocalProviderOptions options; // empty: the defaults
        options.python = settings.stored(QStringLiteral("python"));
        options.node = settings.stored(QStringLiteral("node"));
        return std::make_shared<LocalProvider>(options);
    };
    return d;
}

} // namespace sandpad
