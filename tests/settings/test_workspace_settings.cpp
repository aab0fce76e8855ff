// The Workspace keeps stored settings (what the user saved) apart from effective ones (plus the
// environment and this session's overrides): only stored ones are written; the Executor, the
// provider and its pool follow every change.
#include "core/engine/Executor.h"
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
