// SettingsDialog edits AppSettings, keeps secrets out of it, validates off the GUI thread and
// shows the report item by item, and shows environment overrides.
#include "ui/settings/SettingsDialog.h"

#include "core/providers/ProviderRegistry.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSemaphore>
#include <QSpinBox>
#include <QThread>
#include <QtTest>
#include <atomic>

using namespace sandpad;

class TestSettingsDialog : public QObject {
    Q_OBJECT
private slots:
    void roundTripsSettings()
    {
        SettingsDialog d;
        d.setEnvironment(QProcessEnvironment());
        AppSettings s;
        s.provider = "vercel";
        s.deadlineSeconds = 120;
        s.memoryLimitMb = 2048;
        s.allowNetwork = true;
        s.setProviderValue("vercel", "teamId", "team_1");
        s.setProviderValue("vercel", "projectId", "prj_2");
        s.setProviderValue("daytona", "apiUrl", "https://daytona.example/api");
        s.pipIndexUrl = "https://mirror.example/simple";
        s.setProviderValue("command", "path", "/opt/provider");
        s.theme = "dark"; // not shown by the dialog: kept
        s.poolSize = 2;
        d.setSettings(s);
        QCOMPARE(qobject_cast<QSpinBox*>(d.field("poolSize"))->value(), 2);
        qobject_cast<QSpinBox*>(d.field("poolSize"))->setValue(0); // 0 turns the pool off
        QCOMPARE(d.selectedProvider(), QStringLiteral("vercel"));
        auto* teamId = qobject_cast<QLineEdit*>(d.field("vercel/teamId"));
        QVERIFY(teamId);
        QCOMPARE(teamId->text(), QStringLiteral("team_1"));
        teamId->setText("team_9");
        qobject_cast<QSpinBox*>(d.field("deadline"))->setValue(999); // clamped to 300
        const AppSettings out = d.settings();
        QCOMPARE(out.providerValue("vercel", "teamId"), QStringLiteral("team_9"));
        QCOMPARE(out.deadlineSeconds, 300);
        QCOMPARE(out.memoryLimitMb, qint64(2048));
        QVERIFY(out.allowNetwork);
        QCOMPARE(out.providerValue("daytona", "apiUrl"), QStringLiteral("https://daytona.example/api"));
        QCOMPARE(out.pipIndexUrl, QStringLiteral("https://mirror.example/simple"));
        QCOMPARE(out.providerValue("command", "path"), QStringLiteral("/opt/provider"));
        QCOMPARE(out.theme, QStringLiteral("dark"));
        QCOMPARE(out.poolSize, 0);
        d.setSelectedProvider("daytona");
        QCOMPARE(d.settings().provider, QStringLiteral("daytona"));
    }

    void secretsGoToTheSaverOnly()
    {
        SettingsDialog d;
        d.setEnvironment(QProcessEnvironment());
        QHash<QString, QString> saved;
        d.setSecretSaver([&](const QString& k, const QString& v) {
            saved.insert(k, v);
            return QString();
        });
        d.setStoredSecrets({"DAYTONA_API_KEY"});
        auto* token = qobject_cast<QLineEdit*>(d.field("vercel/token"));
        QVERIFY(token);
        QCOMPARE(token->echoMode(), QLineEdit::Password);
        QVERIFY(qobject_cast<QLineEdit*>(d.field("daytona/apiKey"))->placeholderText().contains("keychain"));
        token->setText("secret-token-value");
        d.accept();
        QCOMPARE(saved.size(), 1);
        QCOMPARE(saved.value("VERCEL_TOKEN"), QStringLiteral("secret-token-value"));
        // No AppSettings field carries the token.
        const AppSettings s = d.settings();
        QVERIFY(!s.providerValues.isEmpty());
        for (const QString& v : s.providerValues)
            QVERIFY(!v.contains("secret-token-value"));
        for (const QString& v : {s.pipIndexUrl, s.pipWheelDir})
            QVERIFY(!v.contains("secret-token-value"));
    }

