// The notebook's cell flow with sessions in the real main window (offscreen, local provider): a
// new tab keeps state from cell to cell, Stop (Ctrl+.) interrupts and keeps it, Restart Session
// clears it, Run All from a Fresh Session runs cell by cell and stops at an error, "Fresh Sandbox
// per Run" runs every cell alone (its variables a snapshot), the mode shows on the tab, in the
// status bar and the notebook's header, a DataFrame of 10,000,000 rows opens in a table that
// fetches as it scrolls, and the Settings' idle limit reaches the sessions.
#include "GuiTestSession.h"

#include "core/run/Run.h"
#include "ui/MainWindowActions.h"
#include "ui/console/RunController.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/session/SessionControls.h"
#include "ui/session/TabSessions.h"
#include "ui/session/SessionTableModel.h"
#include "ui/session/VariableExplorer.h"
#include "ui/session/VariableTableView.h"
#include "ui/console/RunNotebook.h"
#include "ui/settings/SettingsDialog.h"
#include "core/session/NotebookSession.h"

#include <QAction>
#include <QLabel>
#include <QPointer>
#include <QStandardPaths>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <algorithm>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace sandpad;

class TestSessionGui : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<GuiTestSession> m_session;
    std::unique_ptr<MainWindow> m_window;
    QPointer<Run> m_last;
    ExecutionResult m_lastResult;
    QList<ExecutionResult> m_finished; // every run's result, in order

    CodeEditor* editor() { return m_window->tabs()->currentEditor(); }
    bool waitForIdle(int ms) { return QTest::qWaitFor([this] { return !m_window->runs()->isRunning(); }, ms); }
    // Runs the whole tab's text and waits for its result.
    ExecutionResult run(const QString& code)
    {
        editor()->setText(code);
        if (!m_window->runAll())
            return {};
        waitForIdle(120000);
        return m_lastResult;
    }

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty())
            QSKIP("bubblewrap is not installed");
        QVERIFY(m_dir.isValid());
        m_session = std::make_unique<GuiTestSession>(m_dir.path());
        QVERIFY(m_session->opened);
        QVERIFY(m_session->providerReady);
        m_window = std::make_unique<MainWindow>(m_session->services());
        m_window->show();
        connect(m_window->runs(), &RunController::runStarted, this, [this](Run* run) {
            m_last = run;
            connect(run, &Run::finished, this, [this](const ExecutionResult& r) {
                m_lastResult = r;
                m_finished << r;
            });
        });
    }
    void cleanupTestCase() { m_window.reset(); }

    void cellsShareStateAndTheModeShows()
    {
        m_window->tabs()->newTab();
        EditorPage* page = m_window->tabs()->currentPage();
        QVERIFY(m_window->tabSessions()->usesSession(page)); // the default for a new tab
        QVERIFY(!m_window->tabs()->tabIcon(m_window->tabs()->currentIndex()).isNull());
        editor()->setText(QStringLiteral("x = 41\n# %%\nprint(x + 1)\nx\n"));
        editor()->setCursorPosition(0, 0);
        QVERIFY(m_window->runCurrentCell()); // cell 1, then the cursor moves to cell 2
        QVERIFY(waitForIdle(120000));
        QCOMPARE(m_lastResult.status, RunStatus::Success);
        QVERIFY(m_window->runCurrentCell());
        QVERIFY(waitForIdle(60000));
        QCOMPARE(m_lastResult.stdoutText, QStringLiteral("42\n"));
        QCOMPARE(m_lastResult.result.value_or(QString()), QStringLiteral("41"));
        QCOMPARE(m_lastResult.executionCount.value_or(-1), 2);
        QTRY_COMPARE(m_window->sessionControls()->modeLabel->text(), QStringLiteral("Session: 2 execution(s)"));
        // The variable explorer follows the tab's session.
        QTableWidget* table = m_window->sessionControls()->variables->table();
        QTRY_COMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("x"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("int"));
        QCOMPARE(table->item(0, 4)->text(), QStringLiteral("41"));
        // The notebook's header names the mode too.
        QCOMPARE(m_window->findChild<QLabel*>(QStringLiteral("notebookMode"))->text(), QStringLiteral("· Session: 2 execution(s)"));
    }

    void aTenMillionRowFrameOpensAsATable()
    {
        const ExecutionResult made = run(QStringLiteral(
            "import numpy as np, pandas as pd\nbig = pd.DataFrame({'i': np.arange(10_000_000), 'half': np.arange(10_000_000) / 2})\n"));
        QCOMPARE(made.status, RunStatus::Success);
        VariableExplorer* explorer = m_window->sessionControls()->variables;
        QTRY_VERIFY(explorer->table()->rowCount() >= 2);
        QVERIFY(!explorer->openTable(QStringLiteral("x"))); // an int: said why, nothing opened
        QVERIFY(explorer->noteLabel()->text().contains(QStringLiteral("only numpy arrays")));
        VariableTableView* view = explorer->openTable(QStringLiteral("big"));
        QVERIFY(view);
        SessionTableModel* model = view->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->isLoaded(), 60000);
        QCOMPARE(model->rowCount(), 10'000'000);
        QCOMPARE(model->columnCount(), 2);
        QCOMPARE(model->headerData(1, Qt::Horizontal).toString(), QStringLiteral("half\nfloat64"));
        QTRY_COMPARE(model->data(model->index(3, 1)).toString(), QStringLiteral("1.5"));
        // To the end: the rows there are fetched when they come into view, not before.
        view->table()->scrollToBottom();
        const int last = 10'000'000 - 1;
        QTRY_COMPARE_WITH_TIMEOUT(model->data(model->index(last, 0)).toString(), QStringLiteral("9999999"), 30000);
        QCOMPARE(model->headerData(last, Qt::Vertical).toString(), QStringLiteral("9999999"));
        QCOMPARE(model->data(model->index(last, 1)).toString(), QStringLiteral("4999999.5"));
        // A later cell changes the variable: the open table follows it.
        QCOMPARE(run(QStringLiteral("big = big.head(3)")).status, RunStatus::Success);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 30000);
        // Gone: said, nothing shown.
        QCOMPARE(run(QStringLiteral("del big")).status, RunStatus::Success);
        QTRY_VERIFY_WITH_TIMEOUT(view->statusLabel()->text().contains(QStringLiteral("no variable named 'big'")), 30000);
        QCOMPARE(model->rowCount(), 0);
        view->close();
    }

    void stopInterruptsAndKeepsState()
    {
        editor()->setText(QStringLiteral("import time\ny = 'kept'\nprint('sleeping', flush=True)\ntime.sleep(60)"));
        QVERIFY(m_window->runAll());
        QTRY_VERIFY_WITH_TIMEOUT(m_last && m_window->runs()->isRunning() &&
                                 m_window->runs()->currentEntry() != nullptr, 20000);
        QString seen;
        connect(m_last, &Run::output, this, [&](OutputStream, const QString& t) { seen += t; });
        QTRY_VERIFY_WITH_TIMEOUT(seen.contains(QStringLiteral("sleeping")), 30000);
        m_window->actions()->stop->trigger();
        QVERIFY(waitForIdle(30000));
        QCOMPARE(m_lastResult.status, RunStatus::Cancelled);
        QVERIFY(m_lastResult.error && m_lastResult.error->name == QStringLiteral("KeyboardInterrupt"));
        const ExecutionResult after = run(QStringLiteral("y + str(x)"));
        QCOMPARE(after.result.value_or(QString()), QStringLiteral("'kept41'"));
    }

    void restartSessionClears()
    {
        m_window->sessionControls()->restartSession->trigger();
        const ExecutionResult after = run(QStringLiteral("'x' in globals()"));
        QCOMPARE(after.result.value_or(QString()), QStringLiteral("False"));
        QCOMPARE(after.executionCount.value_or(-1), 1);
    }

    void runAllFromAFreshSession()
    {
        QCOMPARE(run(QStringLiteral("z = 1")).status, RunStatus::Success);
        // Each cell its own execution, in order, from nothing; the markdown cell is not run.
        editor()->setText(QStringLiteral("print('z' in globals())\n# %% [markdown]\n# notes\n# %%\nq = 2\n# %%\nprint(q * 2)\n"));
        QList<ExecutionResult>& results = m_finished;
        results.clear();
        SessionControls* controls = m_window->sessionControls();
        // Every message, not the last one: another may follow it on a loaded machine.
        QSignalSpy messages(m_window->statusBar(), &QStatusBar::messageChanged);
        controls->runAllFresh->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(results.size() == 3 && !controls->isRunningAll(), 180000);
        QCOMPARE(results[0].stdoutText, QStringLiteral("False\n"));
        QCOMPARE(results[0].executionCount.value_or(-1), 1);
        QCOMPARE(results[1].executionCount.value_or(-1), 2);
        QCOMPARE(results[2].stdoutText, QStringLiteral("4\n"));
        QCOMPARE(results[2].executionCount.value_or(-1), 3);
        QCOMPARE(results[2].title, m_window->tabs()->currentPage()->title() + QStringLiteral(" · lines 7–7"));
        const bool said = std::any_of(messages.begin(), messages.end(), [](const QList<QVariant>& m) {
            return m.value(0).toString().contains(QStringLiteral("all 3 cell(s) ran"));
        });
        QVERIFY2(said, qPrintable(m_window->statusBar()->currentMessage()));

        // It stops at the first error, with a note; the cells after it do not run.
        results.clear();
        editor()->setText(QStringLiteral("a = 1\n# %%\n1 / 0\n# %%\nprint('never')\n# %%\nprint('nor this')\n"));
        controls->runAllFresh->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(results.size() == 2 && !controls->isRunningAll(), 180000);
        QTest::qWait(300);
        QCOMPARE(results.size(), 2);
        QCOMPARE(results[1].status, RunStatus::Error);
        QCOMPARE(results[1].error->name, QStringLiteral("ZeroDivisionError"));
        const QString note = m_window->statusBar()->currentMessage();
        QVERIFY2(note.contains(QStringLiteral("stopped at cell 2 of 4 (an error); 2 cell(s) after it did not run")), qPrintable(note));
    }

    void theIdleSettingReachesTheSessions()
    {
        // The dialog's field, stored and read back like the others.
        SettingsDialog dialog;
        AppSettings settings;
        QCOMPARE(settings.sessionIdleMinutes, 30);
        settings.sessionIdleMinutes = 45;
        dialog.setSettings(settings);
        auto* field = qobject_cast<QSpinBox*>(dialog.field(QStringLiteral("sessionIdle")));
        QVERIFY(field);
        QCOMPARE(field->value(), 45);
        field->setValue(5);
        QCOMPARE(dialog.settings().sessionIdleMinutes, 5);
        AppSettings bad;
        bad.sessionIdleMinutes = 0;
        QVERIFY(bad.sanitize().join(u' ').contains(QStringLiteral("session idle limit")));
        QCOMPARE(bad.sessionIdleMinutes, 1);
        QSettings stored(m_dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        settings.sessionIdleMinutes = 12;
        settings.save(stored);
        QCOMPARE(AppSettings::load(stored).sessionIdleMinutes, 12);

        // Applied: to the sessions there are and to those to come.
        followSettings(m_session->workspace, *m_window);
        EditorPage* page = m_window->tabs()->currentPage();
        QCOMPARE(run(QStringLiteral("1")).status, RunStatus::Success);
        QVERIFY(m_window->tabSessions()->session(page));
        settings = m_session->workspace.storedSettings();
        settings.sessionIdleMinutes = 7;
        QVERIFY(m_session->workspace.applySettings(settings));
        QCOMPARE(m_window->tabSessions()->idleSeconds(), 7 * 60);
        QCOMPARE(m_window->tabSessions()->session(page)->idleSeconds(), 7 * 60);
        m_window->tabs()->newTab();
        QCOMPARE(run(QStringLiteral("2")).status, RunStatus::Success);
        QCOMPARE(m_window->tabSessions()->session(m_window->tabs()->currentPage())->idleSeconds(), 7 * 60);
    }

    void freshSandboxPerRun()
    {
        m_window->sessionControls()->freshPerRun->setChecked(true);
        EditorPage* page = m_window->tabs()->currentPage();
        QVERIFY(!m_window->tabSessions()->usesSession(page));
        QCOMPARE(m_window->sessionControls()->modeLabel->text(), QStringLiteral("Fresh sandbox per run"));
        QCOMPARE(run(QStringLiteral("w = 1")).status, RunStatus::Success);
        // The Variables dock shows the run's snapshot at its end, and says rows need a session.
        VariableExplorer* explorer = m_window->sessionControls()->variables;
        QTRY_VERIFY(explorer->table()->rowCount() == 1 && explorer->table()->item(0, 0)->text() == QStringLiteral("w"));
        QVERIFY(explorer->noteLabel()->text().contains(QStringLiteral("Run in a session to browse rows")));
        QCOMPARE(m_window->findChild<QLabel*>(QStringLiteral("notebookMode"))->text(), QStringLiteral("· Fresh sandbox per run"));
        const ExecutionResult r = run(QStringLiteral("print(w)"));
        QCOMPARE(r.status, RunStatus::Error);
        QCOMPARE(r.error->name, QStringLiteral("NameError"));
        QVERIFY(!r.executionCount);
        // Another tab keeps its own mode: a session.
        m_window->tabs()->newTab();
        QVERIFY(m_window->tabSessions()->usesSession(m_window->tabs()->currentPage()));
        QVERIFY(!m_window->sessionControls()->freshPerRun->isChecked());
    }
};

QTEST_MAIN(TestSessionGui)
#include "test_session_gui.moc"
