#include "WorkspaceServices.h"

#include "accounting/CreditsAccount.h"
#include "workspace/Workspace.h"
#include "engine/Executor.h"
#include "providers/ProviderError.h"
#include "providers/ProviderRegistry.h"
#include "providers/local/LocalProvider.h"
#include "settings/SecretStore.h"
#include "settings/SettingsDialog.h"

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

void openSettings(Workspace& workspace, QWidget* parent)
{
    SettingsDialog dialog(parent);
    dialog.setSettings(workspace.settings());
    dialog.setCredits(workspace.credits().enabled(), workspace.credits().balanceMicros());
    dialog.setTopUpHandler([&workspace](qint64 micros) {
        workspace.credits().topUp(micros);
        return workspace.credits().balanceMicros();
    });
    dialog.setValidator([settings = workspace.settings()](const QString& name) mutable {
        settings.provider = name;
        try {
            if (auto provider = ProviderRegistry::create(settings))
                return provider->validate();
        } catch (const ProviderError& e) {
            return refusal(name, e.message());
        }
        return refusal(name, QStringLiteral("no provider selected"));
    });
    dialog.setSecretSaver([](const QString& key, const QString& value) {
        const SecretStore store;
        value.isEmpty() ? store.deleteSecret(key) : store.writeSecret(key, value);
    });
    if (dialog.exec() != QDialog::Accepted)
        return;
    workspace.credits().setEnabled(dialog.creditsEnabled());
    AppSettings settings = dialog.settings();
    settings.sanitize();
    settings.save();
    settings.applyEnvironment();
    drainSandboxPool(workspace); // idle sandboxes were started with the old settings
    workspace.applySettings(settings);
    startSandboxPool(workspace);
    if (auto* window = qobject_cast<MainWindow*>(parent)) {
        const auto provider = workspace.provider();
        window->setProvider(provider ? provider->name() : QStringLiteral("none"),
                            validatorFor(provider, workspace.error()));
    }
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

void startSandboxPool(Workspace& workspace)
{
    if (auto local = std::dynamic_pointer_cast<LocalProvider>(workspace.provider())) {
        local->setPoolSize(workspace.settings().poolSize);
        if (workspace.settings().poolSize > 0)
            local->startPool();
    }
}

void drainSandboxPool(Workspace& workspace)
{
    if (auto local = std::dynamic_pointer_cast<LocalProvider>(workspace.provider()))
        local->drainPool();
}

MainWindowServices workspaceServices(Workspace& workspace)
{
    MainWindowServices services;
    services.executor = &workspace.executor();
    services.history = &workspace.history();
    services.ledger = &workspace.ledger();
    services.credits = &workspace.credits();
    const auto provider = workspace.provider();
    services.providerName = provider ? provider->name() : QStringLiteral("none");
    services.validate = validatorFor(provider, workspace.error());
    services.deadlineSeconds = workspace.settings().deadlineSeconds;
    services.openSettings = [&workspace](QWidget* parent) { openSettings(workspace, parent); };
    services.documents = &workspace.documents();
    services.recoveryDir = workspace.dataDir();
    return services;
}

} // namespace sandpad
