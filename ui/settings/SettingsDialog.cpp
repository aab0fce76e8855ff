#include "ui/settings/SettingsDialog.h"

#include "core/accounting/Money.h"
#include "core/providers/ProviderRegistry.h"
#include "core/sandbox/Deadline.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>
#include <memory>

namespace sandpad {

const QStringList& SettingsDialog::secretKeys()
{
    static const QStringList keys = [] {
        QStringList all;
        for (const QString& provider : ProviderRegistry::names())
            all += ProviderRegistry::secretVariables(provider);
        return all;
    }();
    return keys;
}

SettingsDialog::SettingsDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Settings"));
    setAccessibleName(tr("Settings"));
    auto* layout = new QVBoxLayout(this);
    auto* tabs = new QTabWidget(this);
    tabs->addTab(buildProviderPage(), tr("&Provider"));
    tabs->addTab(buildExecutionPage(), tr("&Execution"));
    tabs->addTab(buildCreditsPage(), tr("&Credits"));
    layout->addWidget(tabs, 1);
    m_tabs = tabs;
    m_secretError = new QLabel(this);
    m_secretError->setObjectName(QStringLiteral("secretError"));
    m_secretError->setAccessibleName(tr("Secrets not stored"));
    m_secretError->setWordWrap(true);
    m_secretError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_secretError->hide();
    layout->addWidget(m_secretError);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    setSettings(AppSettings());
    resize(560, 520);
}

SettingsDialog::~SettingsDialog() = default;

QLineEdit* SettingsDialog::addLine(QFormLayout* form, const QString& name, const QString& label, const QString& envVar,
                                   bool secret, bool browse, bool directory)
{
    auto* edit = new QLineEdit;
    edit->setAccessibleName(QString(label).remove(QLatin1Char('&')).remove(QLatin1Char(':')));
    edit->setClearButtonEnabled(!secret);
    if (secret)
        edit->setEchoMode(QLineEdit::Password);
    QWidget* fieldWidget = edit;
    if (browse) {
        auto* row = new QWidget;
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(edit, 1);
        auto* button = new QToolButton(row);
        button->setText(tr("Browse…"));
        button->setAccessibleName(tr("Browse for %1").arg(edit->accessibleName()));
        connect(button, &QToolButton::clicked, this, [this, edit, directory] {
            const QString path = directory ? QFileDialog::getExistingDirectory(this, tr("Choose a folder"), edit->text())
                                           : QFileDialog::getOpenFileName(this, tr("Choose a program"), edit->text());
            if (!path.isEmpty())
                edit->setText(path);
        });
        h->addWidget(button);
        fieldWidget = row;
    }
    if (secret) {
        auto* row = new QWidget;
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(edit, 1);
        auto* forget = new QToolButton(row);
        forget->setText(tr("Forget"));
        forget->setToolTip(tr("Remove the stored secret from the keychain"));
        forget->setAccessibleName(tr("Forget %1").arg(edit->accessibleName()));
        connect(forget, &QToolButton::clicked, this, [this, edit, envVar] {
            edit->clear();
            m_storedSecrets.remove(envVar);
            m_clearedSecrets.insert(envVar, QString());
            edit->setPlaceholderText(tr("not set"));
        });
        h->addWidget(forget);
        fieldWidget = row;
        connect(edit, &QLineEdit::textEdited, this, [this, envVar] { m_clearedSecrets.remove(envVar); });
    }
    form->addRow(label, fieldWidget);
    if (auto* l = qobject_cast<QLabel*>(form->labelForField(fieldWidget)))
        l->setBuddy(edit);
    auto* hint = new QLabel;
    hint->setWordWrap(true);
    hint->setEnabled(false); // greyed: informative, not editable
    hint->hide();
    form->addRow(QString(), hint);
    m_lines.insert(name, FieldInfo{edit, hint, envVar, secret});
    return edit;
}

