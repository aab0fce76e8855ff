#pragma once

#include "core/sandbox/Sandbox.h"

#include <memory>

namespace sandpad {

// Wraps a real provider's Sandbox and presses Stop once the command's first output has arrived:
// the cancel is queued to the application's (main) thread and made there, as the GUI's Stop
// button makes it, while the provider streams on its worker thread. Everything else is passed on.
class CancellingSandbox : public Sandbox {
public:
    explicit CancellingSandbox(std::unique_ptr<Sandbox> inner);

    QString id() const override { return m_inner->id(); }
    QString workDir() const override { return m_inner->workDir(); }
    QString interpreter(Language language) const override { return m_inner->interpreter(language); }
    QStringList pipArguments() const override { return m_inner->pipArguments(); }
    void writeFiles(const QList<SandboxFile>& files) override { m_inner->writeFiles(files); }
    CommandOutcome run(const SandboxCommand& command, const OutputCallback& onOutput,
                       RunControl& control) override;
    std::optional<QByteArray> readFile(const QString& path) override { return m_inner->readFile(path); }
    CleanupReport destroy() override { return m_inner->destroy(); }

private:
    std::unique_ptr<Sandbox> m_inner;
};

} // namespace sandpad
