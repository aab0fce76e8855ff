// Attacks on the run's files (issue 14), cold and pre-started, through the real Executor: the
// scratch working directory filled past its limit, writes outside it, links planted in it (to
// host paths, /proc/1/environ, the wrapper, a folder), a FIFO, a device node, a huge sparse file,
// 100,000 tiny files. Artifacts are read without following links, within ResultLimits, and the
// run's text output is kept whatever the folder holds.
#include "core/engine/Executor.h"
#include "core/providers/local/LocalProvider.h"
#include "core/providers/local/SandboxPool.h"
#include "core/run/ExecutionRequest.h"
#include "core/run/ExecutionResult.h"
#include "core/runtime/ResultLimits.h"

#include <QStandardPaths>
#include <QTest>

using namespace sandpad;

namespace {

QString describe(const ExecutionResult& r)
{
    return QStringLiteral("status=%1 reason=%2\nstdout=%3\nstderr=%4\nerror=%5")
        .arg(runStatusName(r.status), r.reason, r.stdoutText.left(1500), r.stderrText.left(1500),
             r.error ? r.error->name + u':' + r.error->value + u'\n' + r.error->traceback : QStringLiteral("-"));
}

QStringList names(const ExecutionResult& r)
{
    QStringList out;
    for (const RunArtifact& a : r.artifacts)
        out << a.name;
    return out;
}

} // namespace

class TestRunFilesAttacks : public QObject {
    Q_OBJECT

    std::shared_ptr<LocalProvider> m_coldProvider, m_pooledProvider;
    std::unique_ptr<Executor> m_cold, m_pooled;

