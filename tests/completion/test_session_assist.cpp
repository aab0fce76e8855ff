// Completion, calltips and help from a live notebook session (issue 16): jedi.Interpreter inside
// the session's real bubblewrap sandbox over its `__main__` namespace (NotebookSession::askIdle,
// session_complete.py), through the real Executor and the local provider, and merged with the
// language service's answer in the editor (PythonAssist, offscreen). Names and a signature from
// earlier cells; a property, __dir__ and __getattr__ with side effects are not run, nor code that
// claims a library's co_filename, a list element's, a __class__ property or a cell's trace function
// (issue 26); while a cell
// runs the session is not asked (the service answers, the cell and its state are untouched); a
// session that died falls back to the service and the next cell starts a fresh one.
#include "ExecutionChecks.h"
#include "TempDatabase.h"

#include "core/accounting/UsageLedger.h"
#include "core/completion/CompletionService.h"
#include "core/completion/JediProtocol.h"
#include "core/engine/Executor.h"
#include "core/providers/local/LocalProvider.h"
#include "core/run/ExecutionRequest.h"
#include "core/run/ExecutionResult.h"
#include "core/run/Run.h"
#include "core/session/NotebookSession.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/PythonAssist.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

using namespace sandpad;

namespace {

constexpr int kDeadlineMs = 15000; // a loaded machine's first answer imports Jedi in the session

} // namespace

class TestSessionAssist : public QObject {
    Q_OBJECT

private:
    TempDatabase m_data;
    std::shared_ptr<LocalProvider> m_provider;
    std::unique_ptr<UsageLedger> m_ledger;
    std::unique_ptr<Executor> m_executor;
    std::unique_ptr<NotebookSession> m_session;
    std::unique_ptr<CompletionService> m_service;
    std::unique_ptr<CodeEditor> m_editor;     // a Python tab whose session is m_session
    std::unique_ptr<PythonAssist> m_assist;

    ExecutionResult exec(const QString& code)
    {
        return waitForResult(m_session->execute(Language::Python, code, QStringLiteral("cell")));
    }

    // The session's own answer (error: why it was not asked or did not answer).
    AssistAnswer askSession(const AssistRequest& request, QString* error = nullptr)
    {
        QByteArray answer;
        QString why;
        bool got = false;
        QEventLoop loop;
        m_session->askIdle(JediProtocol::sessionRequest(request, kDeadlineMs), kDeadlineMs,
                           [&](const QByteArray& a, const QString& e) {
                               answer = a;
                               why = e;
                               got = true;
                               loop.quit();
                           });
        QTimer::singleShot(kDeadlineMs + 10000, &loop, &QEventLoop::quit);
        if (!got)
            loop.exec();
        if (error)
            *error = got ? why : QStringLiteral("no callback");
        AssistAnswer parsed = why.isEmpty() && got ? JediProtocol::parseAnswer(answer, request.kind) : AssistAnswer{};
        if (!why.isEmpty())
            parsed.error = why;
        return parsed;
    }

    // `os.` in the editor: the list opens with the service's names (getcwd).
    bool dotOpensTheServicesList()
    {
        m_editor->setText(QStringLiteral("import os\nos"));
        m_editor->setCursorPosition(1, 2);
        m_editor->setFocus();
        QTest::keyClick(m_editor.get(), Qt::Key_Period);
        return QTest::qWaitFor([this] { return m_editor->isListActive(); }, 30000)
            && m_editor->lastCompletions().contains(QStringLiteral("getcwd"));
    }