    void environmentOverridesAreHints()
    {
        SettingsDialog d;
        QProcessEnvironment env;
        env.insert("VERCEL_TEAM_ID", "team_env");
        env.insert("DAYTONA_API_KEY", "dtn_secret");
        env.insert("SANDPAD_PROVIDER", "local");
        d.setEnvironment(env);
        QVERIFY(d.envHint("vercel/teamId").contains("team_env"));
        QVERIFY(d.envHint("daytona/apiKey").contains("DAYTONA_API_KEY"));
        QVERIFY(!d.envHint("daytona/apiKey").contains("dtn_secret")); // a secret is never displayed
        QVERIFY(d.envHint("vercel/projectId").isEmpty());
        QVERIFY(d.envHint("provider").contains("local"));
    }

    void validatesOffTheGuiThread()
    {
        SettingsDialog d;
        d.setEnvironment(QProcessEnvironment());
        d.setSelectedProvider("local");
        std::atomic<QThread*> ranOn{nullptr};
        // The check waits for the test to let it go: validate() must have returned before it ends
        // (a check on the GUI thread would hang here until the gate's timeout and fail below).
        QSemaphore gate;
        d.setValidator([&ranOn, &gate](const AppSettings& form, const QHash<QString, QString>&) {
            ranOn = QThread::currentThread();
            gate.tryAcquire(1, 10000);
            ValidationReport r;
            r.provider = form.provider;
            r.items = {{"bubblewrap", ValidationItem::Level::Ok, "bwrap 0.8.0"},
                       {"package yfinance", ValidationItem::Level::Warning, "missing"},
                       {"node", ValidationItem::Level::Error, "not found"}};
            return r;
        });
        QSignalSpy requested(&d, &SettingsDialog::validationRequested);
        QSignalSpy finished(&d, &SettingsDialog::validationFinished);
        d.validate();
        QVERIFY(d.isValidating()); // returned while the check is still held at the gate
        gate.release();
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toString(), QStringLiteral("local"));
        QVERIFY(finished.wait(5000));
        QVERIFY(ranOn.load() != nullptr && ranOn.load() != QThread::currentThread());
        QVERIFY(!d.isValidating());
        QListWidget* list = d.validationList();
        QCOMPARE(list->count(), 3);
        QCOMPARE(list->item(0)->data(Qt::UserRole).toInt(), int(ValidationItem::Level::Ok));
        QCOMPARE(list->item(1)->data(Qt::UserRole).toInt(), int(ValidationItem::Level::Warning));
        QCOMPARE(list->item(2)->data(Qt::UserRole).toInt(), int(ValidationItem::Level::Error));
        QVERIFY(list->item(2)->text().contains("not found"));
        QVERIFY(!list->item(0)->icon().isNull());
    }

    // Validate checks what the form holds at the click, saved or not, typed secrets included.
    void validatesTheFormsValues()
    {
        SettingsDialog d;
        d.setEnvironment(QProcessEnvironment());
        AppSettings s;
        s.provider = "local";
        s.setProviderValue("vercel", "teamId", "team_saved");
        d.setSettings(s);
        d.setSelectedProvider("vercel");
        qobject_cast<QLineEdit*>(d.field("vercel/teamId"))->setText("team_form");
        qobject_cast<QLineEdit*>(d.field("vercel/token"))->setText("tok_typed");
        qobject_cast<QSpinBox*>(d.field("deadline"))->setValue(42);
        AppSettings seen;
        QHash<QString, QString> seenSecrets;
        d.setValidator([&](const AppSettings& form, const QHash<QString, QString>& secrets) {
            seen = form;
            seenSecrets = secrets;
            return ValidationReport{form.provider, {}};
        });
        QSignalSpy finished(&d, &SettingsDialog::validationFinished);
        d.validate();
        QVERIFY(finished.wait(5000));
        QCOMPARE(seen.provider, QStringLiteral("vercel"));
        QCOMPARE(seen.providerValue("vercel", "teamId"), QStringLiteral("team_form"));
        QCOMPARE(seen.deadlineSeconds, 42);
        QCOMPARE(seenSecrets.value("VERCEL_TOKEN"), QStringLiteral("tok_typed"));
    }

    // A secret the keychain refuses is an error the user sees, naming the environment variable,
    // with the dialog open and the typed value kept (it used to be dropped without a word).
    void aSecretThatCannotBeStoredKeepsTheDialogOpen()
    {
        SettingsDialog d;
        d.setEnvironment(QProcessEnvironment());
        d.setSecretSaver([](const QString&, const QString&) {
            return QStringLiteral("no OS keychain is available (no D-Bus session); use environment variables instead");
        });
        d.setSelectedProvider("daytona");
        auto* key = qobject_cast<QLineEdit*>(d.field("daytona/apiKey"));
        key->setText("dtn_typed");
        d.show();
        QSignalSpy accepted(&d, &QDialog::accepted);
        d.accept();
        QCOMPARE(accepted.count(), 0);
        QVERIFY(d.isVisible());
        QCOMPARE(key->text(), QStringLiteral("dtn_typed"));
        QVERIFY2(d.secretError().contains("DAYTONA_API_KEY"), qPrintable(d.secretError()));
        QVERIFY(d.secretError().contains("environment"));
        QVERIFY(d.secretError().contains("keychain"));
        // Clearing the field lets the other settings be saved.
        key->clear();
        d.accept();
        QCOMPARE(accepted.count(), 1);
        QVERIFY(d.secretError().isEmpty());
    }

    // The provider list is the registry's, the command provider with its executable included.
    void listsEveryProvider()
    {
        SettingsDialog d;
        d.setEnvironment(QProcessEnvironment());
        auto* combo = qobject_cast<QComboBox*>(d.field("provider"));
        QStringList listed;
        for (int i = 0; i < combo->count(); ++i)
            listed << combo->itemData(i).toString();
        QCOMPARE(listed, ProviderRegistry::names());
        AppSettings s;
        s.provider = "command";
        s.setProviderValue("command", "path", "/opt/provider");
        d.setSettings(s);
        QCOMPARE(combo->count(), int(ProviderRegistry::names().size())); // not added as unknown
        auto* path = qobject_cast<QLineEdit*>(d.field("command/path"));
        QVERIFY(path);
        QCOMPARE(path->text(), QStringLiteral("/opt/provider"));
        path->setText("/opt/other");
        QCOMPARE(d.settings().providerValue("command", "path"), QStringLiteral("/opt/other"));
        QCOMPARE(d.settings().provider, QStringLiteral("command"));
        // Its page says what it needs (issue 16).
        auto* help = d.findChild<QLabel*>(QStringLiteral("commandProviderHelp"));
        QVERIFY(help);
        QVERIFY(help->text().contains(QStringLiteral("JSON-lines protocol")));
    }

    void creditsTopUp()
    {
        SettingsDialog d;
        qint64 balance = 100000;
        d.setTopUpHandler([&](qint64 micros) { balance += micros; return balance; });
        d.setCredits(true, balance);
        QVERIFY(d.creditsEnabled());
        qobject_cast<QDoubleSpinBox*>(d.field("topUpAmount"))->setValue(2.5);
        QSignalSpy changed(&d, &SettingsDialog::balanceChanged);
        QVERIFY(d.field("topUp")->isEnabled());
        QTest::mouseClick(qobject_cast<QPushButton*>(d.field("topUp")), Qt::LeftButton);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(balance, qint64(2600000));
        QCOMPARE(d.balanceMicros(), qint64(2600000));
        qobject_cast<QCheckBox*>(d.field("credits"))->setChecked(false);
        QVERIFY(!d.creditsEnabled());
        QVERIFY(!d.field("topUp")->isEnabled());
    }
};

QTEST_MAIN(TestSettingsDialog)
#include "test_settings_dialog.moc"
