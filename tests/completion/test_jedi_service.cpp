// The Python language service for real: Jedi in a bubblewrap sandbox of its own. What it answers
// (completions, a calltip, a docstring), that a pathological buffer gets a late answer instead of
// a hung app, that it comes back after being killed, that nothing is left after shutdown, and
// that the buffer cannot reach the host's files through Jedi's file access.
#include "core/completion/CompletionService.h"
#include "tests/support/ProcessChecks.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QtTest>

#include <csignal>
#include <cstdio>
#include <unistd.h>

using namespace sandpad;

namespace {

// Not running any more: absent, or a zombie waiting for the host's init (PID 1 of a sandbox is
// bwrap's child, reparented when bwrap is reaped).
bool gone(int pid)
{
    const QByteArray stat = readProcFile(pid, "stat");
    return pid > 0 && (stat.isEmpty() || stat.mid(stat.lastIndexOf(')') + 2, 1) == "Z");
}

} // namespace

class TestJediService : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<CompletionService> m_service;

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists("/usr/bin/bwrap"))
            QSKIP("bubblewrap is not installed");
        if (!QFileInfo::exists("/usr/lib/python3/dist-packages/jedi"))
            QSKIP("python3-jedi is not installed");
        // A deadline that a loaded machine meets too: these tests are about answers, not speed.
        CompletionService::Options options;
        options.deadlineMs = 10000;
        m_service = std::make_unique<CompletionService>(options);
        QVERIFY2(m_service->waitReady(180000), qPrintable(m_service->lastError()));
    }

    void completesModuleAttributes()
    {
        const AssistAnswer answer = m_service->ask(AssistRequest::atEnd(AssistKind::Complete, "import os; os.pa"), 30000);
        QVERIFY2(answer.ok, qPrintable(answer.error));
        QVERIFY2(answer.names().contains("path"), qPrintable(answer.names().join(' ')));
        QVERIFY(answer.names().contains("pathsep"));
    }

    void completesWhatTheWarmUpPrepared()
    {
        const AssistAnswer answer = m_service->ask(AssistRequest::atEnd(AssistKind::Complete, "import numpy as np\nnp.lins"), 30000);
        QVERIFY2(answer.ok, qPrintable(answer.error));
        QVERIFY(answer.names().contains("linspace"));
    }

    void givesACalltipWithTheCurrentParameter()
    {
        AssistAnswer answer = m_service->ask(AssistRequest::atEnd(AssistKind::Signatures, "import os\nos.path.join("), 30000);
        QVERIFY2(answer.ok, qPrintable(answer.error));
        QVERIFY(!answer.signatures.isEmpty());
        QCOMPARE(answer.signatures.first().name, QStringLiteral("join"));
        QVERIFY(answer.signatures.first().text.startsWith("join("));
        QCOMPARE(answer.signatures.first().index, 0);
        answer = m_service->ask(AssistRequest::atEnd(AssistKind::Signatures, "def area(width, height=2):\n    pass\narea(3, "), 30000);
        QVERIFY2(answer.ok, qPrintable(answer.error));
        QCOMPARE(answer.signatures.size(), 1);
        QCOMPARE(answer.signatures.first().params, (QStringList{"width", "height=2"}));
        QCOMPARE(answer.signatures.first().index, 1);
    }

    void givesTheDocstring()
    {
        AssistRequest request = AssistRequest::atEnd(AssistKind::Help, "import os\nos.path.join");
        request.column = 9; // inside "join"
        const AssistAnswer answer = m_service->ask(request, 30000);
        QVERIFY2(answer.ok, qPrintable(answer.error));
        QVERIFY(!answer.help.isEmpty());
        QCOMPARE(answer.help.first().fullName, QStringLiteral("os.path.join"));
        QVERIFY2(answer.help.first().doc.contains("Join"), qPrintable(answer.help.first().doc));
    }

    void theNewestRequestWins()
    {
        // Three completions in a row: the first may already be running, the second is replaced by
        // the third while it waits; only answers to requests nothing overtook are delivered.
        QSignalSpy spy(m_service.get(), &CompletionService::answered);
        m_service->request(AssistRequest::atEnd(AssistKind::Complete, "import os\nos.a"));
        const quint64 second = m_service->request(AssistRequest::atEnd(AssistKind::Complete, "import os\nos.c"));
        const AssistAnswer third = m_service->ask(AssistRequest::atEnd(AssistKind::Complete, "import os\nos.ge"), 30000);
        QVERIFY2(third.ok, qPrintable(third.error));
        QVERIFY(third.names().contains("getcwd"));
        QCoreApplication::processEvents();
        for (const QList<QVariant>& args : spy)
            QVERIFY(args.first().value<AssistAnswer>().id != second);
        QVERIFY(spy.size() <= 2);
    }

    void aTooLargeBufferIsRefused()
    {
        const AssistAnswer answer = m_service->ask(AssistRequest::atEnd(AssistKind::Complete, QString(2 * 1024 * 1024, QLatin1Char('x'))), 30000);
        QVERIFY(!answer.ok);
        QCOMPARE(answer.error, QStringLiteral("too large"));
    }

    void aPathologicalBufferIsLateNotHung()
    {
        // 15,000 functions (600 KB): far more than a 100 ms deadline for the parse alone. The answer is
        // "late" (the service's own alarm, or the host killing it past the grace), and the
        // service answers the next request.
        CompletionService& service = *m_service;
        QString source;
        for (int i = 0; i < 15000; ++i)
            source += QStringLiteral("def f%1(x):\n    return f%2(x) + %1\n").arg(i).arg(i + 1);
        source += QStringLiteral("f0(1).");
        AssistRequest pathological = AssistRequest::atEnd(AssistKind::Complete, source);
        pathological.deadlineMs = 100;
        const AssistAnswer late = service.ask(pathological, 60000);
        QVERIFY(!late.ok);
        QCOMPARE(late.error, QStringLiteral("late"));
        QVERIFY(service.waitReady(180000));
        const AssistAnswer next = service.ask(AssistRequest::atEnd(AssistKind::Complete, "import os; os.pa"), 60000);
        QVERIFY2(next.ok, qPrintable(next.error));
        QVERIFY(next.names().contains("path"));
    }

    void comesBackAfterBeingKilled()
    {
        const int pid1 = m_service->servicePid1();
        QVERIFY(pid1 > 0);
        const int startsBefore = m_service->starts();
        QCOMPARE(::kill(pid1, SIGKILL), 0);
        // Gone before the next question: a kept answer comes in well under a millisecond, sooner
        // than the kill goes through the sandbox.
        QTRY_VERIFY_WITH_TIMEOUT(gone(pid1), 10000);
        AssistAnswer answer;
        for (int attempt = 0; attempt < 3 && !answer.ok; ++attempt)
            answer = m_service->ask(AssistRequest::atEnd(AssistKind::Complete, "import os; os.pa"), 180000);
        QVERIFY2(answer.ok, qPrintable(answer.error));
        QVERIFY(answer.names().contains("path"));
        QCOMPARE(m_service->starts(), startsBefore + 1);
        QVERIFY(m_service->servicePid1() != pid1);
    }

    void cannotSeeHostFiles()
    {
        // Jedi completes paths inside strings: what it lists is the sandbox's view only (the
        // read-only system and the files the policy places), never the host's /etc or homes.
        const QStringList allowedInEtc{"ld.so.cache", "alternatives/", "matplotlibrc", "fonts/", "localtime",
                                       "mime.types", "passwd", "group", "resolv.conf"};
        const AssistAnswer etc = m_service->ask(AssistRequest::atEnd(AssistKind::Complete, "open('/etc/"), 30000);
        QVERIFY2(etc.ok, qPrintable(etc.error));
        QVERIFY(!etc.completions.isEmpty()); // it does list the sandbox's /etc
        for (const QString& name : etc.names()) {
            QString bare = name;
            if (bare.endsWith(QLatin1Char('\'')))
                bare.chop(1);
            QVERIFY2(allowedInEtc.contains(bare), qPrintable("host file visible: /etc/" + bare));
        }
        const AssistAnswer home = m_service->ask(AssistRequest::atEnd(AssistKind::Complete, "open('/home/"), 30000);
        QCOMPARE(home.names(), QStringList{"sandbox/"}); // the sandbox's own HOME, a tmpfs
        QStringList hostDirs{QDir::homePath() + "/", "/root/", "/work/", "/var/", "/run/", "/mnt/"};
        hostDirs << QString::fromUtf8(SANDPAD_SOURCE_DIR) + "/";
        for (const QString& dir : hostDirs) {
            const AssistAnswer answer = m_service->ask(AssistRequest::atEnd(AssistKind::Complete, "open('" + dir), 30000);
            QVERIFY2(answer.ok, qPrintable(answer.error));
            QVERIFY2(answer.completions.isEmpty(), qPrintable(dir + ": " + answer.names().join(' ')));
        }
        // Nor does an import reach a module of the host's home or of this source tree.
        const AssistAnswer import = m_service->ask(AssistRequest::atEnd(AssistKind::Complete, "import sandpad_"), 30000);
        QVERIFY(import.names().isEmpty());
    }

    void aShutdownWhileStartingEndsTheStart()
    {
        // The app quits while the service still warms up: the start gives up (no waiting for
        // the warm-up) and its sandbox is confirmed gone.
        const QList<int> before = descendantsWith(::getpid(), "jedi_service.py");
        CompletionService starting;
        starting.start();
        QList<int> started;
        QTRY_VERIFY_WITH_TIMEOUT(starting.starts() == 1
                                     && (started = descendantsWith(::getpid(), "jedi_service.py")).size() > before.size(),
                                 60000);
        QVERIFY(!starting.isReady());
        const CleanupReport report = starting.shutdown();
        QVERIFY2(report.confirmed, qPrintable(report.detail));
        for (int pid : before)
            started.removeAll(pid);
        QCOMPARE(stillRunningWith(started, "jedi_service.py"), 0);
    }

    void nothingOutlivesAnAppThatDies()
    {
        // This binary again, as an "app" that starts the service and is then SIGKILLed: the
        // sandbox's lifeline ends it, nothing of it stays.
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("SANDPAD_TEST_JEDI_APP", "1");
        app.setProcessEnvironment(env);
        app.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(app.waitForStarted());
        QVERIFY(app.waitForReadyRead(180000));
        QCOMPARE(app.readLine().trimmed(), QByteArray("ready"));
        // Its service, told apart from those of other suites running at once by its ancestry.
        const QList<int> service = descendantsWith(int(app.processId()), "jedi_service.py");
        QVERIFY(!service.isEmpty());
        ::kill(pid_t(app.processId()), SIGKILL);
        QVERIFY(app.waitForFinished());
        QTRY_COMPARE_WITH_TIMEOUT(stillRunningWith(service, "jedi_service.py"), 0, 20000);
    }

    void nothingIsLeftAfterShutdown()
    {
        const int pid1 = m_service->servicePid1();
        const int interpreter = m_service->interpreterPid();
        QVERIFY(pid1 > 0 && interpreter > 0);
        const QList<int> before = childProcessesOf(::getpid());
        const QList<int> service = descendantsWith(::getpid(), "jedi_service.py");
        QVERIFY(!service.isEmpty());
        const CleanupReport report = m_service->shutdown();
        QVERIFY2(report.confirmed, qPrintable(report.detail));
        QVERIFY(gone(pid1));
        QVERIFY(gone(interpreter));
        QCOMPARE(stillRunningWith(service, "jedi_service.py"), 0);
        QCOMPARE(descendantsWith(::getpid(), "jedi_service.py"), QList<int>{});
        const QList<int> children = childProcessesOf(::getpid());
        for (int pid : children)
            QVERIFY2(before.contains(pid), qPrintable(QStringLiteral("child %1 left").arg(pid)));
        QVERIFY(children.size() < before.size()); // its bwrap was one of them
        const AssistAnswer after = m_service->ask(AssistRequest::atEnd(AssistKind::Complete, "import os; os.pa"), 5000);
        QVERIFY(!after.ok);
        QVERIFY(after.error.startsWith("unavailable"));
        m_service.reset();
    }
};

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (qEnvironmentVariableIsSet("SANDPAD_TEST_JEDI_APP")) { // nothingOutlivesAnAppThatDies
        CompletionService service;
        if (!service.waitReady(180000))
            return 1;
        std::printf("ready\n");
        std::fflush(stdout);
        return app.exec(); // until killed
    }
    TestJediService test;
    return QTest::qExec(&test, argc, argv);
}
#include "test_jedi_service.moc"
