// The desktop client: opens the workspace, builds the executor from the settings and shows the
// main window. --run-example/--screenshot drive it for the screenshot script.
#include "MainWindow.h"
#include "accounting/CreditsAccount.h"
#include "accounting/UsageLedger.h"
#include "documents/DocumentStore.h"
#include "engine/Executor.h"
#include "notebook/RunHistory.h"
#include "providers/ProviderError.h"
#include "providers/ProviderRegistry.h"
#include "settings/AppSettings.h"
#include "storage/Database.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QTimer>

using namespace sandpad;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("sandpad"));
    QApplication::setOrganizationName(QStringLiteral("sandpad"));
    QApplication::setApplicationVersion(QStringLiteral(SANDPAD_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Run Python and JavaScript snippets in a secure sandbox"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption dataDir(QStringLiteral("data-dir"), QStringLiteral("Workspace folder (default: $SANDPAD_DATA_DIR or the app data folder)."), QStringLiteral("DIR"));
    const QCommandLineOption runExample(QStringLiteral("run-example"), QStringLiteral("Open and run a bundled example."), QStringLiteral("NAME"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Save a screenshot of the window to FILE, then quit."), QStringLiteral("FILE"));
    parser.addOptions({dataDir, runExample, screenshot});
    parser.process(app);

    Database database(parser.isSet(dataDir) ? parser.value(dataDir) : Database::defaultDataDir());
    if (!database.open()) {
        QMessageBox::critical(nullptr, QStringLiteral("Sandpad"), database.error());
        return 1;
    }
    UsageLedger ledger(database);
    CreditsAccount credits(database);
    DocumentStore documents(database);
    RunHistory history(database);

    AppSettings settings = AppSettings::load();
    settings.applyEnvironment();
    settings.sanitize();
    std::shared_ptr<SandboxProvider> provider;
    QString providerProblem;
    try {
        provider = ProviderRegistry::create(settings);
    } catch (const ProviderError& e) {
        providerProblem = e.message();
    }
    Executor executor(provider, &ledger, &documents, &credits);
    ExecutorConfig config;
    config.deadlineSeconds = settings.deadlineSeconds;
    config.sandbox.allowNetwork = settings.allowNetwork;
    config.sandbox.memoryLimitMb = settings.memoryLimitMb;
    config.sandbox.pipWheelDir = settings.pipWheelDir;
    config.sandbox.pipIndexUrl = settings.pipIndexUrl;
    executor.setConfig(config);

    MainWindowServices services;
    services.executor = &executor;
    services.history = &history;
    services.ledger = &ledger;
    services.credits = &credits;
    services.providerName = provider ? provider->name() : QStringLiteral("none");
    services.deadlineSeconds = settings.deadlineSeconds;
    services.validate = [provider, providerProblem] {
        if (provider)
            return provider->validate();
        ValidationReport report;
        report.provider = QStringLiteral("none");
        report.items.append({QStringLiteral("provider"), ValidationItem::Level::Error,
                             providerProblem.isEmpty() ? QStringLiteral("no provider selected") : providerProblem});
        return report;
    };
    MainWindow window(services);
    window.show();

    auto takeScreenshot = [&] {
        if (parser.isSet(screenshot)) {
            window.grab().save(parser.value(screenshot));
            QApplication::quit();
        }
    };
    if (parser.isSet(runExample)) {
        if (!window.openExample(parser.value(runExample))) {
            qCritical("unknown example: %s", qPrintable(parser.value(runExample)));
            return 2;
        }
        QObject::connect(&window, &MainWindow::runFinished, &window, [&] { QTimer::singleShot(800, &window, takeScreenshot); });
        QTimer::singleShot(300, &window, [&] { window.runAll(); });
    } else if (parser.isSet(screenshot)) {
        QTimer::singleShot(1500, &window, takeScreenshot);
    }
    const int status = QApplication::exec();
    executor.waitForAll();
    return status;
}
