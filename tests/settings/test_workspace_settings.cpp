// The Workspace keeps stored settings (what the user saved) apart from effective ones (plus the
// environment and this session's overrides): only stored ones are written; the Executor, the
// provider and its pool follow every change. Each provider's fields are its descriptor's.
#include "core/engine/Executor.h"
#include "core/providers/command/CommandProvider.h"
#include "core/providers/local/LocalProvider.h"
#include "core/providers/ProviderRegistry.h"
#include "core/settings/AppSettings.h"
#include "core/workspace/Workspace.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace sandpad;

class TestWorkspaceSettings : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString iniPath() const { return m_dir.filePath(QStringLiteral("settings.ini")); }
    void store(const AppSettings& settings)
    {
        QSettings ini(iniPath(), QSettings::IniFormat);
        settings.save(ini);
    }
    std::unique_ptr<Workspace> openWorkspace()
    {
        auto workspace = std::make_unique<Workspace>(m_dir.filePath(QStringLiteral("data")));
        workspace->setSettingsFile(iniPath());
        return workspace->open() ? std::move(workspace) : nullptr;
    }

private slots:
    void init()
    {
        QFile::remove(iniPath());
        qunsetenv("SANDPAD_PROVIDER");
    }
    void cleanup() { qunsetenv("SANDPAD_PROVIDER"); }

    void environmentAndOverridesAreNeverSaved()
    {
        AppSettings saved;
        saved.provider = QStringLiteral("local");
        saved.poolSize = 0;
        store(saved);
        qputenv("SANDPAD_PROVIDER", "none");
        auto workspace = openWorkspace();
        QVERIFY(workspace);
        workspace->setOverrides([](AppSettings& s) { s.deadlineSeconds = 5; });
        QVERIFY(workspace->loadSettings());
        QCOMPARE(workspace->storedSettings().provider, QStringLiteral("local"));
        QCOMPARE(workspace->storedSettings().deadlineSeconds, Deadline::kDefaultSeconds);
        QCOMPARE(workspace->effectiveSettings().provider, QStringLiteral("none"));
        QCOMPARE(workspace->effectiveSettings().deadlineSeconds, 5);
        QCOMPARE(workspace->providerName(), QStringLiteral("none"));

        AppSettings changed = workspace->storedSettings();
        changed.memoryLimitMb = 2048;
        QVERIFY(workspace->saveSettings(changed));
        QSettings ini(iniPath(), QSettings::IniFormat);
        QCOMPARE(ini.value("provider/name").toString(), QStringLiteral("local"));
        QCOMPARE(ini.value("run/deadlineSeconds").toInt(), Deadline::kDefaultSeconds);
        QCOMPARE(ini.value("run/memoryLimitMb").toLongLong(), qint64(2048));
        QCOMPARE(workspace->effectiveSettings().provider, QStringLiteral("none"));
        QCOMPARE(workspace->executor().config().sandbox.memoryLimitMb, qint64(2048));
    }

    void everyChangeReachesTheExecutor()
    {
        AppSettings saved;
        saved.provider = QStringLiteral("none");
        saved.deadlineSeconds = 1;
        store(saved);
        auto workspace = openWorkspace();
        QVERIFY(workspace);
        QSignalSpy changed(workspace.get(), &Workspace::settingsChanged);
        QVERIFY(workspace->loadSettings());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(workspace->executor().config().deadlineSeconds, 1);
        AppSettings raised = workspace->storedSettings();
        raised.deadlineSeconds = 120;
        raised.allowNetwork = true;
        raised.pipIndexUrl = QStringLiteral("https://mirror.example/simple");
        QVERIFY(workspace->saveSettings(raised));
        QCOMPARE(changed.count(), 2);
        const ExecutorConfig& config = workspace->executor().config();
        QCOMPARE(config.deadlineSeconds, 120);
        QVERIFY(config.sandbox.allowNetwork);
        QCOMPARE(config.sandbox.pipIndexUrl, QStringLiteral("https://mirror.example/simple"));
        // Out of range is clamped into it, with a note.
        raised.deadlineSeconds = 10 * Deadline::kMaxSeconds;
        QVERIFY(workspace->applySettings(raised));
        QCOMPARE(workspace->executor().config().deadlineSeconds, Deadline::kMaxSeconds);
        QVERIFY(!workspace->settingsNotes().isEmpty());
    }

    void unknownProvidersFallBackToLocal()
    {
        qputenv("SANDPAD_PROVIDER", "nonsense");
        auto workspace = openWorkspace();
        QVERIFY(workspace);
        AppSettings s;
        s.poolSize = 0;
        workspace->applySettings(s);
        QCOMPARE(workspace->effectiveSettings().provider, QStringLiteral("local"));
        QVERIFY(workspace->settingsNotes().join(' ').contains("nonsense"));
        for (const QString& name : ProviderRegistry::names())
            QVERIFY(!ProviderRegistry::displayName(name).isEmpty());
        QVERIFY(ProviderRegistry::names().contains(QStringLiteral("command")));
    }

    // Issue 33: each provider's fields come from its descriptor, under the keys earlier versions
    // stored them (nothing to migrate), and build the provider; its variable still wins.
    void providerFieldsKeepTheirStoredKeys()
    {
        {
            QSettings ini(iniPath(), QSettings::IniFormat);
            ini.setValue("provider/name", "command");
            ini.setValue("local/python", "/opt/py/bin/python3");
            ini.setValue("vercel/teamId", "team_old");
            ini.setValue("daytona/organizationId", "org_old");
            ini.setValue("command/path", "/opt/provider");
            ini.setValue("local/poolSize", 0);
        }
        qunsetenv("SANDPAD_COMMAND_PROVIDER");
        auto workspace = openWorkspace();
        QVERIFY(workspace);
        QVERIFY(workspace->loadSettings());
        const AppSettings& stored = workspace->storedSettings();
        QCOMPARE(stored.providerValue("local", "python"), QStringLiteral("/opt/py/bin/python3"));
        QCOMPARE(stored.providerValue("vercel", "teamId"), QStringLiteral("team_old"));
        QCOMPARE(stored.providerValue("daytona", "organizationId"), QStringLiteral("org_old"));
        QCOMPARE(stored.providerValue("vercel", "token"), QString()); // a secret: the keychain's
        auto command = std::dynamic_pointer_cast<CommandProvider>(workspace->provider());
        QVERIFY(command);
        QCOMPARE(command->config().program, QStringLiteral("/opt/provider"));

        AppSettings changed = stored;
        changed.setProviderValue("vercel", "projectId", "prj_new");
        QVERIFY(workspace->saveSettings(changed));
        QSettings ini(iniPath(), QSettings::IniFormat);
        QCOMPARE(ini.value("vercel/teamId").toString(), QStringLiteral("team_old"));
        QCOMPARE(ini.value("vercel/projectId").toString(), QStringLiteral("prj_new"));
        QCOMPARE(ini.value("local/python").toString(), QStringLiteral("/opt/py/bin/python3"));
        QVERIFY(!ini.contains("vercel/token"));

        qputenv("SANDPAD_COMMAND_PROVIDER", "/opt/from-env");
        command = std::dynamic_pointer_cast<CommandProvider>(ProviderRegistry::create(workspace->effectiveSettings()));
        qunsetenv("SANDPAD_COMMAND_PROVIDER");
        QVERIFY(command);
        QCOMPARE(command->config().program, QStringLiteral("/opt/from-env"));
        AppSettings local = workspace->effectiveSettings();
        local.provider = QStringLiteral("local");
        auto built = std::dynamic_pointer_cast<LocalProvider>(ProviderRegistry::create(local));
        QVERIFY(built);
        QCOMPARE(built->pythonPath(), QStringLiteral("/opt/py/bin/python3"));
    }

    // What the Settings dialog, the CLI and the registry read, each provider's descriptor says.
    void everyDescriptorIsComplete()
    {
        QStringList names;
        for (const ProviderDescriptor& d : ProviderRegistry::descriptors()) {
            QVERIFY2(!names.contains(d.name), qPrintable(d.name));
            names << d.name;
            QVERIFY(!d.displayName.isEmpty());
            QVERIFY(d.create);
            QVERIFY(!d.fields.isEmpty() || !d.help.isEmpty()); // Settings has something to show
            QStringList keys;
            for (const ProviderField& f : d.fields) {
                QVERIFY(!keys.contains(f.key));
                keys << f.key;
                QVERIFY(!f.label.isEmpty());
                QVERIFY(!f.secret || !f.environmentVariable.isEmpty()); // the keychain's name
            }
        }
        QCOMPARE(names, ProviderRegistry::names());
        QCOMPARE(names.first(), QStringLiteral("none"));
        QCOMPARE(ProviderRegistry::secretVariables("vercel"),
                 QStringList({QStringLiteral("VERCEL_TOKEN"), QStringLiteral("VERCEL_OIDC_TOKEN")}));
        QCOMPARE(ProviderRegistry::secretVariables("daytona"), QStringList{QStringLiteral("DAYTONA_API_KEY")});
        QVERIFY(ProviderRegistry::secretVariables("local").isEmpty());
        AppSettings none;
        none.provider = QStringLiteral("none");
        QVERIFY(!ProviderRegistry::create(none));
    }

    // View > Theme's choice is stored, and rebuilds nothing.
    void theThemeIsStoredWithoutRebuildingTheProvider()
    {
        AppSettings saved;
        saved.provider = QStringLiteral("local");
        saved.poolSize = 0;
        saved.memoryLimitMb = 2048;
        store(saved);
        auto workspace = openWorkspace();
        QVERIFY(workspace);
        QVERIFY(workspace->loadSettings());
        const auto provider = workspace->provider();
        QSignalSpy changed(workspace.get(), &Workspace::settingsChanged);
        workspace->saveTheme(QStringLiteral("Dark"));
        QCOMPARE(changed.count(), 0);
        QVERIFY(workspace->provider() == provider);
        QCOMPARE(workspace->storedSettings().theme, QStringLiteral("dark"));
        QCOMPARE(workspace->effectiveSettings().theme, QStringLiteral("dark"));
        QSettings ini(iniPath(), QSettings::IniFormat);
        QCOMPARE(ini.value("appearance/theme").toString(), QStringLiteral("dark"));
        QCOMPARE(ini.value("run/memoryLimitMb").toLongLong(), qint64(2048)); // the rest as it was
    }

    void thePoolFollowsTheSettings()
    {
        auto workspace = openWorkspace();
        QVERIFY(workspace);
        AppSettings s;
        s.provider = QStringLiteral("local");
        s.poolSize = 3;
        QVERIFY(workspace->applySettings(s));
        auto local = std::dynamic_pointer_cast<LocalProvider>(workspace->provider());
        QVERIFY(local);
        QCOMPARE(local->poolSize(), 3);
        s.poolSize = 0;
        QVERIFY(workspace->applySettings(s));
        local = std::dynamic_pointer_cast<LocalProvider>(workspace->provider());
        QVERIFY(local);
        QCOMPARE(local->poolSize(), 0);
    }
};

QTEST_GUILESS_MAIN(TestWorkspaceSettings)
#include "test_workspace_settings.moc"
