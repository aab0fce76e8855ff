// "Did it run?" (issue 16, live feedback): the running entry stays in view while it streams,
// like a terminal (unless the user scrolled away), its header and the status bar tick with the
// elapsed time, and the status bar names the provider, the kind of sandbox and the cost so far.
#include "TestRecords.h"

#include "ui/console/ElapsedTime.h"
#include "ui/console/OutputView.h"
#include "ui/console/RunController.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"
#include "ui/MainWindow.h"
#include "core/sandbox/RunControl.h"
#include "ui/statusbar/RunProgress.h"
#include "ui/statusbar/RunStatusBar.h"

#include <QScrollArea>
#include <QScrollBar>
#include <QTest>

using namespace sandpad;

namespace {

QScrollArea* scrollOf(RunNotebook& notebook) { return notebook.findChild<QScrollArea*>(); }

// The entry's bottom edge is inside the notebook's viewport.
bool bottomInView(RunNotebook& notebook, RunEntry* entry)
{
    QWidget* viewport = scrollOf(notebook)->viewport();
    const QPoint bottom = entry->mapTo(viewport, QPoint(0, entry->height() - 1));
    return bottom.y() >= 0 && bottom.y() < viewport->height();
}

// Puts pending output into the view and lets the layout and the scroll area settle.
void settle(RunEntry* entry)
{
    entry->outputView()->flush();
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
}

} // namespace

class TestLiveFeedback : public QObject {
    Q_OBJECT

private slots:
    void runningEntryIsFollowedWhileItStreams()
    {
        RunNotebook notebook;
        notebook.resize(520, 360);
        notebook.show();
        QVERIFY(QTest::qWaitForWindowExposed(&notebook));
        for (int i = 0; i < 6; ++i) { // earlier runs fill more than the view
            ExecutionResult r = runResult(QStringLiteral("old%1").arg(i), QStringLiteral("old"), QStringLiteral("success"));
            r.stdoutText = QStringLiteral("line\n").repeated(8);
            notebook.addFinished(new Run(r));
        }
        settle(notebook.entries().last());
        Run* run = runningRun(QStringLiteral("loop"));
        RunEntry* entry = notebook.addRunning(run);
        QTRY_VERIFY(bottomInView(notebook, entry));
        // Output streams out a line at a time: each one grows the entry, the view follows.
        for (int i = 0; i < 12; ++i) {
            entry->appendOutput(OutputStream::Stdout, QStringLiteral("tick %1\n").arg(i));
            settle(entry);
            QVERIFY2(bottomInView(notebook, entry), qPrintable(QStringLiteral("after line %1").arg(i)));
        }
        QVERIFY(notebook.isFollowing());

        // The user scrolls up to read an older run: the view stays there.
        QScrollBar* bar = scrollOf(notebook)->verticalScrollBar();
        bar->setValue(0);
        QVERIFY(!notebook.isFollowing());
        for (int i = 0; i < 6; ++i) {
            entry->appendOutput(OutputStream::Stdout, QStringLiteral("more %1\n").arg(i));
            settle(entry);
        }
        QCOMPARE(bar->value(), 0);
        // Back at the end: followed again.
        bar->setValue(bar->maximum());
        QVERIFY(notebook.isFollowing());
        entry->appendOutput(OutputStream::Stdout, QStringLiteral("last\n"));
        settle(entry);
        QVERIFY(bottomInView(notebook, entry));

        // A new run the user starts is gone to, even from far up.
        bar->setValue(0);
        ExecutionResult done = runResult(QStringLiteral("run-1"), QStringLiteral("loop"), QStringLiteral("success"));
        run->deliverResult(done);
        Run* next = runningRun(QStringLiteral("next"), {}, QStringLiteral("run-2"));
        RunEntry* second = notebook.addRunning(next);
        QTRY_VERIFY(bottomInView(notebook, second));
        next->deliverResult(runResult(QStringLiteral("run-2"), QStringLiteral("next"), QStringLiteral("success")));
    }