    ExecutionResult run(const QString& code, int deadline = 120)
    {
        QFETCH_GLOBAL(bool, pooled);
        ExecutionRequest request = ExecutionRequest::adHoc(Language::Python, code, QStringLiteral("attack"));
        request.deadlineSeconds = deadline;
        if (!pooled)
            return m_cold->run(request);
        [&] { QVERIFY2(m_pooledProvider->pool().waitUntilFull(120000), "the pool did not fill"); }();
        return m_pooled->run(request);
    }

private slots:
    void initTestCase_data()
    {
        QTest::addColumn<bool>("pooled");
        QTest::newRow("cold") << false;
        QTest::newRow("pooled") << true;
    }

    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty())
            QSKIP("bubblewrap is not installed");
        m_coldProvider = std::make_shared<LocalProvider>();
        m_coldProvider->setPoolSize(0);
        m_pooledProvider = std::make_shared<LocalProvider>();
        m_pooledProvider->setPoolSize(1);
        m_pooledProvider->startPool();
        m_cold = std::make_unique<Executor>(m_coldProvider, nullptr);
        m_pooled = std::make_unique<Executor>(m_pooledProvider, nullptr);
    }

    void cleanupTestCase()
    {
        m_pooled.reset();
        m_cold.reset();
        m_pooledProvider.reset();
        m_coldProvider.reset();
    }

    // Filling the working directory ends in a clear ENOSPC inside the sandbox; the files over the
    // artifact limit are not returned (a notice names the limit); the output is kept; the next
    // run is unaffected.
    void fillTheDisk()
    {
        const ExecutionResult r = run(QStringLiteral(
            "import errno\nchunk = b'x' * (8 << 20)\nn = 0\n"
            "try:\n"
            "    while True:\n"
            "        with open('fill-%d' % (n // 24), 'ab') as f:\n"
            "            f.write(chunk)\n"
            "        n += 1\n"
            "except OSError as e:\n"
            "    print('stopped:', errno.errorcode[e.errno], n * 8 >= 400)\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("stopped: ENOSPC True\n"));
        QVERIFY(r.artifacts.isEmpty()); // each file is 192 MiB, over the 32 MiB of a run
        QVERIFY2(r.stderrText.contains(QStringLiteral("the run's files are limited to 32 MiB per run")), qPrintable(r.stderrText));
        const ExecutionResult next = run(QStringLiteral("open('ok', 'w').write('fine')"));
        QVERIFY2(next.status == RunStatus::Success, qPrintable(describe(next)));
        QCOMPARE(names(next), QStringList{QStringLiteral("ok")});
    }

    // Only the working directory comes back: not the wrapper's files beside it, not /tmp, not a
    // file written through "..", and the read-only system stays so.
    void writesOutsideTheCwd()
    {
        const ExecutionResult r = run(QStringLiteral(
            "import os\n"
            "for path in ('/usr/evil', '/etc/evil', '/evil'):\n"
            "    try:\n        open(path, 'w')\n        print('wrote', path)\n    except OSError as e:\n        print('refused', path)\n"
            "open('/tmp/t.txt', 'w').write('t')\nopen('../escape.txt', 'w').write('e')\n"
            "open('../main.py', 'a').write('# changed')\nopen('../manifest.json', 'w').write('{}')\n"
            "open('mine.txt', 'w').write('m')\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("refused /usr/evil\nrefused /etc/evil\nrefused /evil\n"));
        QCOMPARE(names(r), QStringList{QStringLiteral("mine.txt")});
    }

    // Links are never followed: not to host paths, PID 1's environment, the wrapper or a folder.
    // A FIFO is skipped without blocking; a device node cannot be made.
    void linksFifoAndDevices()
    {
        const ExecutionResult r = run(QStringLiteral(
            "import os, stat\n"
            "os.symlink('/proc/1/environ', 'env')\nos.symlink('/etc/passwd', 'passwd')\n"
            "os.symlink('/sandpad/wrapper.py', 'wrapper.py')\nos.symlink('/usr/lib', 'lib')\nos.symlink('/', 'root')\n"
            "os.mkfifo('fifo')\n"
            "try:\n    os.mknod('null', stat.S_IFCHR | 0o666, os.makedev(1, 3))\n    print('mknod worked')\n"
            "except OSError as e:\n    print('mknod refused')\n"
            "open('real.txt', 'w').write('r')\n"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("mknod refused\n"));
        QCOMPARE(names(r), QStringList{QStringLiteral("real.txt")});
        QVERIFY2(r.stderrText.contains(QStringLiteral("symbolic link")), qPrintable(r.stderrText));
        QVERIFY2(r.stderrText.contains(QStringLiteral("fifo is not a regular file")), qPrintable(r.stderrText));
    }

    // A huge sparse file is measured, not read: not returned, with the size and the limit.
    void hugeSparseFile()
    {
        const ExecutionResult r = run(QStringLiteral(
            "with open('sparse.bin', 'wb') as f:\n    f.truncate(250 << 20)\nopen('small.txt', 'w').write('s')\nprint('made')"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("made\n"));
        QCOMPARE(names(r), QStringList{QStringLiteral("small.txt")});
        QVERIFY2(r.stderrText.contains(QStringLiteral("sparse.bin (250 MiB)")), qPrintable(r.stderrText));
    }

    // 100,000 tiny files: the walk is bounded, at most artifactsPerRun come back, with notices.
    void hundredThousandTinyFiles()
    {
        const ExecutionResult r = run(QStringLiteral(
            "import os\nos.makedirs('many')\n"
            "for i in range(100000):\n    with open('many/%06d' % i, 'w') as f:\n        f.write('x')\nprint('made')"), 240);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describe(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("made\n"));
        QCOMPARE(r.artifacts.size(), ResultLimits::artifactsPerRun);
        QCOMPARE(r.artifacts.first().name, QStringLiteral("many/000000"));
        QVERIFY2(r.stderrText.contains(QStringLiteral("a run returns at most 500 files")), qPrintable(r.stderrText));
        QVERIFY2(r.stderrText.contains(QStringLiteral("more than 10,000 files and folders")), qPrintable(r.stderrText));
    }
};

QTEST_GUILESS_MAIN(TestRunFilesAttacks)
#include "test_run_files_attacks.moc"
