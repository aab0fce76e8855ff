#pragma once

#include "FakeSandboxScript.h"

#include "core/sandbox/Sandbox.h"
#include "core/sandbox/SandboxOptions.h"

#include <QList>
#include <QMap>
#include <QStringList>
#include <functional>

namespace sandpad {

class FakeSandboxProvider;

// An in-memory Sandbox that follows a FakeSandboxScript and tells its provider what the Executor
// asked of it. Nothing runs: the command's output, results and end are the script's.
class FakeSandbox : public Sandbox {
public:
    // What the Executor asked of one sandbox, in order.
    struct Record {
        SandboxOptions options;
        QList<SandboxFile> files;       // every writeFiles() call, concatenated
        QList<SandboxCommand> commands;
        QStringList reads;              // readFile() paths
        int destroyCalls = 0;
        // The file written at `path` (e.g. "/fake/work/main.py"); empty when none.
        QByteArray file(const QString& path) const;
    };

    static constexpr const char* kWorkDir = "/fake/work";

    FakeSandbox(FakeSandboxScript script, const SandboxOptions& options, int index,
                FakeSandboxProvider& provider);

    QString id() const override;
    QString workDir() const override { return QString::fromLatin1(kWorkDir); }
    QString interpreter(Language language) const override;
    QStringList pipArguments() const override;
    void writeFiles(const QList<SandboxFile>& files) override;
    CommandOutcome run(const SandboxCommand& command, const OutputCallback& onOutput,
                       RunControl& control) override;
    std::optional<QByteArray> readFile(const QString& path) override;
    CleanupReport destroy() override;

private:
    void note(const std::function<void(Record&)>& change);
    // Blocks until the run is cancelled (true) or timeoutMs passes (false), as a hung program would.
    static bool waitForCancel(RunControl& control, qint64 timeoutMs);

    FakeSandboxScript m_script;
    SandboxOptions m_options;
    int m_index;
    FakeSandboxProvider& m_provider;
    QList<SandboxFile> m_files;
    QMap<QString, QByteArray> m_results; // what the command left in out/, by name
};

} // namespace sandpad