    QString exists(const QString& name)
    {
        const ExecutionResult r = exec(QStringLiteral("import os\nos.path.exists(%1)").arg(name));
        return r.result.value_or(QStringLiteral("no result: ") + r.stderrText.left(300));
    }

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty()
            || !QFileInfo::exists(QStringLiteral("/usr/lib/python3/dist-packages/jedi")))
            QSKIP("needs bubblewrap and python3-jedi");
        QVERIFY2(m_data.open(), qPrintable(m_data.error()));
        m_provider = std::make_shared<LocalProvider>();
        m_provider->setPoolSize(0);
        m_ledger = std::make_unique<UsageLedger>(m_data.db());
        m_executor = std::make_unique<Executor>(m_provider, m_ledger.get());
        ExecutorConfig config;
        config.deadlineSeconds = 120;
        m_executor->setConfig(config);
        m_session = std::make_unique<NotebookSession>(m_executor.get());
        CompletionService::Options options;
        options.deadlineMs = 10000; // these tests are about answers, not speed
        m_service = std::make_unique<CompletionService>(options);
        m_editor = std::make_unique<CodeEditor>();
        m_editor->setLanguage(Language::Python);
        m_editor->resize(800, 400);
        m_editor->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_editor.get()));
        m_assist = std::make_unique<PythonAssist>(m_service.get());
        m_assist->setSessionDeadlineMs(kDeadlineMs);
        m_assist->attach(m_editor.get(), [this] { return m_session.get(); });
    }

    void cleanupTestCase()
    {
        m_assist.reset();
        m_editor.reset();
        m_session.reset();
        if (m_service)
            QVERIFY(m_service->shutdown().confirmed);
        m_executor.reset();
        m_ledger.reset();
        m_provider.reset();
    }

    void namesFromEarlierCellsComplete()
    {
        const ExecutionResult first = exec(QStringLiteral(
            "import pandas as pd\n"
            "df = pd.DataFrame({'alpha': [1, 2], 'beta_total': [3.5, 4.5]})\n"
            "def scale(values, factor=2.5, *, clip=None):\n"
            "    '''Scales the values by factor.'''\n"
            "    return values\n"
            "threshold_value = 42\n"));
        QCOMPARE(first.status, RunStatus::Success);
        // The buffer says nothing about them: only the session knows.
        AssistAnswer a = askSession(AssistRequest::atEnd(AssistKind::Complete, QStringLiteral("df.al")));
        QVERIFY2(a.ok, qPrintable(a.error));
        QVERIFY2(a.names().contains(QStringLiteral("alpha")), qPrintable(a.names().join(u' ')));
        a = askSession(AssistRequest::atEnd(AssistKind::Complete, QStringLiteral("df.")));
        QVERIFY(a.names().contains(QStringLiteral("beta_total")));
        QVERIFY(a.names().contains(QStringLiteral("groupby"))); // the DataFrame's own, too
        // Below the cell that made it, as in a notebook's buffer: the live value, not the text's
        // static DataFrame (Jedi prefers the text's definition: the session asks about the statement).
        a = askSession(AssistRequest::atEnd(AssistKind::Complete, QStringLiteral(
            "import pandas as pd\ndf = pd.DataFrame({'other': [1]})\nfor i in range(2):\n    total = (1 +\n        df.al")));
        QVERIFY2(a.names().contains(QStringLiteral("alpha")), qPrintable(a.names().join(u' ')));
        // In a function's body the name may be a parameter: the live global is not offered.
        a = askSession(AssistRequest::atEnd(AssistKind::Complete, QStringLiteral("def f(df):\n    return df.al")));
        QVERIFY2(a.ok, qPrintable(a.error));
        QVERIFY2(!a.names().contains(QStringLiteral("alpha")), qPrintable(a.names().join(u' ')));
        a = askSession(AssistRequest::atEnd(AssistKind::Complete, QStringLiteral("threshold_v")));
        QCOMPARE(a.names(), QStringList{QStringLiteral("threshold_value")});
        a = askSession(AssistRequest::atEnd(AssistKind::Signatures, QStringLiteral("scale(")));
        QVERIFY2(a.ok && !a.signatures.isEmpty(), qPrintable(a.error));
        QVERIFY2(a.signatures.first().text.contains(QStringLiteral("factor=2.5")), qPrintable(a.signatures.first().text));
        QCOMPARE(a.signatures.first().index, 0);
        a = askSession(AssistRequest::atEnd(AssistKind::Help, QStringLiteral("scale")));
        QVERIFY2(a.ok && !a.help.isEmpty(), qPrintable(a.error));
        QVERIFY(a.help.first().doc.contains(QStringLiteral("Scales the values")));
        // The service alone, over the same buffer, has none of them.
        QVERIFY2(m_service->waitReady(180000), qPrintable(m_service->lastError()));
        const AssistAnswer alone = m_service->ask(AssistRequest::atEnd(AssistKind::Complete, QStringLiteral("df.al")), 30000);
        QVERIFY(!alone.names().contains(QStringLiteral("alpha")));
        // Asking changed nothing: the state is as the cells left it, and cells count on.
        const ExecutionResult after = exec(QStringLiteral("list(df.columns), threshold_value"));
        QCOMPARE(after.result.value_or(QString()), QStringLiteral("(['alpha', 'beta_total'], 42)"));
        QCOMPARE(m_session->executionCount(), 2);
    }

    void codeWithSideEffectsIsNotRun()
    {
        // A property, __dir__ and __getattr__ that would leave a file (and print) when run. (After
        // each cell the session's runtime - the variable listing, the open-files flush - reads a
        // few attributes through __getattr__: those calls are not counted.)
        QCOMPARE(exec(QStringLiteral(
            "class Widget:\n"
            "    @property\n"
            "    def prop(self):\n"
            "        open('prop_ran', 'w').write('x')\n"
            "        print('PROPERTY RAN')\n"
            "        return 'text'\n"
            "    def method(self, a, b=1):\n"
            "        return a\n"
            "class Sneaky:\n"
            "    def __dir__(self):\n"
            "        open('dir_ran', 'w').write('x')\n"
            "        return ['ghost']\n"
            "    def __getattr__(self, name):\n"
            "        import sys\n"
            "        if not sys._getframe(1).f_code.co_filename.startswith('/sandpad/'):\n" // not the session's own
            "            open('getattr_ran', 'w').write('x')\n"
            "        raise AttributeError(name)\n"
            "w = Widget()\ns = Sneaky()\n")).status, RunStatus::Success);
        for (const QString& source : {QStringLiteral("w."), QStringLiteral("w.prop."), QStringLiteral("w.prop.up"),
                                      QStringLiteral("s."), QStringLiteral("s.ghost.")}) {
            const AssistAnswer a = askSession(AssistRequest::atEnd(AssistKind::Complete, source));
            QVERIFY2(a.ok, qPrintable(source + QStringLiteral(": ") + a.error));
            if (source == QStringLiteral("w.")) {
                QVERIFY(a.names().contains(QStringLiteral("prop")));   // named, not read
                QVERIFY(a.names().contains(QStringLiteral("method")));
            }
        }
        QVERIFY(askSession(AssistRequest::atEnd(AssistKind::Help, QStringLiteral("w.prop"))).ok);
        QVERIFY(askSession(AssistRequest::atEnd(AssistKind::Signatures, QStringLiteral("w.prop("))).ok);
        QVERIFY(askSession(AssistRequest::atEnd(AssistKind::Signatures, QStringLiteral("s.ghost("))).ok);
        QCOMPARE(exists(QStringLiteral("'prop_ran'")), QStringLiteral("False"));
        QCOMPARE(exists(QStringLiteral("'dir_ran'")), QStringLiteral("False"));
        QCOMPARE(exists(QStringLiteral("'getattr_ran'")), QStringLiteral("False"));
        // The test can fail: reading the property does leave the file.
        QCOMPARE(exec(QStringLiteral("w.prop\nos.path.exists('prop_ran')")).result.value_or(QString()), QStringLiteral("True"));
    }

    void claimsAndHiddenValuesDoNotRunUserCode()
    {
        // Issue 26: what an object says about itself does not make its code a library's, and a
        // value inside a value is the user's too. Each leaves a file when its code runs: special
        // methods compiled with a co_filename under dist-packages, a list element's __dir__, a
        // __class__ property (isinstance reads it), a default's __repr__ (the calltip), the
        // cell's trace function (it would see every call of the answer). All of them ran before.
        QCOMPARE(exec(QStringLiteral(
            "import sys\n"
            "def mark(name):\n"
            "    open(name, 'w').write('x')\n"
            "claimed = {}\n"
            "exec(compile(\"def __dir__(self):\\n    mark('claim_ran')\\n    return ['ghost']\\n\",\n"
            "             '/usr/lib/python3/dist-packages/jedi/api/__init__.py', 'exec'), globals(), claimed)\n"
            "Claimed = type('Claimed', (), {'__dir__': claimed['__dir__'], '__module__': 'pandas.core.frame'})\n"
            "claimed_value = Claimed()\n"
            "class Hidden:\n"
            "    def __dir__(self):\n"
            "        mark('element_ran')\n"
            "        return ['ghost']\n"
            "hidden_list = [Hidden()]\n"
            "class Liar:\n"
            "    @property\n"
            "    def __class__(self):\n" // the variable listing after each cell reads it too: not counted
            "        caller = sys._getframe(1).f_code.co_filename\n"
            "        if 'jedi' in caller or 'session_complete' in caller:\n"
            "            mark('class_ran')\n"
            "        return int\n"
            "liar = Liar()\n"
            "class Setting:\n"
            "    def __repr__(self):\n"
            "        mark('repr_ran')\n"
            "        return 'Setting()'\n"
            "def configured(a, b=Setting()):\n"
            "    return a\n"
            "def cell_trace(frame, event, arg):\n"
            "    if 'jedi' in frame.f_code.co_filename:\n"
            "        mark('trace_ran')\n"
            "    return None\n"
            "sys.settrace(cell_trace)\n")).status, RunStatus::Success);
        for (const QString& source : {QStringLiteral("claimed_value."), QStringLiteral("hidden_list[0]."),
                                      QStringLiteral("liar."), QStringLiteral("liar"), QStringLiteral("import os\nos.path.jo")})
            askSession(AssistRequest::atEnd(AssistKind::Complete, source)); // answered or stopped: either way
        askSession(AssistRequest::atEnd(AssistKind::Signatures, QStringLiteral("configured(")));
        askSession(AssistRequest::atEnd(AssistKind::Help, QStringLiteral("configured")));
        for (const char* file : {"claim_ran", "element_ran", "class_ran", "repr_ran", "trace_ran"})
            QCOMPARE(exists(QStringLiteral("'%1'").arg(QLatin1String(file))), QStringLiteral("False"));
        // Still answered: a plain name of the session.
        const AssistAnswer a = askSession(AssistRequest::atEnd(AssistKind::Complete, QStringLiteral("hidden_l")));
        QCOMPARE(a.names(), QStringList{QStringLiteral("hidden_list")});
        // The test can fail: reading the value does leave the file.
        QCOMPARE(exec(QStringLiteral("sys.settrace(None)\ndir(hidden_list[0])\nos.path.exists('element_ran')")).result.value_or(QString()),
                 QStringLiteral("True"));
    }

    void whileACellRunsTheServiceAnswers()
    {
        QCOMPARE(exec(QStringLiteral("kept_before = [1, 2, 3]")).status, RunStatus::Success);
        Run* run = m_session->execute(Language::Python, QStringLiteral(
            "import time\nprint('busy', flush=True)\ntime.sleep(3)\nmade_during = len(kept_before)\n"), QStringLiteral("cell"));
        QVERIFY(waitForOutput(run, QStringLiteral("busy")));
        QVERIFY(m_session->isRunning());
        QString error;
        askSession(AssistRequest::atEnd(AssistKind::Complete, QStringLiteral("kept_")), &error);
        QCOMPARE(error, QStringLiteral("busy")); // not asked, not waited for
        QVERIFY(!run->isFinished());

        // In the editor: the service's names answer at once, the cell goes on.
        CodeEditor& editor = *m_editor;
        QVERIFY(m_service->waitReady(180000));
        QVERIFY(dotOpensTheServicesList());
        const ExecutionResult r = waitForResult(run);
        QCOMPARE(r.status, RunStatus::Success);
        QCOMPARE(exec(QStringLiteral("made_during")).result.value_or(QString()), QStringLiteral("3"));

        // Idle again: the session's names come in the editor, merged with the service's.
        editor.setText(QStringLiteral("import os\nmade_"));
        editor.setCursorPosition(1, 5);
        QTest::keyClick(&editor, Qt::Key_Space, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(editor.lastCompletions().contains(QStringLiteral("made_during")), 30000);
        editor.setText(QStringLiteral("kept_before."));
        editor.setCursorPosition(0, 12);
        QTest::keyClick(&editor, Qt::Key_Space, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(editor.lastCompletions().contains(QStringLiteral("append")), 30000);
    }

    void aWarmedSessionAnswersWithinTheEditorsDeadline()
    {
        // As in the app: the session warms its Jedi after each Python cell, and the editor waits
        // for the session's answer only PythonAssist::kSessionDeadlineMs (a pandas DataFrame's
        // first completion takes longer than that: seconds, parsing pandas).
        NotebookSession session(m_executor.get());
        session.setAssistWarmUp(true);
        QSignalSpy warmed(&session, &NotebookSession::assistWarmed);
        QCOMPARE(waitForResult(session.execute(Language::Python, QStringLiteral(
                     "import pandas as pd\ndf = pd.DataFrame({'alpha': [1, 2], 'beta': [3, 4]})\n"), QStringLiteral("cell")))
                     .status, RunStatus::Success);
        // Its warm-up has begun: the next cell does not wait for it, the warm-up gives way.
        QElapsedTimer clock;
        clock.start();
        const ExecutionResult next = waitForResult(session.execute(Language::Python, QStringLiteral("rows = len(df)\nrows"), QStringLiteral("cell")));
        QCOMPARE(next.status, RunStatus::Success);
        QCOMPARE(next.result.value_or(QString()), QStringLiteral("2"));
        qInfo("a cell sent while the warm-up ran finished %lld ms later", qint64(clock.elapsed()));
        QTRY_VERIFY_WITH_TIMEOUT(warmed.size() >= 1, 30000);
        QCOMPARE(warmed.at(0).at(0).toBool(), false); // cut short for that cell
        // The warm-up after that cell runs to its end.
        QTRY_VERIFY_WITH_TIMEOUT(warmed.size() >= 2, NotebookSession::kWarmUpDeadlineMs + 10000);
        QVERIFY(warmed.at(1).at(0).toBool());

        // An editor of the tab, with the app's deadline: the columns come from the session.
        CodeEditor editor;
        editor.setLanguage(Language::Python);
        editor.resize(600, 300);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        PythonAssist assist(m_service.get());
        QCOMPARE(assist.sessionDeadlineMs(), PythonAssist::kSessionDeadlineMs);
        assist.attach(&editor, [&session] { return &session; });
        QVERIFY(m_service->waitReady(180000));
        for (const QString& column : {QStringLiteral("alpha"), QStringLiteral("beta")}) {
            // The tab's text: the cell that made df, then the line being typed.
            editor.setText(QStringLiteral("import pandas as pd\ndf = pd.DataFrame({'alpha': [1, 2], 'beta': [3, 4]})\ndf.")
                           + column.left(3));
            editor.setCursorPosition(2, 6);
            editor.setFocus();
            clock.restart();
            QTest::keyClick(&editor, Qt::Key_Space, Qt::ControlModifier);
            QTRY_VERIFY_WITH_TIMEOUT(editor.lastCompletions().contains(column), 10000);
            qInfo("df.%s: the session's columns in the editor after %lld ms", qPrintable(column.left(3)), qint64(clock.elapsed()));
        }
    }

    void typingOnWhileTheSessionAnswersQueuesTheNewest()
    {
        // The first `df.` of a session without the warm-up takes seconds: the keystrokes typed
        // meanwhile are not refused ("busy", the service's names alone) - the newest goes next,
        // the one it replaced is answered "overtaken".
        NotebookSession session(m_executor.get());
        QCOMPARE(waitForResult(session.execute(Language::Python, QStringLiteral(
                     "import pandas as pd\ndf = pd.DataFrame({'alpha': [1], 'beta': [2]})\n"), QStringLiteral("cell"))).status,
                 RunStatus::Success);
        QStringList errors(3);
        QList<AssistAnswer> answers(3);
        int got = 0;
        const QStringList sources{QStringLiteral("df."), QStringLiteral("df.a"), QStringLiteral("df.al")};
        for (int i = 0; i < 3; ++i)
            session.askIdle(JediProtocol::sessionRequest(AssistRequest::atEnd(AssistKind::Complete, sources[i]), kDeadlineMs), kDeadlineMs,
                            [&, i](const QByteArray& a, const QString& e) {
                                errors[i] = e;
                                if (e.isEmpty())
                                    answers[i] = JediProtocol::parseAnswer(a, AssistKind::Complete);
                                ++got;
                            });
        QTRY_COMPARE_WITH_TIMEOUT(got, 3, kDeadlineMs * 2 + 10000);
        QVERIFY2(errors[0].isEmpty() || errors[0] == QStringLiteral("late"), qPrintable(errors[0]));
        QCOMPARE(errors[1], QStringLiteral("overtaken"));
        QVERIFY2(errors[2].isEmpty(), qPrintable(errors[2]));
        QVERIFY2(answers[2].names().contains(QStringLiteral("alpha")), qPrintable(answers[2].names().join(u' ')));
        QCOMPARE(waitForResult(session.execute(Language::Python, QStringLiteral("len(df)"), QStringLiteral("cell"))).result.value_or(QString()),
                 QStringLiteral("1")); // the session is as it was
    }

    void anIdleEndWaitsForTheWarmUp()
    {
        // The idle limit passes while the warm-up parses pandas (some 2 s): the session ends once
        // it is done, not never (the idle end used to give up when it found the session busy).
        NotebookSession session(m_executor.get());
        session.setAssistWarmUp(true);
        session.setIdleSeconds(1);
        QSignalSpy warmed(&session, &NotebookSession::assistWarmed);
        QSignalSpy ended(&session, &NotebookSession::sessionEnded);
        QCOMPARE(waitForResult(session.execute(Language::Python, QStringLiteral("import pandas as pd\nframe = pd.DataFrame({'a': [1]})\n"),
                                               QStringLiteral("cell"))).status, RunStatus::Success);
        QTRY_VERIFY_WITH_TIMEOUT(!ended.isEmpty(), 40000);
        QCOMPARE(ended.first().first().toString(), QStringLiteral("idle for 1 s"));
        QCOMPARE(warmed.size(), 1); // it ran (to its end or its deadline) before the end
    }

    void aSessionThatDiedFallsBack()
    {
        // The interpreter ends by itself a moment after its cell (a thread's os._exit): idle, dead.
        QCOMPARE(exec(QStringLiteral(
            "import os, threading, time\n"
            "threading.Thread(target=lambda: (time.sleep(0.5), os._exit(0)), daemon=True).start()\n"
            "doomed = 1\n")).status, RunStatus::Success);
        QTest::qWait(1500);
        QString error;
        const AssistAnswer gone = askSession(AssistRequest::atEnd(AssistKind::Complete, QStringLiteral("doo")), &error);
        QVERIFY(!gone.ok);
        QVERIFY2(!error.isEmpty(), "a dead session has no answer");

        QVERIFY(dotOpensTheServicesList());
        // The next cell starts a fresh session, whose names complete again.
        const ExecutionResult fresh = exec(QStringLiteral("reborn_value = 5"));
        QCOMPARE(fresh.status, RunStatus::Success);
        const AssistAnswer again = askSession(AssistRequest::atEnd(AssistKind::Complete, QStringLiteral("reborn_")));
        QCOMPARE(again.names(), QStringList{QStringLiteral("reborn_value")});
    }
};

QTEST_MAIN(TestSessionAssist)
#include "test_session_assist.moc"