QWidget* SettingsDialog::buildProviderPage()
{
    auto* page = new QWidget;
    auto* v = new QVBoxLayout(page);
    auto* top = new QFormLayout;
    m_provider = new QComboBox(page);
    m_provider->setAccessibleName(tr("Provider"));
    for (const QString& name : ProviderRegistry::names())
        m_provider->addItem(ProviderRegistry::displayName(name), name);
    top->addRow(tr("P&rovider:"), m_provider);
    m_providerHint = new QLabel(page);
    m_providerHint->setEnabled(false);
    m_providerHint->hide();
    top->addRow(QString(), m_providerHint);
    v->addLayout(top);

    // One page per provider, in the combo box's (the registry's) order.
    m_providerPages = new QStackedWidget(page);
    for (const ProviderDescriptor& descriptor : ProviderRegistry::descriptors())
        m_providerPages->addWidget(buildProviderFields(descriptor));
    v->addWidget(m_providerPages);
    connect(m_provider, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_providerPages->setCurrentIndex(std::clamp(index, 0, int(m_providerPages->count()) - 1));
        m_report->clear();
        m_reportSummary->clear();
    });

    auto* validateRow = new QHBoxLayout;
    m_validateButton = new QPushButton(tr("&Validate"), page);
    m_validateButton->setToolTip(tr("Check credentials, reachability, runtimes and base packages"));
    connect(m_validateButton, &QPushButton::clicked, this, &SettingsDialog::validate);
    validateRow->addWidget(m_validateButton);
    m_busy = new QProgressBar(page);
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(120);
    m_busy->hide();
    validateRow->addWidget(m_busy);
    m_reportSummary = new QLabel(page);
    validateRow->addWidget(m_reportSummary, 1);
    v->addLayout(validateRow);
    m_report = new QListWidget(page);
    m_report->setAccessibleName(tr("Validation report"));
    m_report->setWordWrap(true);
    v->addWidget(m_report, 1);
    return page;
}

QWidget* SettingsDialog::buildProviderFields(const ProviderDescriptor& provider)
{
    if (provider.fields.isEmpty()) { // "none": its help is its page
        auto* page = new QLabel(provider.help);
        page->setObjectName(provider.name + QStringLiteral("ProviderHelp"));
        page->setWordWrap(true);
        page->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        return page;
    }
    auto* box = new QGroupBox(provider.displayName);
    auto* form = new QFormLayout(box);
    for (const ProviderField& f : provider.fields) {
        // A new ProviderField::Kind gets its control here; Text and Url are a line, Program adds Browse….
        addLine(form, provider.settingsKey(f.key), f.label, f.environmentVariable, f.secret,
                f.kind == ProviderField::Kind::Program)
            ->setPlaceholderText(f.placeholder);
    }
    if (!provider.help.isEmpty()) {
        auto* help = new QLabel(provider.help, box);
        help->setObjectName(provider.name + QStringLiteral("ProviderHelp"));
        help->setWordWrap(true);
        help->setEnabled(false); // greyed: informative
        form->addRow(QString(), help);
    }
    for (const ProviderField& f : provider.fields) {
        const QString suggested = f.suggestion ? f.suggestion() : QString();
        if (suggested.isEmpty())
            continue;
        QLineEdit* edit = m_lines.value(provider.settingsKey(f.key)).edit;
        auto* use = new QPushButton(f.suggestionLabel, box);
        use->setObjectName(provider.settingsKey(f.key) + QStringLiteral(":suggestion"));
        use->setToolTip(suggested);
        connect(use, &QPushButton::clicked, edit, [edit, suggested] { edit->setText(suggested); });
        form->addRow(QString(), use);
    }
    return box;
}

