#pragma once

#include "core/language/Language.h"
#include "core/settings/AppSettings.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>
#include <functional>
#include <memory>

namespace sandpad {

class Database;
class UsageLedger;
class CreditsAccount;
class DocumentStore;
class RunHistory;
class Executor;
class RemoteAllocations;
class SandboxProvider;
struct ExecutorConfig;
struct SandboxOptions;

// One workspace (a data dir): its database and the services over it, the settings, and the
// Executor and provider (with its pre-started sandboxes) built from them. The GUI and the CLI are
// both thin shells over this.
//
// Settings come in two kinds. Stored: what the user saved (QSettings). Effective: the stored ones,
// then the environment (SANDPAD_PROVIDER), then this session's overrides (CLI flags), sanitized.
// Runs, the provider and its pool follow the effective settings; only stored ones are ever written,
// so an override never becomes the user's setting.
class Workspace : public QObject {
    Q_OBJECT
public:
    // Changes settings for this session only (e.g. CLI flags); applied after the environment.
    using Overrides = std::function<void(AppSettings&)>;

    explicit Workspace(const QString& dataDir, QObject* parent = nullptr);
    ~Workspace() override;

    // Opens the database. False with error() when it cannot (corrupt, newer schema, unwritable).
    bool open();
    // Why the database could not be opened, or why the provider could not be built.
    QString error() const { return m_error; }
    QString dataDir() const { return m_dataDir; }

    // Where settings are stored: an INI file (tests), empty for the platform's QSettings (default).
    void setSettingsFile(const QString& path) { m_settingsFile = path; }
    void setOverrides(Overrides overrides) { m_overrides = std::move(overrides); }
    // Reads the stored settings and applies them (also before open(): open() applies them then).
    // False with error() when the provider cannot be built; the Executor then has no provider
    // (runs are refused clearly). settingsNotes() says which values were corrected.
    bool loadSettings();
    // The user changed settings: stores them (never an override) and applies them.
    bool saveSettings(const AppSettings& stored);
    // View > Theme: stores the colours chosen (stored and effective) without rebuilding the
    // provider or emitting settingsChanged: nothing that runs depends on them. The one way the
    // theme is saved, so a Settings dialog's OK later keeps it (see saveSettings's callers).
    void saveTheme(const QString& theme);
    // Uses these as the stored settings of this session without writing them (tests, tools).
    bool applySettings(const AppSettings& stored);
    const AppSettings& storedSettings() const { return m_stored; }
    const AppSettings& effectiveSettings() const { return m_effective; }
    QStringList settingsNotes() const { return m_notes; }

    // The effective settings for stored ones (what the Settings dialog validates): the environment,
    // then overrides, sanitized, the provider checked against the ProviderRegistry. Thread-safe.
    static AppSettings effective(AppSettings stored, const Overrides& overrides = {}, QStringList* notes = nullptr);
    // The one mapping from settings to what runs and sandboxes get.
    static ExecutorConfig executorConfig(const AppSettings& settings);
    static SandboxOptions sandboxOptions(const AppSettings& settings);

    // From now on the provider's pre-started sandboxes are kept filled (also after every settings
    // change). Long-lived callers only, after their window is shown: start-up never waits for
    // sandboxes, and a one-shot CLI run would pay for one it never uses.
    void startSandboxPool();
    // Keeps sandboxes of this language pre-started (an editor tab of it is open); Python always is.
    void warmLanguage(Language language);

    Database& database() { return *m_database; }
    UsageLedger& ledger() { return *m_ledger; }
    CreditsAccount& credits() { return *m_credits; }
    DocumentStore& documents() { return *m_documents; }
    RunHistory& history() { return *m_history; }
    Executor& executor() { return *m_executor; }
    std::shared_ptr<SandboxProvider> provider() const;
    QString providerName() const; // "none" without a provider
    // Removes the remote sandboxes that runs of dead processes left (OrphanReconciler) with the
    // current provider, and says so for the user ("removed 1 Daytona sandbox left by a run that
    // did not finish"); empty when there was nothing to do or the provider is not remote. Blocks
    // (HTTP when there are open records): for a worker thread, or a one-shot CLI. Thread-safe.
    QString reconcileOrphans();
    // Finished runs are written to the history on a background thread; this waits for them.
    void waitForHistory();

signals:
    // The effective settings were applied: the Executor's config, the provider and its pool are
    // the new ones. Whoever shows or uses settings follows this.
    void settingsChanged();

private:
    bool apply();

    QString m_dataDir;
    QString m_error;
    QString m_settingsFile;
    Overrides m_overrides;
    AppSettings m_stored;
    AppSettings m_effective;
    QStringList m_notes;
    bool m_settingsSet = false;
    bool m_poolStarted = false;
    QList<Language> m_warmLanguages; // kept pre-started on every provider (tabs of them are open)
    std::unique_ptr<Database> m_database;
    std::unique_ptr<UsageLedger> m_ledger;
    std::unique_ptr<CreditsAccount> m_credits;
    std::unique_ptr<DocumentStore> m_documents;
    std::unique_ptr<RunHistory> m_history;
    std::unique_ptr<RemoteAllocations> m_allocations;
    Executor* m_executor = nullptr;
    QThreadPool m_historyWriter;
};

} // namespace sandpad
