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

    explicit RunStatusBar(QWidget* parent = nullptr);

    void setProvider(const QString& name);
    void setValidation(Validation state, const QString& detail = {});
    void setLastRunCost(qint64 micros);
    void setSessionTotal(qint64 micros);
    void setCreditsBalance(std::optional<qint64> micros); // nullopt: credits off (hidden)
    void setRunning(bool running);

    QString providerText() const;
    QString lastCostText() const;
    QString sessionTotalText() const;
    QString creditsText() const;
    Validation validation() const { return m_validation; }

private:
    void updateProvider();
    QLabel *m_run, *m_provider, *m_lastCost, *m_total, *m_credits;
    QString m_providerName, m_validationDetail;
    Validation m_validation = Validation::Unknown;
};

} // namespace sandpad
