#include "core/workspace/Workspace.h"

#include "core/accounting/CreditsAccount.h"
#include "core/accounting/UsageLedger.h"
#include "core/allocations/OrphanReconciler.h"
#include "core/allocations/RemoteAllocations.h"
#include "core/documents/DocumentStore.h"
#include "core/engine/Executor.h"
#include "core/notebook/RunHistory.h"
#include "core/providers/ProviderRegistry.h"
#include "core/providers/http/RemoteProvider.h"
#include "core/run/Run.h"
#include "core/sandbox/ProviderError.h"
#include "core/storage/Database.h"

#include <QCoreApplication>
#include <QDebug>
#include <QThread>
#include <QSettings>

namespace sandpad {

Workspace::Workspace(const QString& dataDir, QObject* parent)
    : QObject(parent), m_dataDir(dataDir.isEmpty() ? Database::defaultDataDir() : dataDir)
{
}

Workspace::~Workspace()
{
    if (m_executor)
        delete m_executor; // waits for runs still going before the services go away
    m_historyWriter.waitForDone();
}

bool Workspace::open()
{
    m_database = std::make_unique<Database>(m_dataDir);
    if (!m_database->open()) {
        m_error = m_database->error();
        return false;
    }
    m_ledger = std::make_unique<UsageLedger>(*m_database);
    m_credits = std::make_unique<CreditsAccount>(*m_database);
    m_documents = std::make_unique<DocumentStore>(*m_database);
    m_history = std::make_unique<RunHistory>(*m_database);
    m_allocations = std::make_unique<RemoteAllocations>(*m_database);
    m_executor = new Executor(nullptr, m_ledger.get(), m_documents.get(), m_credits.get());
    m_executor->setAllocations(m_allocations.get());
    // Writing a run with megabytes of output takes a while: keep it off the caller's (GUI) thread,
    // on one writer thread so runs are stored in the order they finished.
    m_historyWriter.setMaxThreadCount(1);
    m_historyWriter.setExpiryTimeout(-1);
    connect(m_executor, &Executor::runStarted, this, [this](Run* run) {
        connect(run, &Run::finished, this, [this](const ExecutionResult& result) {
            RunHistory* history = m_history.get();
            m_historyWriter.start([history, result] {
                if (!history->save(result))
                    qWarning("sandpad: could not keep run %s in the notebook history: %s", qPrintable(result.runId),
                             qPrintable(history->lastError()));
                Database::releaseThreadConnections(); // see there: not at the pool thread's end
            });
        });
    });
    if (m_settingsSet)
        apply(); // settings loaded before the database: a provider problem is in error()
    return true;
}

namespace {
// The platform's QSettings, or an INI file.
std::unique_ptr<QSettings> openSettingsStore(const QString& file)
{
    if (file.isEmpty())
        return std::make_unique<QSettings>(QStringLiteral("sandpad"), QStringLiteral("sandpad"));
    return std::make_unique<QSettings>(file, QSettings::IniFormat);
}
} // namespace

bool Workspace::loadSettings()
{
    AppSettings stored = AppSettings::load(*openSettingsStore(m_settingsFile), ProviderRegistry::settingsKeys());
    if (!ProviderRegistry::names().contains(stored.provider))
        stored.provider = AppSettings().provider; // as load() always did, without a note
    return applySettings(stored);
}

bool Workspace::saveSettings(const AppSettings& stored)
{
    AppSettings clean = stored;
    clean.sanitize();
    clean.save(*openSettingsStore(m_settingsFile));
    return applySettings(clean);
}

void Workspace::saveTheme(const QString& theme)
{
    const std::unique_ptr<QSettings> store = openSettingsStore(m_settingsFile);
    if (!m_settingsSet) // what the store holds, not the defaults, is written back
        m_stored = AppSettings::load(*store, ProviderRegistry::settingsKeys());
    AppSettings next = m_stored;
    next.theme = theme;
    next.sanitize();
    next.save(*store);
    m_stored.theme = next.theme;
    m_effective.theme = next.theme;
}

bool Workspace::applySettings(const AppSettings& stored)
{
    m_stored = stored;
    m_settingsSet = true;
    return apply();
}

AppSettings Workspace::effective(AppSettings settings, const Overrides& overrides, QStringList* notes)
{
    settings.applyEnvironment();
    if (overrides)
        overrides(settings);
    QStringList corrected = settings.sanitize();
    if (!ProviderRegistry::names().contains(settings.provider)) {
        corrected << QStringLiteral("unknown provider \"%1\" in settings; using the local sandbox").arg(settings.provider);
        settings.provider = QStringLiteral("local");
    }
    if (notes)
        *notes = corrected;
    return settings;
}

SandboxOptions Workspace::sandboxOptions(const AppSettings& settings)
{
    SandboxOptions options;
    options.deadlineSeconds = settings.deadlineSeconds;
    options.allowNetwork = settings.allowNetwork;
    options.memoryLimitMb = settings.memoryLimitMb;
    options.pipWheelDir = settings.pipWheelDir;
    options.pipIndexUrl = settings.pipIndexUrl;
    return options;
}

ExecutorConfig Workspace::executorConfig(const AppSettings& settings)
{
    ExecutorConfig config;
    config.deadlineSeconds = settings.deadlineSeconds;
    config.sandbox = sandboxOptions(settings);
    return config;
}

bool Workspace::apply()
{
    m_effective = effective(m_stored, m_overrides, &m_notes);
    if (!m_executor)
        return true; // open() applies them
    // Idle pre-started sandboxes were started with the old settings.
    if (const auto old = m_executor->provider())
        old->drainPool();
    m_executor->setConfig(executorConfig(m_effective));
    std::shared_ptr<SandboxProvider> provider;
    bool ok = true;
    try {
        provider = ProviderRegistry::create(m_effective);
        m_error.clear();
    } catch (const ProviderError& e) {
        m_error = e.message();
        ok = false;
    }
    if (provider) {
        provider->setPoolOptions(sandboxOptions(m_effective));
        provider->setPoolSize(m_effective.poolSize);
        provider->setPoolBurstMax(m_effective.poolBurstMax);
        for (Language language : std::as_const(m_warmLanguages))
            provider->warmLanguage(language);
        if (m_poolStarted && m_effective.poolSize > 0)
            provider->startPool();
    }
    m_executor->setProvider(provider);
    emit settingsChanged();
    return ok;
}

void Workspace::startSandboxPool()
{
    m_poolStarted = true;
    if (const auto current = provider(); current && m_effective.poolSize > 0)
        current->startPool();
}

void Workspace::warmLanguage(Language language)
{
    if (!m_warmLanguages.contains(language))
        m_warmLanguages.append(language);
    if (const auto current = provider())
        current->warmLanguage(language);
}

void Workspace::waitForHistory()
{
    m_historyWriter.waitForDone();
}

std::shared_ptr<SandboxProvider> Workspace::provider() const
{
    return m_executor ? m_executor->provider() : nullptr;
}

QString Workspace::providerName() const
{
    const auto current = provider();
    return current ? current->name() : QStringLiteral("none");
}

QString Workspace::reconcileOrphans()
{
    const auto remote = std::dynamic_pointer_cast<RemoteProvider>(provider());
    if (!remote || !m_allocations)
        return {};
    const QString message = OrphanReconciler(*m_allocations, *remote).run().message();
    if (QCoreApplication::instance() && QThread::currentThread() != QCoreApplication::instance()->thread())
        Database::releaseThreadConnections(); // a worker thread's (see there)
    return message;
}

} // namespace sandpad
