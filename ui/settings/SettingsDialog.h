#pragma once

#include "core/sandbox/ValidationReport.h"
#include "core/settings/AppSettings.h"

#include <QDialog>
#include <QHash>
#include <QProcessEnvironment>
#include <QSet>
#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTabWidget;

namespace sandpad {

struct ProviderDescriptor;

// Edits AppSettings (the provider and its fields, a page per ProviderDescriptor; deadline, memory,
// network, pip, credits). Secrets (tokens, API keys) never enter AppSettings: the dialog hands
// what the user typed to a secret saver (the OS keychain) on accept; one that cannot be stored
// keeps the dialog open with the error. Environment variables that override a field are shown as
// hints (the dialog edits the stored settings, never the overrides).
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    // Runs on a worker thread: it must not touch widgets. Gets the form's values at the time of the
    // click (settings(), saved or not) and the secrets typed or cleared there (changedSecrets()).
    using Validator = std::function<ValidationReport(const AppSettings& form, const QHash<QString, QString>& secrets)>;
    // Stores one secret; key is the environment variable's name, e.g. "VERCEL_TOKEN". An empty
    // value means "forget the stored secret". Returns why it could not, empty when it did.
    using SecretSaver = std::function<QString(const QString& key, const QString& value)>;
    // Adds credits (micro-dollars); returns the new balance.
    using TopUpHandler = std::function<qint64(qint64 micros)>;

    static const QStringList& secretKeys(); // every provider's, from ProviderRegistry::secretVariables

    explicit SettingsDialog(QWidget* parent = nullptr);
    ~SettingsDialog() override;

    void setSettings(const AppSettings& settings);
    AppSettings settings() const;          // the edited values; fields the dialog does not show are kept
    // Writes the fields the dialog shows into `settings`, leaving the others (the theme) as they
    // are there: OK applies the form to the settings as they are by then, not as they were when
    // the dialog opened.
    void applyTo(AppSettings& settings) const;

    void setValidator(Validator validator);
    void setSecretSaver(SecretSaver saver);
    void setStoredSecrets(const QSet<QString>& keys);   // shows "stored in the keychain" placeholders
    QHash<QString, QString> changedSecrets() const;     // typed or cleared by the user
    void setEnvironment(const QProcessEnvironment& environment); // default: the process environment

    void setCredits(bool enabled, qint64 balanceMicros);
    bool creditsEnabled() const;
    qint64 balanceMicros() const { return m_balanceMicros; }
    void setTopUpHandler(TopUpHandler handler);

    QString selectedProvider() const;
    void setSelectedProvider(const QString& provider);
    bool isValidating() const { return m_validating; }
    QListWidget* validationList() const { return m_report; }
    QString envHint(const QString& field) const;  // the override hint shown for a field, if any
    QString secretError() const;                  // shown when OK could not store a secret
    // e.g. "deadline", or a provider's field as "<provider>/<key>": "vercel/token" (tests, focus)
    QWidget* field(const QString& name) const;

public slots:
    void validate();
    void accept() override;

signals:
    // Emitted on the GUI thread just before the validator starts (it gets the form's values).
    void validationRequested(const QString& provider);
    void validationFinished(const sandpad::ValidationReport& report);
    void balanceChanged(qint64 balanceMicros);

private:
    QWidget* buildProviderPage();
    QWidget* buildProviderFields(const ProviderDescriptor& provider);
    QWidget* buildExecutionPage();
    QWidget* buildCreditsPage();
    QLineEdit* addLine(QFormLayout* form, const QString& name, const QString& label, const QString& envVar,
                       bool secret = false, bool browse = false, bool directory = false);
    void showReport(const ValidationReport& report);
    void updateEnvHints();
    void updateBalance();
    void topUp();

    struct FieldInfo {
        QLineEdit* edit = nullptr;
        QLabel* hint = nullptr;
        QString envVar;
        bool secret = false;
    };
    QHash<QString, FieldInfo> m_lines;
    QHash<QString, QString> m_clearedSecrets;
    AppSettings m_settings;
    QProcessEnvironment m_env = QProcessEnvironment::systemEnvironment();
    Validator m_validator;
    SecretSaver m_secretSaver;
    TopUpHandler m_topUp;
    QSet<QString> m_storedSecrets;
    qint64 m_balanceMicros = 0;
    bool m_validating = false;

    QTabWidget* m_tabs = nullptr;
    QLabel* m_secretError = nullptr;
    QComboBox* m_provider = nullptr;
    QLabel* m_providerHint = nullptr;
    QStackedWidget* m_providerPages = nullptr;
    QPushButton* m_validateButton = nullptr;
    QProgressBar* m_busy = nullptr;
    QListWidget* m_report = nullptr;
    QLabel* m_reportSummary = nullptr;
    QSpinBox* m_deadline = nullptr;
    QSpinBox* m_memory = nullptr;
    QSpinBox* m_poolSize = nullptr;
    QSpinBox* m_poolBurstMax = nullptr;
    QSpinBox* m_sessionIdle = nullptr;
    QCheckBox* m_network = nullptr;
    QCheckBox* m_credits = nullptr;
    QLabel* m_balance = nullptr;
    QDoubleSpinBox* m_topUpAmount = nullptr;
    QPushButton* m_topUpButton = nullptr;
};

} // namespace sandpad
