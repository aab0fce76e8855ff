// Attacks on the run's files (issue 14), cold and pre-started, through the real Executor: the
// scratch working directory filled past its limit, writes outside it, links planted in it (to
// host paths, /proc/1/environ, the wrapper, a folder), a FIFO, a device node, a huge sparse file,
// 100,000 tiny files. Artifacts are read without following links, within ResultLimits, and the
// run's text output is kept whatever the folder holds.
#include "ExecutionChecks.h"
#include "LocalRunFixture.h"

#include "core/runtime/ResultLimits.h"

#include <QTest>

using namespace sandpad;

class TestRunFilesAttacks : public QObject {
    Q_OBJECT

    LocalRunFixture m_local;

    // The attacks check the run's files, not the pool: a pooled run is not checked for having
    // taken the pre-started sandbox.
    ExecutionResult run(const QString& code, int deadline = 120)
    {
        QFETCH_GLOBAL(bool, pooled);
        return m_local.run(pooled, LocalRunFixture::request(Language::Python, code, QStringLiteral("attack"), deadline),
                           LocalRunFixture::PoolUse::Unchecked);
    }

private slots:
    void initTestCase_data() { LocalRunFixture::addPathRows(); }

    void initTestCase()
    {
        if (!m_local.start())
            QSKIP("bubblewrap is not installed");
    }

    void cleanupTestCase() { m_local.stop(); }

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
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("stopped: ENOSPC True\n"));
        QVERIFY(r.artifacts.isEmpty()); // each file is 192 MiB, over the 32 MiB of a run
        QVERIFY2(r.stderrText.contains(QStringLiteral("the run's files are limited to 32 MiB per run")), qPrintable(r.stderrText));
        const ExecutionResult next = run(QStringLiteral("open('ok', 'w').write('fine')"));
        QVERIFY2(next.status == RunStatus::Success, qPrintable(describeResult(next)));
        QCOMPARE(artifactNames(next), QStringList{QStringLiteral("ok")});
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
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("refused /usr/evil\nrefused /etc/evil\nrefused /evil\n"));
        QCOMPARE(artifactNames(r), QStringList{QStringLiteral("mine.txt")});
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
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("mknod refused\n"));
        QCOMPARE(artifactNames(r), QStringList{QStringLiteral("real.txt")});
        QVERIFY2(r.stderrText.contains(QStringLiteral("symbolic link")), qPrintable(r.stderrText));
        QVERIFY2(r.stderrText.contains(QStringLiteral("fifo is not a regular file")), qPrintable(r.stderrText));
    }

    // A huge sparse file is measured, not read: not returned, with the size and the limit.
    void hugeSparseFile()
    {
        const ExecutionResult r = run(QStringLiteral(
            "with open('sparse.bin', 'wb') as f:\n    f.truncate(250 << 20)\nopen('small.txt', 'w').write('s')\nprint('made')"));
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("made\n"));
        QCOMPARE(artifactNames(r), QStringList{QStringLiteral("small.txt")});
        QVERIFY2(r.stderrText.contains(QStringLiteral("sparse.bin (250 MiB)")), qPrintable(r.stderrText));
    }

    // 100,000 tiny files: the walk is bounded, at most artifactsPerRun come back, with notices.
    void hundredThousandTinyFiles()
    {
        const ExecutionResult r = run(QStringLiteral(
            "import os\nos.makedirs('many')\n"
            "for i in range(100000):\n    with open('many/%06d' % i, 'w') as f:\n        f.write('x')\nprint('made')"), 240);
        QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
        QCOMPARE(r.stdoutText, QStringLiteral("made\n"));
        QCOMPARE(r.artifacts.size(), ResultLimits::artifactsPerRun);
        QCOMPARE(r.artifacts.first().name, QStringLiteral("many/000000"));
        QVERIFY2(r.stderrText.contains(QStringLiteral("a run returns at most 500 files")), qPrintable(r.stderrText));
        QVERIFY2(r.stderrText.contains(QStringLiteral("more than 10,000 files and folders")), qPrintable(r.stderrText));
    }
};

QTEST_GUILESS_MAIN(TestRunFilesAttacks)
#include "test_run_files_attacks.moc"