QWidget* SettingsDialog::buildExecutionPage()
{
    auto* page = new QWidget;
    auto* form = new QFormLayout(page);
    m_deadline = new QSpinBox(page);
    m_deadline->setRange(1, Deadline::kMaxSeconds);
    m_deadline->setSuffix(tr(" s"));
    m_deadline->setAccessibleName(tr("Deadline"));
    m_deadline->setToolTip(tr("A run is stopped after this long (at most %1 seconds).").arg(Deadline::kMaxSeconds));
    form->addRow(tr("&Deadline:"), m_deadline);
    m_memory = new QSpinBox(page);
    m_memory->setRange(128, 65536); // AppSettings::sanitize's range
    m_memory->setSingleStep(256);
    m_memory->setSuffix(tr(" MB"));
    m_memory->setAccessibleName(tr("Memory limit"));
    form->addRow(tr("&Memory limit:"), m_memory);
    m_network = new QCheckBox(tr("Allow &network access from the sandbox"), page);
    form->addRow(QString(), m_network);
    m_poolSize = new QSpinBox(page);
    m_poolSize->setRange(0, 8);
    m_poolSize->setSpecialValueText(tr("off (every run starts cold)"));
    m_poolSize->setAccessibleName(tr("Pre-started sandboxes per language"));
    m_poolSize->setToolTip(tr("Local sandbox only: fresh sandboxes started ahead with Python's base packages "
                              "imported, each used for exactly one run. Makes runs start much faster."));
    form->addRow(tr("&Pre-started sandboxes:"), m_poolSize);
    m_poolBurstMax = new QSpinBox(page);
    m_poolBurstMax->setRange(0, 16);
    m_poolBurstMax->setAccessibleName(tr("Pre-started sandboxes during bursts of runs"));
    m_poolBurstMax->setToolTip(tr("When runs come faster than the pre-started sandboxes are replaced (Run All, "
                                  "Shift+Enter through cells), keep up to this many ready per language; back "
                                  "to the number above after 30 s without runs. Each holds about 100 MB."));
    form->addRow(tr("…during &bursts, up to:"), m_poolBurstMax);
    m_sessionIdle = new QSpinBox(page);
    m_sessionIdle->setRange(1, 24 * 60); // AppSettings::sanitize's range
    m_sessionIdle->setSuffix(tr(" min"));
    m_sessionIdle->setAccessibleName(tr("Session idle limit"));
    m_sessionIdle->setToolTip(tr("A tab's notebook session that runs nothing for this long ends, with its sandbox "
                                 "and its variables; the next cell starts a fresh one."));
    form->addRow(tr("End idle &sessions after:"), m_sessionIdle);
    connect(m_poolSize, &QSpinBox::valueChanged, m_poolBurstMax, [this](int size) {
        m_poolBurstMax->setMinimum(size);
    });
    addLine(form, QStringLiteral("pipWheelDir"), tr("Pip &wheel folder:"), {}, false, true, true)
        ->setPlaceholderText(tr("none: packages come from the index"));
    addLine(form, QStringLiteral("pipIndexUrl"), tr("Pip &index URL:"), {})
        ->setPlaceholderText(QStringLiteral("https://pypi.org/simple"));
    return page;
}

QWidget* SettingsDialog::buildCreditsPage()
{
    auto* page = new QWidget;
    auto* form = new QFormLayout(page);
    m_credits = new QCheckBox(tr("Use a credits &account (each completed run is debited)"), page);
    form->addRow(m_credits);
    m_balance = new QLabel(page);
    m_balance->setAccessibleName(tr("Credits balance"));
    m_balance->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Balance:"), m_balance);
    auto* row = new QWidget(page);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    m_topUpAmount = new QDoubleSpinBox(row);
    m_topUpAmount->setPrefix(QStringLiteral("$"));
    m_topUpAmount->setDecimals(2);
    m_topUpAmount->setRange(0.05, 100000);
    m_topUpAmount->setValue(5.00);
    m_topUpAmount->setAccessibleName(tr("Top-up amount"));
    h->addWidget(m_topUpAmount);
    m_topUpButton = new QPushButton(tr("&Top up"), row);
    connect(m_topUpButton, &QPushButton::clicked, this, &SettingsDialog::topUp);
    h->addWidget(m_topUpButton);
    h->addStretch(1);
    form->addRow(tr("Add credits:"), row);
    connect(m_credits, &QCheckBox::toggled, this, &SettingsDialog::updateBalance);
    updateBalance();
    return page;
}

