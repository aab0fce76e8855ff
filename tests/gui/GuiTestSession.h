#pragma once

// The services a MainWindow needs, opened on a data dir the way the app does (local provider).
#include "MainWindow.h"
#include "accounting/CreditsAccount.h"
#include "accounting/UsageLedger.h"
#include "documents/DocumentStore.h"
#include "engine/Executor.h"
#include "notebook/RunHistory.h"
#include "providers/ProviderRegistry.h"
#include "settings/AppSettings.h"
#include "storage/Database.h"

#include <memory>

namespace sandpad {

struct GuiTestSession {
    explicit GuiTestSession(const QString& dataDir) : database(dataDir)
    {
        opened = database.open();
        ledger = std::make_unique<UsageLedger>(database);
        credits = std::make_unique<CreditsAccount>(database);
        documents = std::make_unique<DocumentStore>(database);
        history = std::make_unique<RunHistory>(database);
        AppSettings settings;
        settings.provider = QStringLiteral("local");
        settings.poolSize = 0;
        provider = ProviderRegistry::create(settings);
        executor = std::make_unique<Executor>(provider, ledger.get(), documents.get(), credits.get());
    }
    ~GuiTestSession()
    {
        if (executor)
            executor->waitForAll();
    }
    MainWindowServices services() const
    {
        MainWindowServices s;
        s.executor = executor.get();
        s.history = history.get();
        s.ledger = ledger.get();
        s.credits = credits.get();
        s.providerName = provider ? provider->name() : QStringLiteral("none");
        return s;
    }

    Database database;
    bool opened = false;
    std::unique_ptr<UsageLedger> ledger;
    std::unique_ptr<CreditsAccount> credits;
    std::unique_ptr<DocumentStore> documents;
    std::unique_ptr<RunHistory> history;
    std::shared_ptr<SandboxProvider> provider;
    std::unique_ptr<Executor> executor;
};

} // namespace sandpad
