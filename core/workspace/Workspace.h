#pragma once

#include "settings/AppSettings.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <memory>

namespace sandpad {

class Database;
class UsageLedger;
class CreditsAccount;
class DocumentStore;
class RunHistory;
class Executor;
class SandboxProvider;

// One workspace (a data dir): its database and the services over it, and the Executor built from
// the settings. The GUI and the CLI are both thin shells over this.
class Workspace : public QObject {
    Q_OBJECT
public:
    explicit Workspace(const QString& dataDir, QObject* parent = nullptr);
    ~Workspace() override;

    // Opens the database. False with error() when it cannot (corrupt, newer schema, unwritable).
    bool open();
    QString error() const { return m_error; }
    QString dataDir() const { return m_dataDir; }

    // (Re)builds the provider and the Executor's config from settings. False with error() when
    // the provider cannot be built; the Executor then has no provider (runs are refused clearly).
    bool applySettings(const AppSettings& settings);
    const AppSettings& settings() const { return m_settings; }

    Database& database() { return *m_database; }
    UsageLedger& ledger() { return *m_ledger; }
    CreditsAccount& credits() { return *m_credits; }
    DocumentStore& documents() { return *m_documents; }
    RunHistory& history() { return *m_history; }
    Executor& executor() { return *m_executor; }
    std::shared_ptr<SandboxProvider> provider() const;
    // Finished runs are written to the history on a background thread; this waits for them.
    void waitForHistory();

private:
    QString m_dataDir;
    QString m_error;
    AppSettings m_settings;
    std::unique_ptr<Database> m_database;
    std::unique_ptr<UsageLedger> m_ledger;
    std::unique_ptr<CreditsAccount> m_credits;
    std::unique_ptr<DocumentStore> m_documents;
    std::unique_ptr<RunHistory> m_history;
    Executor* m_executor = nullptr;
    QThreadPool m_historyWriter;
};

} // namespace sandpad
