// MemoryWatchdog against real bubblewrap trees: it stops a tree that crosses the limit, once,
// with the message, and leaves alone one that stays under (also when RSS sums would not).
#include "core/providers/local/MemoryWatchdog.h"
#include "SandboxTree.h"

#include <QEventLoop>
#include <QStandardPaths>
#include <QTimer>
#include <QtTest>

using namespace sandpad;
using namespace sandpad::localsandbox;
using sandpad::test::SandboxTree;
using sandpad::test::pythonPrelude;

namespace {

constexpr qint64 MiB = 1024 * 1024;

// Runs the event loop until the tree's bwrap ends (the test's own upper bound, not a timing check).
bool waitForEnd(SandboxTree& tree, int ms = 120000)
{
    if (!tree.running())
        return true;
    QEventLoop loop;
    QObject::connect(&tree.process, &QProcess::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
    return !tree.running();
}

} // namespace

class TestMemoryWatchdog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty())
            QSKIP("bubblewrap is not installed");
    }

    void message()
    {
        QCOMPARE(MemoryWatchdog::exceededMessage(1024 * MiB), QStringLiteral("the run used more than 1024 MiB and was stopped"));
        QCOMPARE(MemoryWatchdog::exceededMessage(1536 * 1024), QStringLiteral("the run used more than 1.5 MiB and was stopped"));
    }

    // Four forked Python processes each growing by 100 MiB until 2 GiB in all: stopped past 512 MiB.
    void killsATreeThatCrossesTheLimit()
    {
        SandboxTree tree;
        QString why;
        QVERIFY2(tree.start(SandboxTree::python(pythonPrelude() +
                                                "for i in range(4):\n"
                                                "    if os.fork() == 0:\n"
                                                "        held = []\n"
                                                "        for j in range(5): held.append(hold(100)); time.sleep(0.05)\n"
                                                "        forever()\n"
                                                "ready(); forever()"),
                            &why),
                 qPrintable(why));
        int kills = 0;
        MemoryWatchdog watchdog(SandboxMemory(tree.pid1()), 512 * MiB, [&] {
            ++kills;
            tree.killPid1();
        });
        watchdog.start();
        QVERIFY(waitForEnd(tree));
        QCOMPARE(kills, 1);
        QVERIFY(watchdog.exceeded());
        QCOMPARE(watchdog.message(), QStringLiteral("the run used more than 512 MiB and was stopped"));
        QVERIFY2(watchdog.peakBytes() > 512 * MiB, qPrintable(watchdog.peak().describe()));
        QVERIFY(watchdog.peak().exact);
        // After the kill nothing is sampled or killed again.
        const int samples = watchdog.samples();
        watchdog.sampleNow();
        QCOMPARE(watchdog.samples(), samples);
        QCOMPARE(kills, 1);
        qInfo("stopped at %s after %d samples", qPrintable(watchdog.peak().describe()), samples);
    }

    // 300 MiB shared by four forked children for a second: RSS sums reach 1.5 GiB, PSS 300 MiB.
    void leavesATreeUnderTheLimitAlone()
    {
        SandboxTree tree;
        QString why;
        QVERIFY2(tree.start(SandboxTree::python(pythonPrelude() +
                                                "x = hold(300)\n"
                                                "for i in range(4):\n"
                                                "    if os.fork() == 0:\n"
                                                "        time.sleep(1.5); os._exit(0)\n"
                                                "ready(); time.sleep(1.5)"),
                            &why),
                 qPrintable(why));
        int kills = 0;
        MemoryWatchdog watchdog(SandboxMemory(tree.pid1()), 1024 * MiB, [&] { ++kills; tree.killPid1(); });
        watchdog.start();
        QVERIFY(waitForEnd(tree));
        QCOMPARE(kills, 0);
        QVERIFY(!watchdog.exceeded());
        QVERIFY(watchdog.message().isEmpty());
        QVERIFY(watchdog.samples() >= 2);
        QVERIFY2(watchdog.peakBytes() >= 300 * MiB && watchdog.peakBytes() < 1024 * MiB,
                 qPrintable(watchdog.peak().describe()));
        // A sample once the sandbox is gone says so and stops the timer.
        QTRY_VERIFY_WITH_TIMEOUT((watchdog.sampleNow(), !watchdog.last().valid()), 30000);
    }

    // JavaScript alike: node's Buffers and its child processes.
    void killsNodeAndItsChildren()
    {
        const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
        if (node.isEmpty() || !node.startsWith(QLatin1String("/usr/")))
            QSKIP("no node under /usr");
        SandboxTree tree;
        QString why;
        const QString code = QStringLiteral(
            "const { fork } = require('child_process');"
            "if (process.argv[2] === 'child') {"
            "  const held = []; setInterval(() => held.push(Buffer.alloc(64 << 20, 1)), 20);"
            "} else {"
            "  for (let i = 0; i < 3; i++) fork(__filename, ['child']);"
            "  console.log('ready');"
            "  setInterval(() => {}, 1000);"
            "}");
        // fork() needs a file: write the script to /tmp inside, then run it.
        QVERIFY2(tree.start({QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                             QStringLiteral("cat > /tmp/a.js <<'EOF'\n%1\nEOF\nexec %2 /tmp/a.js").arg(code, node)},
                            &why),
                 qPrintable(why));
        int kills = 0;
        MemoryWatchdog watchdog(SandboxMemory(tree.pid1()), 768 * MiB, [&] { ++kills; tree.killPid1(); });
        watchdog.start();
        QVERIFY(waitForEnd(tree));
        QCOMPARE(kills, 1);
        QVERIFY2(watchdog.peak().processes >= 4, qPrintable(watchdog.peak().describe()));
        QVERIFY(watchdog.peakBytes() > 768 * MiB);
    }
};

QTEST_GUILESS_MAIN(TestMemoryWatchdog)
#include "test_memory_watchdog.moc"
