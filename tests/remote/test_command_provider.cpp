// CommandProvider with the shipped example (resources/runtime/command-provider-example.py, bwrap).
#include "SandboxChecks.h"
#include "TestChecks.h"
#include "TestFiles.h"

#include "core/providers/command/CommandProvider.h"
#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <future>
#include <thread>
#include <utility>

using namespace sandpad;

namespace {
const QString kExample = QStringLiteral(SANDPAD_SOURCE_DIR "/resources/runtime/command-provider-example.py");

int leftoverDirs()
{
    return int(QDir(QDir::tempPath()).entryList({QStringLiteral("sandpad-cmd-*")}, QDir::Dirs).size());
}
} // namespace

class TestCommandProvider : public QObject {
    Q_OBJECT

    int m_dirsBefore = 0;
    QTemporaryDir m_tempRoot; // this suite's own TMPDIR: other suites running at once make such folders too

    std::unique_ptr<Sandbox> create(RunControl& control, const QString& program = kExample)
    {
        CommandProviderConfig c;
        c.program = program;
        c.killGraceMs = 3000;
        CommandProvider provider(c);
        SandboxOptions options;
        options.deadlineSeconds = 30;
        return provider.create(options, control);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tempRoot.isValid());
        // As /tmp: the sandbox user (uid 65534 when this runs as root) must reach the folders in it.
        QFile::setPermissions(m_tempRoot.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                     QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
        qputenv("TMPDIR", QFile::encodeName(m_tempRoot.path())); // the example's tempfile and QDir::tempPath()
        QCOMPARE(QDir::tempPath(), m_tempRoot.path());
        m_dirsBefore = leftoverDirs();
    }

    void createWriteRunReadDestroy()
    {
        RunControl control;
        auto sb = create(control);
        QCOMPARE(sb->workDir(), QStringLiteral("/sandpad"));
        QCOMPARE(sb->interpreter(Language::Python), QStringLiteral("/usr/bin/python3"));
        sb->writeFiles({{QStringLiteral("/sandpad/main.py"),
                         "import os, sys\nprint('out', os.environ['X'])\nprint('err', file=sys.stderr)\n"
                         "os.makedirs('out', exist_ok=True)\nopen('out/f.bin','wb').write(bytes(range(256)))\n"
                         "open('/etc/owned','w')\n", 0644}});
        SandboxCommand cmd;
        cmd.argv = {sb->interpreter(Language::Python), QStringLiteral("main.py")};
        cmd.cwd = sb->workDir();
        cmd.env = {{QStringLiteral("X"), QStringLiteral("42")}};
        QByteArray out, err;
        const auto outcome = sb->run(cmd, [&](OutputStream s, const QByteArray& b) {
            (s == OutputStream::Stdout ? out : err) += b;
        }, control);
        QCOMPARE(outcome.exitCode.value_or(-1), 1); // writing /etc fails: the system is read-only
        QCOMPARE(out, QByteArray("out 42\n"));
        QVERIFY(err.startsWith("err\n"));
        QVERIFY2(err.contains("Read-only file system") || err.contains("Permission denied"), err.constData());
        QByteArray all;
        for (int i = 0; i < 256; ++i)
            all.append(char(i));
        QCOMPARE(sb->readFile(QStringLiteral("/sandpad/out/f.bin")).value_or("?"), all);
        QVERIFY(!sb->readFile(QStringLiteral("/sandpad/none")).has_value());
        const auto report = sb->destroy();
        QVERIFY2(report.confirmed, qPrintable(report.detail));
        QCOMPARE(leftoverDirs(), m_dirsBefore);
    }

    void streamingTimeoutAndCancel()
    {
        RunControl control;
        auto sb = create(control);
        SandboxCommand cmd;
        cmd.argv = {QStringLiteral("/usr/bin/python3"), QStringLiteral("-c"),
                    QStringLiteral("import time\nprint('first', flush=True)\ntime.sleep(60)")};
        cmd.timeoutMs = 1500;
        auto outcome = sb->run(cmd, {}, control);
        QVERIFY(outcome.timedOut);
        QVERIFY(!outcome.exitCode);

        // Cancelled from another thread as soon as the first line arrives: the run ends cancelled,
        // not at its 60 s deadline, and the line came while the program ran (streamed, not
        // delivered at its end).
        cmd.timeoutMs = 60000;
        std::promise<void> firstLine;
        bool seen = false;
        std::thread canceller([&control, ready = firstLine.get_future()]() mutable {
            ready.wait();
            control.cancel();
        });
        outcome = sb->run(cmd, [&](OutputStream, const QByteArray&) {
            if (!std::exchange(seen, true))
                firstLine.set_value();
        }, control);
        if (!seen)
            firstLine.set_value(); // let the canceller end; the checks below fail
        canceller.join();
        QVERIFY(seen);
        QVERIFY(outcome.cancelled);
        QVERIFY(!outcome.timedOut);
        QVERIFY(sb->destroy().confirmed);
        QCOMPARE(leftoverDirs(), m_dirsBefore);
    }

    void brokenProvidersGiveClearErrors()
    {
        QTemporaryDir dir;
        const QString liar = dir.filePath(QStringLiteral("liar.sh"));
        const QFile::Permissions executable = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner;
        QVERIFY(writeFile(liar, "#!/bin/sh\nread line\necho 'this is not json'\necho 'boom' >&2\n", executable));
        RunControl control;
        SANDPAD_CHECK(verifyProviderError([&] { create(control, liar); }, ProviderError::Kind::Protocol,
                                          QStringLiteral("not a JSON object"), "should fail"));
        const QString quitter = dir.filePath(QStringLiteral("quitter.sh"));
        QVERIFY(writeFile(quitter, "#!/bin/sh\necho 'no runner configured' >&2\nexit 3\n", executable));
        SANDPAD_CHECK(verifyProviderError([&] { create(control, quitter); }, ProviderError::Kind::Unavailable,
                                          QStringLiteral("exited"), "should fail"));
        QVERIFY_THROWS_EXCEPTION(ProviderError, create(control, dir.filePath(QStringLiteral("missing"))));
    }

    void validation()
    {
        CommandProviderConfig c;
        c.program = kExample;
        const ValidationReport ok = CommandProvider(c).validate();
        QVERIFY2(ok.usable(), qPrintable(ok.toText()));
        QVERIFY(ok.toText().contains(QStringLiteral("bubblewrap")));
        c.program = QStringLiteral("/nonexistent/provider");
        QVERIFY(!CommandProvider(c).validate().usable());
    }
};

QTEST_GUILESS_MAIN(TestCommandProvider)
#include "test_command_provider.moc"
