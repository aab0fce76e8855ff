#pragma once

#include "core/language/Language.h"

#include <QByteArray>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

namespace sandpad {

class RunControl;

// Which stream a chunk of output came from.
enum class OutputStream { Stdout, Stderr };

// Receives output while a command runs. Called on the thread that called Sandbox::run().
using OutputCallback = std::function<void(OutputStream, const QByteArray&)>;

// A file placed into the sandbox before a run. Paths are absolute inside the sandbox.
struct SandboxFile {
    QString path;
    QByteArray content;
    int mode = 0644;
};

// A command to run inside the sandbox.
struct SandboxCommand {
    QStringList argv;               // argv[0] is the program, e.g. "python3"
    QString cwd;                    // empty: the sandbox's default
    QMap<QString, QString> env;     // added to the sandbox's clean environment
    qint64 timeoutMs = 300000;      // wall clock; at expiry everything in the sandbox is killed
};

struct CommandOutcome {
    std::optional<int> exitCode;    // nullopt when killed (timeout, cancel) or unknown; 128+N for signal N
    bool timedOut = false;
    bool cancelled = false;
    // Set when the sandbox stopped the program for crossing one of its limits (memory): the
    // program's own error, with this message ("The run used more than 1024 MiB ...").
    QString limitExceeded;
    // Whether the runtime wrapper began the user's program, as the sandbox's own channel tells
    // (the wrapper's "started" frame, sent before any user code). nullopt: the provider cannot
    // tell; the Executor then looks for the wrapper's out/started file.
    std::optional<bool> programStarted;
    QString detail;                 // e.g. "killed by signal 9 (SIGKILL)"
};

struct CleanupReport {
    bool confirmed = false;         // no process left, no temp folder left / remote reported gone
    QString detail;                 // why not, when not confirmed
};

// One fresh, isolated sandbox, used for one run. All calls block the calling (worker) thread;
// infrastructure failures throw ProviderError. A Sandbox is used from one thread only, except
// through the RunControl passed to run().
class Sandbox {
public:
    virtual ~Sandbox() = default;

    virtual QString id() const = 0;
    // The folder where the runtime wrapper and the user's program are placed, e.g. "/sandpad" or
    // "/vercel/sandbox/sandpad"; the wrapper writes its outputs beneath it (see runtime/).
    virtual QString workDir() const = 0;
    // The interpreter to run for a language inside this sandbox (e.g. "/usr/bin/python3").
    virtual QString interpreter(Language language) const = 0;
    // Extra `pip install` arguments for this sandbox, e.g. {"--no-index", "--find-links", "/wheels"}
    // when a wheel folder is mounted offline. Empty when pip may use its default index.
    virtual QStringList pipArguments() const = 0;

    virtual void writeFiles(const QList<SandboxFile>& files) = 0;
    virtual CommandOutcome run(const SandboxCommand& command, const OutputCallback& onOutput,
                               RunControl& control) = 0;
    // A file the command wrote; nullopt when it does not exist.
    virtual std::optional<QByteArray> readFile(const QString& path) = 0;
    // Destroys the sandbox and checks that it is gone. Never throws; safe to call twice.
    virtual CleanupReport destroy() = 0;
};

} // namespace sandpad

Q_DECLARE_METATYPE(sandpad::OutputStream)
