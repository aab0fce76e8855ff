#pragma once

#include "providers/SandboxProvider.h"
#include "providers/local/LocalProviderOptions.h"

#include <QMutex>

namespace sandpad {

// The embedded default provider: bubblewrap sandboxes on this machine (docs/local-sandbox.md).
// Thread-safe: create() and validate() may be called from several worker threads.
class LocalProvider : public SandboxProvider {
public:
    explicit LocalProvider(const LocalProviderOptions& options = {});

    QString name() const override { return QStringLiteral("local"); }
    QString displayName() const override { return QStringLiteral("Local sandbox (bubblewrap)"); }
    ValidationReport validate() override;
    std::unique_ptr<Sandbox> create(const SandboxOptions& options, RunControl& control) override;

    QString pythonPath() const { return m_python; }
    QString nodePath() const { return m_node; }
    QString bwrapPath() const { return m_bwrap; }
    // The prebuilt matplotlib font cache (host path), built on first call; empty if unavailable.
    QString fontCacheFile();

private:
    QString buildFontCache();
    QString fontCacheDir() const;
    QString fontCacheKey() const;

    QString m_python;
    QString m_node;
    QString m_bwrap;
    QString m_setpriv;
    QMutex m_fontMutex;
    bool m_fontTried = false;
    QString m_fontFile;
};

} // namespace sandpad
