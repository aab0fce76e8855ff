#pragma once

#include "core/sandbox/Sandbox.h"

#include <QByteArray>
#include <QMap>
#include <QStringList>

namespace sandpad {

// A sandbox that has only files: what the wrapper (or a snippet posing as it) left in its out/
// folder, for the collectors' suites (no sandbox, nothing runs). Its work dir is /w; readFile()
// gives files[name] for /w/out/<name> and nothing else, and notes every name it was asked for.
class OutDirSandbox : public Sandbox {
public:
    QMap<QString, QByteArray> files; // by name in /w/out/
    QStringList reads;               // the names readFile() was asked for, in order

    QString id() const override { return QStringLiteral("out"); }
    QString workDir() const override { return QStringLiteral("/w"); }
    QString interpreter(Language) const override { return QStringLiteral("python3"); }
    QStringList pipArguments() const override { return {}; }
    void writeFiles(const QList<SandboxFile>&) override {}
    CommandOutcome run(const SandboxCommand&, const OutputCallback&, RunControl&) override { return {}; }
    std::optional<QByteArray> readFile(const QString& path) override;
    CleanupReport destroy() override { return {true, {}}; }
};

} // namespace sandpad
