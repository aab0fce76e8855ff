#pragma once

#include <QStatusBar>
#include <optional>

class QLabel;

namespace sandpad {

// The status bar: the selected provider and its validation state, the last run's cost, the
// session total and, when credits are on, the balance.
class RunStatusBar : public QStatusBar {
    Q_OBJECT
public:
    enum class Validation { Unknown, Checking, Valid, Warning, Invalid };
    // How the running snippet got its sandbox: a new one, a pre-started one, a live session.
    enum class RunMode { Fresh, Pooled, Session };
    static QString runModeName(RunMode mode); // "fresh sandbox", "pre-started sandbox", "session"

    explicit RunStatusBar(QWidget* parent = nullptr);

    void setProvider(const QString& name);
    void setValidation(Validation state, const QString& detail = {});
    void setLastRunCost(qint64 micros);
    void setSessionTotal(qint64 micros);
    void setCreditsBalance(std::optional<qint64> micros); // nullopt: credits off (hidden)
    void setRunning(bool running);
    // While a run is in flight (RunProgress calls it every second): what runs it, for how long,
    // and the session's cost so far. Ignored when not running.
    void setRunProgress(const QString& provider, RunMode mode, qint64 elapsedMs, qint64 costSoFarMicros);
    QString runText() const;

    QString providerText() const;
    QString lastCostText() const;
    QString sessionTotalText() const;
    QString creditsText() const;
    Validation validation() const { return m_validation; }

protected:
    void changeEvent(QEvent* event) override; // the validation colour follows the theme

private:
    void updateProvider();
    QLabel *m_run, *m_provider, *m_lastCost, *m_total, *m_credits;
    QString m_providerName, m_validationDetail;
    Validation m_validation = Validation::Unknown;
    bool m_running = false;
};

} // namespace sandpad
