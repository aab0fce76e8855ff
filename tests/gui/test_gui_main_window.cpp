// Drives the real main window with the real Executor and the local (bubblewrap) provider:
// typing and Ctrl+Enter, streaming, the flood, Stop, error marks, cells, persistence.
#include "EventLoopProbe.h"
#include "GuiTestSession.h"

#include "core/notebook/RunHistory.h"
#include "core/run/Run.h"
#include "ui/charts/ChartPane.h"
#include "ui/charts/ChartViewer.h"
#include "ui/charts/PngView.h"
#include "ui/console/OutputView.h"
#include "ui/console/RunController.h"
#include "ui/console/RunCoordinator.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/MainWindow.h"
#include "ui/MainWindowActions.h"
#include "ui/session/TabSessions.h"
#include "ui/statusbar/RunStatusBar.h"

#include <QAction>
#include <QElapsedTimer>
#include <QPointer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

using namespace sandpad;

class TestGuiMainWindow : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<GuiTestSession> m_session;
    std::unique_ptr<MainWindow> m_window;

    CodeEditor* editor() { return m_window->tabs()->currentEditor(); }
    RunEntry* lastEntry()
    {
        const QList<RunEntry*> all = m_window->notebook()->entries();
        return all.isEmpty() ? nullptr : all.last();
    }
    void openWindow()
    {
        m_window = std::make_unique<MainWindow>(m_session->services());
        m_window->show();
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    }
    // Types code into a fresh tab and presses Ctrl+Enter.
    void typeAndRun(const QString& code)
    {
        m_window->tabs()->newTab();
        editor()->setFocus();
        // QTest types no '\n': press Return between lines (the editor's auto-indent applies).
        const QStringList lines = code.split(QLatin1Char('\n'));
        for (int i = 0; i < lines.size(); ++i) {
            if (i > 0)
                QTest::keyClick(editor(), Qt::Key_Return);
            QTest::keyClicks(editor(), lines[i]);
        }
        QTest::keyClick(editor(), Qt::Key_Return, Qt::ControlModifier);
    }
    bool waitForIdle(int ms) { return QTest::qWaitFor([this] { return !m_window->runs()->isRunning(); }, ms); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_session = std::make_unique<GuiTestSession>(m_dir.path());
        QVERIFY(m_session->opened);
        QVERIFY(m_session->providerReady);
        openWindow();
    }

    void typeRunAndSeeStreamedOutput()
    {
        typeAndRun(QStringLiteral("import time\nprint('hello from sandpad', flush=True)\ntime.sleep(1.5)\nprint('done')\nresult = 6 * 7"));
        QVERIFY(m_window->actions()->stop->isEnabled());
        RunEntry* entry = lastEntry();
        QVERIFY(entry);
        QVERIFY(entry->headerText().contains(QStringLiteral("running")));
        // The first line shows while the run is still going.
        QTRY_VERIFY_WITH_TIMEOUT(entry->outputView()->toPlainText().contains(QStringLiteral("hello from sandpad")), 20000);
        QVERIFY(entry->isRunning());
        QVERIFY(waitForIdle(60000));
        QCOMPARE(entry->statusText(), QStringLiteral("success"));
        QVERIFY2(entry->headerText().contains(QStringLiteral("$0.05")), qPrintable(entry->headerText()));
        QVERIFY(entry->headerText().contains(QStringLiteral("success")));
        QVERIFY(entry->headerText().contains(QStringLiteral("local")));
        QCOMPARE(entry->outputView()->toPlainText(), QStringLiteral("hello from sandpad\ndone"));
        QCOMPARE(entry->resultText(), QStringLiteral("42"));
        QCOMPARE(m_window->runStatusBar()->lastCostText(), QStringLiteral("Last run: $0.05"));
        QVERIFY(!m_window->actions()->stop->isEnabled());
    }

    void errorMarksTheEditorLine()
    {
        typeAndRun(QStringLiteral("a = 1\nb = 0\nprint(a / b)\n"));
        QVERIFY(waitForIdle(60000));
        RunEntry* entry = lastEntry();
        QCOMPARE(entry->statusText(), QStringLiteral("error"));
        QVERIFY(entry->errorText().startsWith(QStringLiteral("ZeroDivisionError")));
        QCOMPARE(editor()->errorLine(), 3);
        editor()->setCursorPosition(0, 0);
        entry->activateLink(QStringLiteral("line:3"));
        int line = -1, index = -1;
        editor()->getCursorPosition(&line, &index);
        QCOMPARE(line, 2);
    }

    void runCellAndAdvance()
    {
        m_window->tabs()->newTab(Language::Python,
                                 QStringLiteral("# %%\nprint('one')\n# %%\nx = 1\nprint(x / 0)\n"));
        editor()->setFocus();
        editor()->setCursorPosition(1, 0);
        QTest::keyClick(editor(), Qt::Key_Return, Qt::ShiftModifier);
        QVERIFY(waitForIdle(60000));
        RunEntry* entry = lastEntry();
        QCOMPARE(entry->run()->result().code, QStringLiteral("print('one')"));
        QCOMPARE(entry->outputView()->toPlainText(), QStringLiteral("one"));
        int line = -1, index = -1;
        editor()->getCursorPosition(&line, &index);
        QCOMPARE(line, 3); // moved into the next cell
        QVERIFY(!editor()->text().contains(QStringLiteral("\n\n\n"))); // Shift+Enter typed nothing
        // The second cell fails on its own line 2: the editor's line 5.
        QTest::keyClick(editor(), Qt::Key_Return, Qt::ShiftModifier);
        QVERIFY(waitForIdle(60000));
        QCOMPARE(lastEntry()->statusText(), QStringLiteral("error"));
        QCOMPARE(editor()->errorLine(), 5);
    }

    void floodDoesNotFreezeTheWindow()
    {
        EventLoopProbe probe;
        typeAndRun(QStringLiteral("for i in range(1_000_000): print(i)"));
        probe.start();
        QVERIFY(waitForIdle(120000));
        QTRY_COMPARE(lastEntry()->outputView()->document()->lastBlock().text(), QStringLiteral("999999")); // the last flush
        probe.stop();
        const qint64 worst = probe.worstGapMs();
        qInfo("1,000,000-line flood: longest event-loop gap %lld ms over %lld ms", worst, probe.elapsedMs());
        RunEntry* entry = lastEntry();
        QCOMPARE(entry->statusText(), QStringLiteral("success"));
        QVERIFY(entry->outputTruncated());
        QVERIFY(entry->outputView()->document()->blockCount() <= OutputView::kMaxViewLines);
        QCOMPARE(entry->outputView()->document()->lastBlock().text(), QStringLiteral("999999"));
        QVERIFY(entry->fullOutput().endsWith(QStringLiteral("999999\n")));
    }

    void stopCancelsAndCostsNothing()
    {
        typeAndRun(QStringLiteral("import time\nprint('sleeping', flush=True)\ntime.sleep(60)"));
        RunEntry* entry = lastEntry();
        QTRY_VERIFY_WITH_TIMEOUT(entry->outputView()->toPlainText().contains(QStringLiteral("sleeping")), 20000);
        QTest::keyClick(editor(), Qt::Key_Period, Qt::ControlModifier);
        QVERIFY(waitForIdle(15000));
        QCOMPARE(entry->statusText(), QStringLiteral("cancelled"));
        QVERIFY2(entry->headerText().contains(QStringLiteral("$0.00")), qPrintable(entry->headerText()));
        QCOMPARE(m_window->runStatusBar()->lastCostText(), QStringLiteral("Last run: $0.00"));
    }

    void javascriptRuns()
    {
        m_window->tabs()->newTab(Language::JavaScript, QStringLiteral("console.log('from node')\nconst result = 2 ** 10\n"));
        QVERIFY(m_window->runAll());
        QVERIFY(waitForIdle(60000));
        RunEntry* entry = lastEntry();
        QVERIFY2(entry->statusText() == QStringLiteral("success"), qPrintable(entry->run()->result().message));
        QVERIFY(entry->headerText().contains(QStringLiteral("javascript")));
        QCOMPARE(entry->outputView()->toPlainText(), QStringLiteral("from node"));
        QCOMPARE(entry->resultText(), QStringLiteral("1024"));
    }

    // Issue 16: a JavaScript stack's frames in the snippet link to the editor and the innermost
    // one is marked, a syntax error too, and a cell's lines are the editor's; in a session and
    // in a fresh sandbox (two wrappers).
    void javascriptErrorsLinkToTheEditor()
    {
        for (const bool fresh : {false, true}) {
            const QString mode = fresh ? QStringLiteral("fresh") : QStringLiteral("session");
            auto runTab = [&](const QString& code) {
                m_window->tabs()->newTab(Language::JavaScript, code);
                m_window->tabSessions()->setFresh(m_window->tabs()->currentPage(), fresh);
            };
            runTab(QStringLiteral("function f() {\n  throw new Error('boom')\n}\nf()\n"));
            QVERIFY(m_window->runAll());
            QVERIFY(waitForIdle(60000));
            RunEntry* entry = lastEntry();
            QCOMPARE(entry->statusText(), QStringLiteral("error"));
            QString shown = entry->shownErrorText();
            QVERIFY2(shown.contains(QStringLiteral("href=\"line:2\"")), qPrintable(mode + u' ' + shown));
            QVERIFY2(shown.contains(QStringLiteral("href=\"line:4\"")), qPrintable(mode + u' ' + shown));
            QVERIFY2(!shown.contains(QStringLiteral("href=\"line:0")), qPrintable(shown));
            QCOMPARE(editor()->errorLine(), 2);
            entry->activateLink(QStringLiteral("line:4"));
            int line = -1, index = -1;
            editor()->getCursorPosition(&line, &index);
            QCOMPARE(line, 3);

            runTab(QStringLiteral("const a = 1\nconst b = 2\nconst c = ;\n"));
            QVERIFY(m_window->runAll());
            QVERIFY(waitForIdle(60000));
            entry = lastEntry();
            QCOMPARE(entry->run()->result().error->name, QStringLiteral("SyntaxError"));
            shown = entry->shownErrorText();
            QVERIFY2(shown.contains(QStringLiteral("href=\"line:3\"")), qPrintable(mode + u' ' + shown));
            QCOMPARE(editor()->errorLine(), 3);

            // The second cell fails on its line 2, the editor's line 5.
            runTab(QStringLiteral("// %%\nconsole.log(1)\n// %%\nconst x = 1\nx.nope()\n"));
            editor()->setCursorPosition(3, 0);
            QVERIFY(m_window->runCoordinator()->runCurrentCell());
            QVERIFY(waitForIdle(60000));
            entry = lastEntry();
            QCOMPARE(entry->statusText(), QStringLiteral("error"));
            shown = entry->shownErrorText();
            QVERIFY2(shown.contains(QStringLiteral("href=\"line:2\"")), qPrintable(mode + u' ' + shown));
            QVERIFY2(shown.contains(QStringLiteral(":5:")), qPrintable(mode + u' ' + shown)); // the editor's line
            QCOMPARE(editor()->errorLine(), 5);
        }
    }

    void chartDictShowsInTheViewer()
    {
        QVERIFY(m_window->openExample(QStringLiteral("grouped_bar")));
        // One Run from request to history: counted from the moment it starts.
        QPointer<Run> started;
        int finishedSignals = 0;
        QMetaObject::Connection watch = connect(m_window->runs(), &RunController::runStarted, this, [&](Run* run) {
            started = run;
            connect(run, &Run::finished, this, [&] { ++finishedSignals; });
        });
        QVERIFY(m_window->runAll());
        QVERIFY(waitForIdle(60000));
        disconnect(watch);
        RunEntry* entry = lastEntry();
        QVERIFY(started);
        QCOMPARE(entry->run(), started.data()); // the entry observes the Run, no copy of it
        QCOMPARE(finishedSignals, 1);
        QCOMPARE(started->state(), Run::State::Finished);
        QCOMPARE(started->origin().title, m_window->tabs()->currentPage()->title());
        QCOMPARE(started->origin().source.data(), static_cast<QObject*>(m_window->tabs()->currentPage()));
        // The history writer stored that same Run's data (its chart serialized once, there).
        m_session->workspace.waitForHistory();
        const auto stored = m_session->workspace.history().find(started->id());
        QVERIFY(stored);
        QCOMPARE(stored->startedAt, started->startedAt());
        QCOMPARE(stored->charts.size(), 1);
        QCOMPARE(stored->charts.first().specJson(), started->result().charts.first().specJson());
        QCOMPARE(m_window->chartPane()->charts().first().specJson(), started->result().charts.first().specJson());
        QVERIFY2(entry->statusText() == QStringLiteral("success"), qPrintable(entry->run()->result().message));
        QCOMPARE(entry->run()->result().charts.size(), 1);
        QCOMPARE(m_window->chartRunId(), entry->runId());
        QCOMPARE(m_window->chartPane()->count(), 1);
        QCOMPARE(m_window->chartPane()->currentView(), static_cast<QWidget*>(m_window->chartPane()->chartViewer()));
        QVERIFY(m_window->chartPane()->chartViewer()->hasChart());
        QCOMPARE(m_window->chartPane()->chartViewer()->chart().title, QStringLiteral("Revenue by quarter (k$)"));
    }

    void sineWaveShowsInteractiveAndAsItsPicture()
    {
        QVERIFY(m_window->openExample(QStringLiteral("sine_wave")));
        QVERIFY(m_window->runAll());
        QVERIFY(waitForIdle(90000));
        RunEntry* entry = lastEntry();
        QVERIFY2(entry->statusText() == QStringLiteral("success"), qPrintable(entry->run()->result().message));
        ChartPane* pane = m_window->chartPane();
        QCOMPARE(pane->count(), 1);
        // The figure's chart was extracted: interactive first, its PNG one click away.
        QCOMPARE(pane->charts().first().kind, RunChart::Kind::Png);
        QCOMPARE(pane->currentView(), static_cast<QWidget*>(pane->chartViewer()));
        QCOMPARE(pane->chartViewer()->chart().title, QStringLiteral("Sine Wave"));
        pane->setShowInteractive(false);
        QCOMPARE(pane->currentView(), static_cast<QWidget*>(pane->pngView()));
        QVERIFY(pane->pngView()->hasImage());
    }

    void restartListsPreviousRuns()
    {
        // A run of its own (the earlier cases' runs, when they ran first, are listed too).
        typeAndRun(QStringLiteral("print('kept across restarts')"));
        QVERIFY(waitForIdle(60000));
        const QString mine = lastEntry()->runId();
        const QStringList before = [this] {
            QStringList ids;
            for (RunEntry* e : m_window->notebook()->entries())
                ids << e->runId();
            return ids;
        }();
        QVERIFY(before.contains(mine));
        m_window.reset();
        m_session.reset();
        m_session = std::make_unique<GuiTestSession>(m_dir.path());
        openWindow();
        QStringList after;
        for (RunEntry* e : m_window->notebook()->entries())
            after << e->runId();
        QCOMPARE(after, before);
        RunEntry* kept = m_window->notebook()->entries().at(int(after.indexOf(mine)));
        QCOMPARE(kept->outputView()->toPlainText(), QStringLiteral("kept across restarts"));
        QVERIFY(kept->headerText().contains(QStringLiteral("$0.05")));
    }

    void cleanupTestCase()
    {
        m_window.reset();
        m_session.reset();
    }
};

QTEST_MAIN(TestGuiMainWindow)
#include "test_gui_main_window.moc"