void SettingsDialog::setSettings(const AppSettings& s)
{
    m_settings = s;
    setSelectedProvider(s.provider);
    for (const ProviderDescriptor& d : ProviderRegistry::descriptors())
        for (const ProviderField& f : d.fields)
            if (!f.secret)
                m_lines[d.settingsKey(f.key)].edit->setText(s.providerValue(d.name, f.key));
    m_lines[QStringLiteral("pipWheelDir")].edit->setText(s.pipWheelDir);
    m_lines[QStringLiteral("pipIndexUrl")].edit->setText(s.pipIndexUrl);
    m_deadline->setValue(Deadline::clampSeconds(s.deadlineSeconds));
    m_memory->setValue(int(std::clamp<qint64>(s.memoryLimitMb, m_memory->minimum(), m_memory->maximum())));
    m_network->setChecked(s.allowNetwork);
    m_poolSize->setValue(std::clamp(s.poolSize, 0, 8));
    m_poolBurstMax->setValue(std::clamp(s.poolBurstMax, s.poolSize, 16));
    m_sessionIdle->setValue(std::clamp(s.sessionIdleMinutes, 1, 24 * 60));
    updateEnvHints();
}

AppSettings SettingsDialog::settings() const
{
    AppSettings s = m_settings;
    applyTo(s);
    return s;
}

void SettingsDialog::applyTo(AppSettings& s) const
{
    auto text = [this](const QString& name) { return m_lines.value(name).edit->text().trimmed(); };
    s.provider = selectedProvider();
    for (const ProviderDescriptor& d : ProviderRegistry::descriptors())
        for (const ProviderField& f : d.fields)
            if (!f.secret)
                s.setProviderValue(d.name, f.key, text(d.settingsKey(f.key)));
    s.pipWheelDir = text(QStringLiteral("pipWheelDir"));
    s.pipIndexUrl = text(QStringLiteral("pipIndexUrl"));
    s.deadlineSeconds = m_deadline->value();
    s.memoryLimitMb = m_memory->value();
    s.allowNetwork = m_network->isChecked();
    s.poolSize = m_poolSize->value();
    s.poolBurstMax = m_poolBurstMax->value();
    s.sessionIdleMinutes = m_sessionIdle->value();
}

QString SettingsDialog::selectedProvider() const
{
    return m_provider->currentData().toString();
}

void SettingsDialog::setSelectedProvider(const QString& provider)
{
    int index = m_provider->findData(provider);
    if (index < 0 && !provider.isEmpty()) {
        // A provider this dialog has no page for (a newer version's): keep it selectable as is.
        m_provider->addItem(provider, provider);
        index = m_provider->count() - 1;
    }
    m_provider->setCurrentIndex(std::max(0, index));
}

void SettingsDialog::setValidator(Validator validator)
{
    m_validator = std::move(validator);
}

void SettingsDialog::setSecretSaver(SecretSaver saver)
{
    m_secretSaver = std::move(saver);
}

void SettingsDialog::setStoredSecrets(const QSet<QString>& keys)
{
    m_storedSecrets = keys;
    for (auto it = m_lines.begin(); it != m_lines.end(); ++it) {
        if (it->secret)
            it->edit->setPlaceholderText(keys.contains(it->envVar) ? tr("stored in the keychain (type to replace)")
                                                                   : tr("not set"));
    }
}

QHash<QString, QString> SettingsDialog::changedSecrets() const
{
    QHash<QString, QString> out = m_clearedSecrets;
    for (const FieldInfo& f : m_lines) {
        if (f.secret && !f.edit->text().isEmpty())
            out.insert(f.envVar, f.edit->text());
    }
    return out;
}

