#pragma once

#include <QStatusBar>
#include <functional>
#include <optional>

class QLabel;
class QTimer;

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
    // How the last run got its sandbox, shown after "Ready" once it has ended ("Ready · last
    // run: local, pre-started sandbox"): a pooled run is over before a second has ticked.
    void setLastRun(const QString& provider, RunMode mode);
    // A file was written ("Saved chart.png, 1600×1000"): the message and an Open Folder link
    // to its folder, for kSavedMs.
    void showSaved(const QString& path, const QString& message);
    QString savedText() const; // empty when not shown
    void openSavedFolder();     // what the link does
    // Opens a folder (default: the desktop's file manager); tests replace it.
    void setFolderOpener(std::function<void(const QString& folder)> opener) { m_openFolder = std::move(opener); }
    static constexpr int kSavedMs = 15000;

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
    QLabel* m_saved = nullptr;
    QTimer* m_savedTimer = nullptr;
    QString m_savedFolder;
    std::function<void(const QString& folder)> m_openFolder;
    QString m_providerName, m_validationDetail;
    Validation m_validation = Validation::Unknown;
    bool m_running = false;
    std::optional<RunMode> m_lastMode;
    QString m_lastProvider;
};

} // namespace sandpad
