// The notebook's cell flow with sessions in the real main window (offscreen, local provider): a
// new tab keeps state from cell to cell, Stop (Ctrl+.) interrupts and keeps it, Restart Session
// clears it, "Fresh Sandbox per Run" runs every cell alone, and the mode shows on the tab and in
// the status bar.
#include "GuiTestSession.h"

#include "core/run/Run.h"
#include "ui/MainWindowActions.h"
#include "ui/console/RunController.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/session/SessionControls.h"
#include "ui/session/TabSessions.h"
#include "ui/session/VariableExplorer.h"

#include <QAction>
#include <QLabel>
#include <QPointer>
#include <QStandardPaths>
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
            connect(run, &Run::finished, this, [this](const ExecutionResult& r) { m_lastResult = r; });
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
        editor()->setText(QStringLiteral("print('z' in globals())"));
        m_window->sessionControls()->runAllFresh->trigger();
        QVERIFY(waitForIdle(120000));
        QCOMPARE(m_lastResult.stdoutText, QStringLiteral("False\n"));
    }

    void freshSandboxPerRun()
    {
        m_window->sessionControls()->freshPerRun->setChecked(true);
        EditorPage* page = m_window->tabs()->currentPage();
        QVERIFY(!m_window->tabSessions()->usesSession(page));
        QCOMPARE(m_window->sessionControls()->modeLabel->text(), QStringLiteral("Fresh sandbox per run"));
        QCOMPARE(run(QStringLiteral("w = 1")).status, RunStatus::Success);
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