void SettingsDialog::setEnvironment(const QProcessEnvironment& environment)
{
    m_env = environment;
    updateEnvHints();
}

void SettingsDialog::updateEnvHints()
{
    for (FieldInfo& f : m_lines) {
        if (f.envVar.isEmpty() || !m_env.contains(f.envVar) || m_env.value(f.envVar).isEmpty()) {
            f.hint->clear();
            f.hint->hide();
            continue;
        }
        f.hint->setText(f.secret ? tr("Overridden by $%1 from the environment.").arg(f.envVar)
                                 : tr("Overridden by $%1 = %2").arg(f.envVar, m_env.value(f.envVar)));
        f.hint->show();
    }
    const QString envProvider = m_env.value(QStringLiteral("SANDPAD_PROVIDER"));
    m_providerHint->setText(tr("Overridden by $SANDPAD_PROVIDER = %1").arg(envProvider));
    m_providerHint->setVisible(!envProvider.isEmpty());
}

QString SettingsDialog::envHint(const QString& field) const
{
    if (field == QLatin1String("provider"))
        return m_providerHint->isVisibleTo(this) ? m_providerHint->text() : QString();
    const auto it = m_lines.constFind(field);
    return it == m_lines.cend() || it->hint->isHidden() ? QString() : it->hint->text();
}

QWidget* SettingsDialog::field(const QString& name) const
{
    if (name == QLatin1String("provider")) return m_provider;
    if (name == QLatin1String("deadline")) return m_deadline;
    if (name == QLatin1String("memory")) return m_memory;
    if (name == QLatin1String("network")) return m_network;
    if (name == QLatin1String("poolSize")) return m_poolSize;
    if (name == QLatin1String("poolBurstMax")) return m_poolBurstMax;
    if (name == QLatin1String("sessionIdle")) return m_sessionIdle;
    if (name == QLatin1String("credits")) return m_credits;
    if (name == QLatin1String("validate")) return m_validateButton;
    if (name == QLatin1String("topUpAmount")) return m_topUpAmount;
    if (name == QLatin1String("topUp")) return m_topUpButton;
    const auto it = m_lines.constFind(name);
    return it == m_lines.cend() ? nullptr : it->edit;
}

void SettingsDialog::validate()
{
    if (m_validating)
        return;
    m_report->clear();
    const QString provider = selectedProvider();
    if (!m_validator) {
        m_reportSummary->setText(tr("Validation is not available here."));
        return;
    }
    emit validationRequested(provider);
    // What the form holds now, saved or not: that is what the user asks to check.
    const AppSettings form = settings();
    const QHash<QString, QString> secrets = changedSecrets();
    m_validating = true;
    m_validateButton->setEnabled(false);
    m_busy->show();
    m_reportSummary->setText(tr("Validating %1…").arg(m_provider->currentText()));

    // Validation may talk to the network for seconds: run it on its own thread, hand the report
    // back through a queued signal (dropped if the dialog is gone by then).
    auto result = std::make_shared<ValidationReport>();
    Validator validator = m_validator;
    QThread* thread = QThread::create([validator, provider, form, secrets, result] {
        try {
            *result = validator(form, secrets);
        } catch (const std::exception& e) {
            result->provider = provider;
            result->items = {ValidationItem{QStringLiteral("validation"), ValidationItem::Level::Error,
                                            QString::fromUtf8(e.what())}};
        }
    });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    connect(thread, &QThread::finished, this, [this, result] {
        m_validating = false;
        m_validateButton->setEnabled(true);
        m_busy->hide();
        showReport(*result);
        emit validationFinished(*result);
    });
    thread->start();
}

