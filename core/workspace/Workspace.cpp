#include "workspace/Workspace.h"

#include "accounting/CreditsAccount.h"
#include "accounting/UsageLedger.h"
#include "documents/DocumentStore.h"
#include "engine/Executor.h"
#include "notebook/RunHistory.h"
#include "providers/ProviderError.h"
#include "providers/ProviderRegistry.h"
#include "run/Run.h"
#include "storage/Database.h"

#include <QDebug>

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
    m_executor = new Executor(nullptr, m_ledger.get(), m_documents.get(), m_credits.get());
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
    return true;
}

bool Workspace::applySettings(const AppSettings& settings)
{
    m_settings = settings;
    ExecutorConfig config;
    config.deadlineSeconds = settings.deadlineSeconds;
    config.sandbox.allowNetwork = settings.allowNetwork;
    config.sandbox.memoryLimitMb = settings.memoryLimitMb;
    config.sandbox.pipWheelDir = settings.pipWheelDir;
    config.sandbox.pipIndexUrl = settings.pipIndexUrl;
    m_executor->setConfig(config);
    try {
        m_executor->setProvider(ProviderRegistry::create(settings));
        m_error.clear();
        return true;
    } catch (const ProviderError& e) {
        m_executor->setProvider(nullptr);
        m_error = e.message();
        return false;
    }
}

void Workspace::waitForHistory()
{
    m_historyWriter.waitForDone();
}

std::shared_ptr<SandboxProvider> Workspace::provider() const
{
    return m_executor ? m_executor->provider() : nullptr;
}

} // namespace sandpad

