#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace sandpad {

// How one run of sandpad-run ended and what it printed (exit code -1: it did not finish).
struct CliRun {
    int exitCode = -1;
    QByteArray out, err;
    QJsonObject json() const;
    QJsonArray array() const;
};

// sandpad-run as a user runs it: the real binary in a workspace of its own, a temporary folder
// holding its data (--data-dir <folder>/data), its config (XDG_CONFIG_HOME=<folder>/config) and
// the files a test writes; SANDPAD_PROVIDER is unset, so the developer's own does not leak in.
// A run that does not start, outlives timeoutMs() (it is killed) or crashes fails the test
// (QTest::qFail, which QEXPECT_FAIL can expect) and comes back as CliRun{} (exit code -1).
class CliDriver {
public:
    // Every run here ends well within this (a cold run is ~0.3 s); past it the CLI is hung.
    static constexpr int kDefaultTimeoutMs = 120000;

    // `leadingArgs` go before each run's own (after --data-dir), e.g. {"--provider", "local"}.
    explicit CliDriver(const QStringList& leadingArgs = {});

    // sandpad-run with `args`, `stdinData` on its stdin (then end of file).
    CliRun run(const QStringList& args, const QByteArray& stdinData = {});
    // The same on a pseudo-terminal (stdin, stdout and stderr; raw: no CR added to newlines), all
    // it printed in `out`, nothing on stdin.
    CliRun runOnTerminal(const QStringList& args);

    // Writes `content` to <workspace>/<name> and gives its path.
    QString file(const QString& name, const QByteArray& content) const;
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QString root() const { return m_dir.path(); }

    int timeoutMs() const { return m_timeoutMs; }
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    // The folder sandpad-run starts in (the test's own unless set).
    void setWorkingDirectory(const QString& dir) { m_workingDirectory = dir; }

    static QString program();

private:
    QStringList baseArgs() const;
    void failHung(const QStringList& args, const QByteArray& out, const QByteArray& err) const;

    QTemporaryDir m_dir;
    QStringList m_leadingArgs;
    QString m_workingDirectory;
    int m_timeoutMs = kDefaultTimeoutMs;
};

} // namespace sandpad