void SettingsDialog::showReport(const ValidationReport& report)
{
    m_report->clear();
    int warnings = 0, errors = 0;
    for (const ValidationItem& item : report.items) {
        QIcon icon;
        QString level;
        switch (item.level) {
        case ValidationItem::Level::Ok:
            icon = style()->standardIcon(QStyle::SP_DialogApplyButton);
            level = tr("ok");
            break;
        case ValidationItem::Level::Warning:
            icon = style()->standardIcon(QStyle::SP_MessageBoxWarning);
            level = tr("warning");
            ++warnings;
            break;
        case ValidationItem::Level::Error:
            icon = style()->standardIcon(QStyle::SP_MessageBoxCritical);
            level = tr("failed");
            ++errors;
            break;
        }
        auto* row = new QListWidgetItem(icon, item.detail.isEmpty() ? item.name
                                                                    : QStringLiteral("%1 — %2").arg(item.name, item.detail),
                                        m_report);
        row->setData(Qt::UserRole, int(item.level));
        row->setData(Qt::AccessibleTextRole, QStringLiteral("%1: %2 %3").arg(level, item.name, item.detail));
    }
    if (report.items.isEmpty())
        m_reportSummary->setText(tr("No findings."));
    else if (errors)
        m_reportSummary->setText(tr("Not usable: %n problem(s)", nullptr, errors));
    else if (warnings)
        m_reportSummary->setText(tr("Usable, with %n warning(s)", nullptr, warnings));
    else
        m_reportSummary->setText(tr("All checks passed"));
}

void SettingsDialog::setCredits(bool enabled, qint64 balanceMicros)
{
    m_credits->setChecked(enabled);
    m_balanceMicros = balanceMicros;
    updateBalance();
}

bool SettingsDialog::creditsEnabled() const
{
    return m_credits->isChecked();
}

void SettingsDialog::setTopUpHandler(TopUpHandler handler)
{
    m_topUp = std::move(handler);
    updateBalance();
}

void SettingsDialog::updateBalance()
{
    m_balance->setText(formatMoney(m_balanceMicros));
    const bool on = m_credits->isChecked();
    m_balance->setEnabled(on);
    m_topUpAmount->setEnabled(on && m_topUp != nullptr);
    m_topUpButton->setEnabled(on && m_topUp != nullptr);
}

void SettingsDialog::topUp()
{
    if (!m_topUp)
        return;
    const qint64 micros = qRound64(m_topUpAmount->value() * 100) * 10000; // whole cents
    m_balanceMicros = m_topUp(micros);
    updateBalance();
    emit balanceChanged(m_balanceMicros);
}

void SettingsDialog::accept()
{
    QStringList failures;
    QStringList variables;
    QLineEdit* firstFailed = nullptr;
    if (m_secretSaver) {
        const QHash<QString, QString> secrets = changedSecrets();
        for (auto it = secrets.cbegin(); it != secrets.cend(); ++it) {
            const QString error = m_secretSaver(it.key(), it.value());
            if (error.isEmpty()) {
                m_clearedSecrets.remove(it.key());
                continue;
            }
            for (const FieldInfo& f : std::as_const(m_lines)) {
                if (f.secret && f.envVar == it.key()) {
                    if (!firstFailed)
                        firstFailed = f.edit;
                    failures << tr("%1 (%2) could not be stored: %3").arg(f.edit->accessibleName(), it.key(), error);
                }
            }
            variables << it.key();
        }
    }
    if (!failures.isEmpty()) {
        // Dropping the secret would only surface at the next run as "no credentials": say it now,
        // keep what was typed, and name the way out.
        variables.sort();
        m_secretError->setText(tr("%1\nSet %2 in Sandpad's environment instead, or clear the field to save the "
                                  "other settings without it.")
                                   .arg(failures.join(u'\n'), variables.join(tr(" and "))));
        m_secretError->show();
        m_tabs->setCurrentIndex(0);
        if (firstFailed)
            firstFailed->setFocus();
        return;
    }
    m_secretError->clear();
    m_secretError->hide();
    QDialog::accept();
}

QString SettingsDialog::secretError() const
{
    return m_secretError->isVisibleTo(this) ? m_secretError->text() : QString();
}

} // namespace sandpad
