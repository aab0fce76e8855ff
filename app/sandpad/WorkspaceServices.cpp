#include "WorkspaceServices.h"

#include "core/accounting/CreditsAccount.h"
#include "core/engine/Executor.h"
#include "core/providers/ProviderRegistry.h"
#include "core/sandbox/ProviderError.h"
#include "core/settings/SecretStore.h"
#include "core/workspace/Workspace.h"
#include "ui/session/TabSessions.h"
#include "ui/settings/SettingsDialog.h"

#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>

namespace sandpad {

namespace {

ValidationReport refusal(const QString& provider, const QString& why)
{
    return ValidationReport{provider, {{QStringLiteral("provider"), ValidationItem::Level::Error, why}}};
}

// Validates a provider built from settings; blocking, for a worker thread.
std::function<ValidationReport()> validatorFor(std::shared_ptr<SandboxProvider> provider, const QString& problem)
{
    return [provider, problem] {
        return provider ? provider->validate()
                        : refusal(QStringLiteral("none"), problem.isEmpty() ? QStringLiteral("no provider selected") : problem);
    };
}

std::function<ValidationReport()> validatorFor(Workspace& workspace)
{
    // Validate also removes what runs of dead processes left on the service, and says so.
    return [check = validatorFor(workspace.provider(), workspace.error()), &workspace] {
        ValidationReport report = check();
        if (const QString orphans = workspace.reconcileOrphans(); !orphans.isEmpty())
            report.items.append({QStringLiteral("orphans"), ValidationItem::Level::Warning, orphans});
        return report;
    };
}

void openSettings(Workspace& workspace, QWidget* parent)
{
    SettingsDialog dialog(parent);
    // The stored settings, never the effective ones: OK must not store an environment override.
    dialog.setSettings(workspace.storedSettings());
    dialog.setCredits(workspace.credits().enabled(), workspace.credits().balanceMicros());
    dialog.setTopUpHandler([&workspace](qint64 micros) {
        workspace.credits().topUp(micros);
        return workspace.credits().balanceMicros();
    });
    // The form's provider and values as they are now, with the secrets typed there.
    dialog.setValidator([](AppSettings form, const QHash<QString, QString>& secrets) {
        form.sanitize();
        try {
            if (auto provider = ProviderRegistry::create(form, secrets))
                return provider->validate();
        } catch (const ProviderError& e) {
            return refusal(form.provider, e.message());
        }
        return refusal(form.provider, QStringLiteral("no provider selected"));
    });
    dialog.setSecretSaver([](const QString& key, const QString& value) {
        const SecretStore store;
        if (value.isEmpty()) {
            // Forgetting fails only where nothing could have been stored (no keychain).
            store.deleteSecret(key);
            return QString();
        }
        const SecretStore::Result stored = store.writeSecret(key, value);
        return stored.ok ? QString() : stored.error;
    });
    if (dialog.exec() != QDialog::Accepted)
        return;
    workspace.credits().setEnabled(dialog.creditsEnabled());
    // Onto the settings as they are now, not as the dialog got them: a theme chosen meanwhile stays.
    AppSettings next = workspace.storedSettings();
    dialog.applyTo(next);
    workspace.saveSettings(next); // a provider problem shows in the status bar
}

} // namespace

std::unique_ptr<Workspace> openWorkspaceInteractive(QString dir, QWidget* parent)
{
    for (;;) {
        auto workspace = std::make_unique<Workspace>(dir);
        if (workspace->open())
            return workspace;
        const QString error = workspace->error();
        workspace.reset();
        qCritical("sandpad: cannot open the workspace %s: %s", qPrintable(dir), qPrintable(error));
        QMessageBox box(QMessageBox::Critical, QObject::tr("Sandpad"),
                        QObject::tr("The workspace in %1 cannot be opened.").arg(QDir::toNativeSeparators(dir)),
                        QMessageBox::NoButton, parent);
        box.setObjectName(QStringLiteral("workspaceError"));
        box.setInformativeText(QObject::tr("%1\n\nNothing in it was changed.").arg(error));
        QPushButton* another = box.addButton(QObject::tr("Open Another Workspace…"), QMessageBox::AcceptRole);
        box.addButton(parent ? QMessageBox::Cancel : QMessageBox::Close);
        box.setDefaultButton(another);
        box.exec();
        if (box.clickedButton() != another)
            return nullptr;
        dir = QFileDialog::getExistingDirectory(parent, QObject::tr("Open Workspace"), dir);
        if (dir.isEmpty())
            return nullptr;
    }
}

void followSettings(Workspace& workspace, MainWindow& window)
{
    // The sessions' idle limit (Settings > Execution) applies to the tabs' sessions at once.
    auto idle = [&workspace, &window] {
        if (TabSessions* sessions = window.tabSessions())
            sessions->setIdleSeconds(workspace.effectiveSettings().sessionIdleMinutes * 60);
    };
    idle();
    QObject::connect(&workspace, &Workspace::settingsChanged, &window, [&workspace, &window, idle] {
        window.setProvider(workspace.providerName(), validatorFor(workspace));
        idle();
    });
}

MainWindowServices workspaceServices(Workspace& workspace)
{
    MainWindowServices services;
    services.executor = &workspace.executor();
    services.history = &workspace.history();
    services.ledger = &workspace.ledger();
    services.credits = &workspace.credits();
    services.providerName = workspace.providerName();
    services.validate = validatorFor(workspace);
    services.openSettings = [&workspace](QWidget* parent) { openSettings(workspace, parent); };
    services.saveTheme = [&workspace](const QString& theme) { workspace.saveTheme(theme); };
    services.documents = &workspace.documents();
    services.recoveryDir = workspace.dataDir();
    services.warmLanguage = [&workspace](Language language) { workspace.warmLanguage(language); };
    return services;
}

} // namespace sandpad
