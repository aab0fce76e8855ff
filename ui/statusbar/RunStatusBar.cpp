#include "ui/statusbar/RunStatusBar.h"

#include "core/accounting/Money.h"
#include "ui/console/ElapsedTime.h"

#include <QDesktopServices>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QLabel>
#include <QRegularExpression>
#include <QTimer>
#include <QUrl>

namespace sandpad {

namespace {
QLabel* makeLabel(QWidget* parent, const QString& name)
{
    auto* label = new QLabel(parent);
    label->setAccessibleName(name);
    label->setContentsMargins(8, 0, 8, 0);
    return label;
}
} // namespace

RunStatusBar::RunStatusBar(QWidget* parent)
    : QStatusBar(parent), m_run(makeLabel(this, tr("Run state"))),
      m_provider(makeLabel(this, tr("Provider"))), m_lastCost(makeLabel(this, tr("Last run cost"))),
      m_total(makeLabel(this, tr("Session total"))), m_credits(makeLabel(this, tr("Credits balance")))
{
    setAccessibleName(tr("Status bar"));
    addWidget(m_run, 1);
    addPermanentWidget(m_provider);
    addPermanentWidget(m_lastCost);
    addPermanentWidget(m_total);
    addPermanentWidget(m_credits);
    m_credits->hide();
    // Permanent, so that a passing showMessage() does not hide the confirmation.
    m_saved = makeLabel(this, tr("Saved file"));
    m_saved->setTextFormat(Qt::RichText);
    m_saved->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    insertPermanentWidget(1, m_saved); // after the run state, before the provider
    m_saved->hide();
    connect(m_saved, &QLabel::linkActivated, this, &RunStatusBar::openSavedFolder);
    m_savedTimer = new QTimer(this);
    m_savedTimer->setSingleShot(true);
    m_savedTimer->setInterval(kSavedMs);
    connect(m_savedTimer, &QTimer::timeout, m_saved, &QWidget::hide);
    m_openFolder = [](const QString& folder) { QDesktopServices::openUrl(QUrl::fromLocalFile(folder)); };
    setRunning(false);
    setLastRunCost(0);
    m_lastCost->setText(tr("Last run: —"));
    setSessionTotal(0);
    updateProvider();
}

void RunStatusBar::setProvider(const QString& name)
{
    m_providerName = name;
    updateProvider();
}

void RunStatusBar::setValidation(Validation state, const QString& detail)
{
    m_validation = state;
    m_validationDetail = detail;
    updateProvider();
}

void RunStatusBar::updateProvider()
{
    QString state;
    QString colour;
    switch (m_validation) {
    case Validation::Unknown: state = tr("not validated"); break;
    case Validation::Checking: state = tr("validating…"); break;
    case Validation::Valid: state = tr("✔ valid"); colour = QStringLiteral("#1e7e34"); break;
    case Validation::Warning: state = tr("⚠ usable with warnings"); colour = QStringLiteral("#8a5a00"); break;
    case Validation::Invalid: state = tr("✖ invalid"); colour = QStringLiteral("#b3261e"); break;
    }
    if (palette().color(QPalette::Window).lightness() < 128 && !colour.isEmpty())
        colour = QColor(colour).lighter(190).name();
    const QString name = m_providerName.isEmpty() ? tr("none") : m_providerName;
    m_provider->setText(colour.isEmpty()
                            ? tr("Provider: <b>%1</b> (%2)").arg(name.toHtmlEscaped(), state)
                            : tr("Provider: <b>%1</b> (<span style=\"color:%3\">%2</span>)")
                                  .arg(name.toHtmlEscaped(), state, colour));
    m_provider->setToolTip(m_validationDetail);
}

void RunStatusBar::changeEvent(QEvent* event)
{
    QStatusBar::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateProvider();
}

void RunStatusBar::setLastRunCost(qint64 micros) { m_lastCost->setText(tr("Last run: %1").arg(formatMoney(micros))); }

void RunStatusBar::setSessionTotal(qint64 micros) { m_total->setText(tr("Session: %1").arg(formatMoney(micros))); }

void RunStatusBar::setCreditsBalance(std::optional<qint64> micros)
{
    m_credits->setVisible(micros.has_value());
    if (micros)
        m_credits->setText(tr("Credits: %1").arg(formatMoney(*micros)));
}

void RunStatusBar::setRunning(bool running)
{
    m_running = running;
    if (running)
        m_run->setText(tr("Running…"));
    else if (m_lastMode)
        m_run->setText(tr("Ready · last run: %1, %2")
                           .arg(m_lastProvider.isEmpty() ? tr("no provider") : m_lastProvider, runModeName(*m_lastMode)));
    else
        m_run->setText(tr("Ready"));
}

void RunStatusBar::setLastRun(const QString& provider, RunMode mode)
{
    m_lastProvider = provider;
    m_lastMode = mode;
    if (!m_running)
        setRunning(false);
}

QString RunStatusBar::runModeName(RunMode mode)
{
    switch (mode) {
    case RunMode::Fresh: return tr("fresh sandbox");
    case RunMode::Pooled: return tr("pre-started sandbox");
    case RunMode::Session: return tr("session");
    }
    return {};
}

void RunStatusBar::setRunProgress(const QString& provider, RunMode mode, qint64 elapsedMs, qint64 costSoFarMicros)
{
    if (!m_running)
        return;
    m_run->setText(tr("Running %1 · %2 · %3 · session so far %4")
                       .arg(formatElapsed(elapsedMs), provider.isEmpty() ? tr("no provider") : provider,
                            runModeName(mode), formatMoney(costSoFarMicros)));
}

QString RunStatusBar::runText() const { return m_run->text(); }

void RunStatusBar::showSaved(const QString& path, const QString& message)
{
    m_savedFolder = QFileInfo(path).absolutePath();
    m_saved->setText(tr("%1 · <a href=\"folder\">Open Folder</a>").arg(message.toHtmlEscaped()));
    m_saved->setToolTip(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath()));
    m_saved->show();
    m_savedTimer->start();
}

QString RunStatusBar::savedText() const
{
    if (m_saved->isHidden())
        return {};
    QString t = m_saved->text();
    t.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    return t;
}

void RunStatusBar::openSavedFolder()
{
    if (!m_savedFolder.isEmpty() && m_openFolder)
        m_openFolder(m_savedFolder);
}

QString RunStatusBar::providerText() const
{
    QString t = m_provider->text();
    t.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    return t;
}
QString RunStatusBar::lastCostText() const { return m_lastCost->text(); }
QString RunStatusBar::sessionTotalText() const { return m_total->text(); }
QString RunStatusBar::creditsText() const { return m_credits->isHidden() ? QString() : m_credits->text(); }

} // namespace sandpad