    // A run that ends while the user reads an older entry leaves them there (ScrollFollower's
    // rule); one that ends while they follow is shown to its end.
    void aRunEndingDoesNotJumpWhenScrolledAway()
    {
        MainWindow window{MainWindowServices{}};
        window.resize(1000, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        RunNotebook& notebook = *window.notebook();
        for (int i = 0; i < 8; ++i) {
            ExecutionResult r = runResult(QStringLiteral("old%1").arg(i), QStringLiteral("old"), QStringLiteral("success"));
            r.stdoutText = QStringLiteral("line\n").repeated(8);
            notebook.addFinished(new Run(r));
        }
        settle(notebook.entries().last());
        QScrollBar* bar = scrollOf(notebook)->verticalScrollBar();

        Run* run = nullptr;
        QVERIFY(window.runs()->startWith([&] { return run = runningRun(QStringLiteral("loop"), {}, QStringLiteral("away")); }));
        RunEntry* entry = notebook.entry(QStringLiteral("away"));
        QVERIFY(entry);
        QTRY_VERIFY(bottomInView(notebook, entry));
        bar->setValue(0); // the user goes up to read an old run
        QVERIFY(!notebook.isFollowing());
        ExecutionResult done = runResult(QStringLiteral("away"), QStringLiteral("loop"), QStringLiteral("success"));
        done.stdoutText = QStringLiteral("out\n").repeated(20);
        run->deliverResult(done);
        settle(entry);
        QCOMPARE(bar->value(), 0);

        // Following: the end of the finished run is shown.
        QVERIFY(window.runs()->startWith([&] { return run = runningRun(QStringLiteral("next"), {}, QStringLiteral("follow")); }));
        RunEntry* second = notebook.entry(QStringLiteral("follow"));
        QTRY_VERIFY(bottomInView(notebook, second));
        ExecutionResult next = runResult(QStringLiteral("follow"), QStringLiteral("next"), QStringLiteral("success"));
        next.stdoutText = QStringLiteral("out\n").repeated(20);
        run->deliverResult(next);
        QTRY_VERIFY(bottomInView(notebook, second));
    }

    // A run the local pool served says "pre-started sandbox" (RunControl, set by the provider;
    // the result keeps it), and the status bar still says so once it has ended.
    void statusBarSaysPrestartedWhenThePoolServedTheRun()
    {
        RunNotebook notebook;
        RunController runs(nullptr, &notebook);
        RunStatusBar bar;
        RunProgress progress(&runs, &bar, [] { return qint64(0); });
        Run* run = nullptr;
        QVERIFY(runs.startWith([&] { return run = runningRun(QStringLiteral("quick")); }));
        bar.setRunning(true);
        progress.update();
        QVERIFY2(bar.runText().contains(QStringLiteral("fresh sandbox")), qPrintable(bar.runText()));
        run->control().setPrestarted(); // what LocalProvider::create does when its pool has one
        progress.update();
        QVERIFY2(bar.runText().contains(QStringLiteral("pre-started sandbox")), qPrintable(bar.runText()));
        ExecutionResult r = runResult(QStringLiteral("run-1"), QStringLiteral("quick"), QStringLiteral("success"));
        r.prestarted = true;
        run->deliverResult(r);
        bar.setRunning(false);
        QCOMPARE(bar.runText(), QStringLiteral("Ready · last run: local, pre-started sandbox"));
        QCOMPARE(RunProgress::sandboxMode(*run), RunStatusBar::RunMode::Pooled);
        // From the history: the result alone tells.
        Run fromHistory(r);
        QCOMPARE(RunProgress::sandboxMode(fromHistory), RunStatusBar::RunMode::Pooled);
        r.prestarted = false;
        Run cold(r);
        QCOMPARE(RunProgress::sandboxMode(cold), RunStatusBar::RunMode::Fresh);
    }

    void headerShowsTheElapsedTimeWhileRunning()
    {
        RunNotebook notebook;
        Run* run = runningRun(QStringLiteral("slow"));
        RunEntry* entry = notebook.addRunning(run);
        QVERIFY2(entry->headerText().contains(QStringLiteral("running… 0:0")), qPrintable(entry->headerText()));
        QVERIFY(entry->elapsedMs() >= 0);
        run->deliverResult(runResult(QStringLiteral("run-1"), QStringLiteral("slow"), QStringLiteral("success")));
        QVERIFY(!entry->headerText().contains(QStringLiteral("running")));
        QCOMPARE(entry->elapsedMs(), qint64(1234));
    }

    // Issue 17: a validated result is shown at once with its cost pending; finished brings the cost.
    void resultShownBeforeItsCost()
    {
        RunNotebook notebook;
        Run* run = runningRun(QStringLiteral("quick"));
        RunEntry* entry = notebook.addRunning(run);
        ExecutionResult r = runResult(QStringLiteral("run-1"), QStringLiteral("quick"), QStringLiteral("success"));
        r.result = QStringLiteral("42");
        r.costMicros = 0;
        run->deliverValidated(r);
        QVERIFY(!entry->isRunning());
        QVERIFY2(entry->headerText().contains(QStringLiteral("cost pending")), qPrintable(entry->headerText()));
        QVERIFY2(entry->headerText().contains(QStringLiteral("Success"), Qt::CaseInsensitive), qPrintable(entry->headerText()));
        QVERIFY(!run->isFinished() && run->hasResult());
        r.costMicros = 50000;
        r.cleanupConfirmed = true;
        run->deliverResult(r);
        QVERIFY(!entry->headerText().contains(QStringLiteral("cost pending")));
        QVERIFY2(entry->headerText().contains(QStringLiteral("$0.05")), qPrintable(entry->headerText()));
        // A cleanup that could not be confirmed: the same entry says so, at $0.
        Run* other = runningRun(QStringLiteral("stuck"), {}, QStringLiteral("run-2"));
        RunEntry* second = notebook.addRunning(other);
        ExecutionResult s = runResult(QStringLiteral("run-2"), QStringLiteral("stuck"), QStringLiteral("success"));
        other->deliverValidated(s);
        s.status = RunStatus::InfrastructureError;
        s.costMicros = 0;
        s.reason = QStringLiteral("cleanup not confirmed: PID 1 did not exit");
        other->deliverResult(s);
        QVERIFY2(second->headerText().contains(QStringLiteral("$0.00")), qPrintable(second->headerText()));
        QVERIFY(!second->headerText().contains(QStringLiteral("cost pending")));
    }

    void elapsedIsAClock()
    {
        QCOMPARE(formatElapsed(0), QStringLiteral("0:00"));
        QCOMPARE(formatElapsed(7'900), QStringLiteral("0:07"));
        QCOMPARE(formatElapsed(754'000), QStringLiteral("12:34"));
        QCOMPARE(formatElapsed(3'723'000), QStringLiteral("1:02:03"));
        QCOMPARE(formatElapsed(-5), QStringLiteral("0:00"));
    }

    void statusBarNamesProviderModeAndCostWhileRunning()
    {
        RunStatusBar bar;
        bar.setRunProgress(QStringLiteral("local"), RunStatusBar::RunMode::Fresh, 3000, 50000);
        QCOMPARE(bar.runText(), QStringLiteral("Ready")); // not running: nothing to show
        bar.setRunning(true);
        bar.setRunProgress(QStringLiteral("local"), RunStatusBar::RunMode::Fresh, 3000, 50000);
        QCOMPARE(bar.runText(), QStringLiteral("Running 0:03 · local · fresh sandbox · session so far $0.05"));
        bar.setRunProgress(QStringLiteral("local"), RunStatusBar::RunMode::Pooled, 61000, 0);
        QVERIFY(bar.runText().contains(QStringLiteral("pre-started sandbox")));
        bar.setRunProgress(QStringLiteral("daytona"), RunStatusBar::RunMode::Session, 0, 0);
        QVERIFY(bar.runText().contains(QStringLiteral("daytona · session")));
        bar.setRunning(false);
        QCOMPARE(bar.runText(), QStringLiteral("Ready"));
    }
};

QTEST_MAIN(TestLiveFeedback)
#include "test_live_feedback.moc"
