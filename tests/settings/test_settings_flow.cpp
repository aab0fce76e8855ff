// Settings from the dialog to the next run, wired as app/sandpad wires them (workspaceServices,
// followSettings): a changed deadline applies to the next run; an environment override is shown
// but never stored; Validate checks what the form holds; OK keeps a theme chosen in View > Theme.
#include "core/engine/Executor.h"
#include "core/run/Run.h"
#include "core/settings/AppSettings.h"
#include "core/workspace/Workspace.h"
#include "ui/console/RunController.h"
#include "ui/console/RunEntry.h"
#include "ui/MainWindow.h"
#include "ui/MainWindowActions.h"
#include "ui/settings/SettingsDialog.h"
#include "ui/statusbar/RunStatusBar.h"
#include "ui/theme/Theme.h"
#include "WorkspaceServices.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <functional>

using namespace sandpad;

class TestSettingsFlow : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<MainWindow> m_window;

    QString iniPath() const { return m_dir.filePath(QStringLiteral("settings.ini")); }
    // A workspace over stored settings, and its window, as the app builds them.
    void openSession(const AppSettings& stored)
    {
        {
            QSettings ini(iniPath(), QSettings::IniFormat);
            stored.save(ini);
        }
        m_workspace = std::make_unique<Workspace>(m_dir.filePath(QStringLiteral("data")));
        m_workspace->setSettingsFile(iniPath());
        QVERIFY(m_workspace->open());
        m_workspace->loadSettings();
        m_window = std::make_unique<MainWindow>(workspaceServices(*m_workspace));
        followSettings(*m_workspace, *m_window);
    }
    // Opens Settings the way the window's menu does and lets `edit` act on the modal dialog; a
    // dialog still open afterwards (a failed check) is cancelled.
    void withSettingsDialog(const std::function<void(SettingsDialog&)>& edit)
    {
        bool seen = false;
        QTimer poll;
        poll.setInterval(10);
        connect(&poll, &QTimer::timeout, this, [&] {
            auto* dialog = qobject_cast<SettingsDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            poll.stop();
            seen = true;
            edit(*dialog);
            if (dialog->isVisible())
                dialog->reject();
        });
        poll.start();
        workspaceServices(*m_workspace).openSettings(m_window.get());
        QVERIFY(seen);
    }
    ExecutionResult runAndWait(const QString& code)
    {
        const QString title = QStringLiteral("deadline.py");
        RunOrigin origin;
        origin.title = title;
        origin.code = code;
        Run* run = m_window->runs()->start(ExecutionRequest::adHoc(Language::Python, code, title), origin);
        if (!run)
            return {};
        QSignalSpy finished(run, &Run::finished);
        if (!run->isFinished() && !finished.wait(120000))
            return {};
        return run->result();
    }

private slots:
    void init()
    {
        QFile::remove(iniPath());
        qunsetenv("SANDPAD_PROVIDER");
    }
    void cleanup()
    {
        if (m_workspace)
            m_workspace->executor().waitForAll();
        m_window.reset();
        m_workspace.reset();
        qunsetenv("SANDPAD_PROVIDER");
    }

    // Issue 11, bug 1: the deadline was copied into RunController once, and the Executor takes
    // the smaller of the request's and its own, so a raised deadline did nothing until restart.
    void aRaisedDeadlineAppliesToTheNextRun()
    {
        AppSettings stored;
        stored.provider = QStringLiteral("local");
        stored.poolSize = 0;
        stored.deadlineSeconds = 1;
        openSession(stored);
        withSettingsDialog([](SettingsDialog& dialog) {
            qobject_cast<QSpinBox*>(dialog.field("deadline"))->setValue(120);
            dialog.accept();
        });
        QCOMPARE(m_workspace->executor().config().deadlineSeconds, 120);
        // Sleeps well past the old 1 s and far inside the new 120 s.
        const ExecutionResult result = runAndWait(QStringLiteral("import time\ntime.sleep(3)\nprint('slept')\n"));
        QVERIFY2(result.status == RunStatus::Success, qPrintable(result.reason));
        QVERIFY(result.stdoutText.contains(QStringLiteral("slept")));
    }

    void aLoweredDeadlineAppliesToTheNextRun()
    {
        AppSettings stored;
        stored.provider = QStringLiteral("local");
        stored.poolSize = 0;
        openSession(stored);
        withSettingsDialog([](SettingsDialog& dialog) {
            qobject_cast<QSpinBox*>(dialog.field("deadline"))->setValue(1);
            dialog.accept();
        });
        const ExecutionResult result = runAndWait(QStringLiteral("import time\ntime.sleep(30)\n"));
        QCOMPARE(result.status, RunStatus::Timeout);
    }

    // Issue 11, bug 2: OK stored the environment's SANDPAD_PROVIDER (which `make run` sets) as the
    // user's provider.
    void okNeverStoresTheEnvironmentsProvider()
    {
        qputenv("SANDPAD_PROVIDER", "none");
        AppSettings stored;
        stored.provider = QStringLiteral("local");
        stored.poolSize = 0;
        openSession(stored);
        QCOMPARE(m_workspace->providerName(), QStringLiteral("none"));
        QString shown, hint;
        withSettingsDialog([&](SettingsDialog& dialog) {
            shown = dialog.selectedProvider();
            hint = dialog.envHint("provider");
            qobject_cast<QSpinBox*>(dialog.field("memory"))->setValue(2048);
            dialog.accept();
        });
        QSettings ini(iniPath(), QSettings::IniFormat);
        QCOMPARE(ini.value("run/memoryLimitMb").toLongLong(), qint64(2048)); // OK stored the change
        QCOMPARE(ini.value("provider/name").toString(), QStringLiteral("local"));
        QCOMPARE(shown, QStringLiteral("local")); // the dialog edits the stored provider
        QVERIFY(hint.contains(QStringLiteral("none"))); // and shows the override
        QCOMPARE(m_workspace->storedSettings().provider, QStringLiteral("local"));
        QCOMPARE(m_workspace->effectiveSettings().provider, QStringLiteral("none")); // still overridden
        QCOMPARE(m_window->runStatusBar()->providerText().contains(QStringLiteral("none")), true);
    }

    // Issue 33: View > Theme wrote the theme to the platform's settings behind the Workspace,
    // whose stored settings kept the old one; a Settings dialog's OK (opened before the choice or
    // after it) then wrote the old theme back.
    void aThemeChosenInTheViewMenuSurvivesTheSettingsDialog()
    {
        AppSettings stored;
        stored.provider = QStringLiteral("none");
        openSession(stored);
        auto choose = [this](const QString& theme) {
            for (QAction* action : m_window->actions()->themes->actions())
                if (action->data().toString() == theme)
                    action->trigger();
        };
        QSignalSpy rebuilt(m_workspace.get(), &Workspace::settingsChanged);
        // Chosen while a Settings dialog is open, then OK with another change.
        withSettingsDialog([&](SettingsDialog& dialog) {
            choose(QStringLiteral("dark"));
            qobject_cast<QSpinBox*>(dialog.field("memory"))->setValue(2048);
            dialog.accept();
        });
        QCOMPARE(m_workspace->storedSettings().theme, QStringLiteral("dark"));
        QCOMPARE(m_workspace->storedSettings().memoryLimitMb, qint64(2048));
        {
            QSettings ini(iniPath(), QSettings::IniFormat);
            QCOMPARE(ini.value("appearance/theme").toString(), QStringLiteral("dark"));
            QCOMPARE(ini.value("run/memoryLimitMb").toLongLong(), qint64(2048));
        }
        // Chosen before the dialog opens, then OK with nothing changed.
        choose(QStringLiteral("light"));
        QCOMPARE(rebuilt.count(), 1); // the dialog's OK only: colours rebuild no provider
        QCOMPARE(m_workspace->storedSettings().theme, QStringLiteral("light"));
        withSettingsDialog([](SettingsDialog& dialog) { dialog.accept(); });
        QCOMPARE(m_workspace->storedSettings().theme, QStringLiteral("light"));
        QCOMPARE(QSettings(iniPath(), QSettings::IniFormat).value("appearance/theme").toString(), QStringLiteral("light"));
        Theme::apply(QStringLiteral("system"));
    }

    // Validate checks the form as it is, not the saved settings.
    void validateChecksTheForm()
    {
        AppSettings stored;
        stored.provider = QStringLiteral("none");
        openSession(stored);
        QString report;
        withSettingsDialog([&report](SettingsDialog& dialog) {
            dialog.setSelectedProvider(QStringLiteral("command"));
            qobject_cast<QLineEdit*>(dialog.field("command/path"))->setText(QStringLiteral("/nonexistent/sandpad-provider"));
            QSignalSpy finished(&dialog, &SettingsDialog::validationFinished);
            dialog.validate();
            QVERIFY(finished.wait(60000));
            for (int i = 0; i < dialog.validationList()->count(); ++i)
                report += dialog.validationList()->item(i)->text() + u'\n';
        });
        // The saved provider is "none" ("no provider selected"); the form's is the command one.
        QVERIFY2(report.contains(QStringLiteral("/nonexistent/sandpad-provider")), qPrintable(report));
    }
};

QTEST_MAIN(TestSettingsFlow)
#include "test_settings_flow.moc"
