#pragma once

#include "core/providers/local/LocalProviderOptions.h"
#include "core/providers/local/LocalSandbox.h"
#include "core/providers/local/SandboxPool.h"
#include "core/providers/ProviderDescriptor.h"
#include "core/sandbox/SandboxProvider.h"

#include <QMutex>
#include <atomic>
#include <memory>

namespace sandpad {

// The embedded default provider: bubblewrap sandboxes on this machine (docs/local-sandbox.md).
// Thread-safe: create() and validate() may be called from several worker threads.
class LocalProvider : public SandboxProvider {
public:
    explicit LocalProvider(const LocalProviderOptions& options = {});
    ~LocalProvider() override; // kills every pre-started sandbox
    static ProviderDescriptor descriptor(); // its settings (Python, Node.js) and factory

    QString name() const override { return QStringLiteral("local"); }
    QString displayName() const override { return QStringLiteral("Local sandbox (bubblewrap)"); }
    ValidationReport validate() override;
    std::unique_ptr<Sandbox> create(const SandboxOptions& options, RunControl& control) override;
    // A notebook session: a pre-started sandbox (from the pool when one is idle) made a session.
    bool supportsSessions() const override { return true; }
    std::unique_ptr<SessionSandbox> createSession(const SandboxOptions& options, RunControl& control) override;

    QString pythonPath() const { return m_python; }
    QString nodePath() const { return m_node; }
    QString bwrapPath() const { return m_bwrap; }
    // The prebuilt matplotlib font cache (host path), built on first call; empty if unavailable.
    QString fontCacheFile();

    // --- Pre-started sandboxes (docs/local-sandbox.md, "Pool"). All thread-safe, non-blocking.
    // Per language; default 1; 0 turns the pool off and drains it.
    void setPoolSize(int perLanguage) override;
    void setPoolBurstMax(int perLanguage) override;
    int poolSize() const;
    // Starts filling the pool in the background (call after the window is shown). Until then,
    // and whenever no pooled sandbox fits, create() starts a cold one.
    void startPool() override;
    void warmLanguage(Language language) override;
    // Drops every idle pre-started sandbox (settings or provider changed); refills if started.
    void drainPool() override;
    // The options pooled sandboxes are started with (network, memory, pip); create() with other
    // options runs cold and re-targets the pool.
    void setPoolOptions(const SandboxOptions& options) override;
    SandboxPool& pool() { return *m_pool; }
    // How many sandboxes create() took from the pool (tests, benchmarks).
    int pooledCreates() const { return m_pooledCreates.load(); }

    // The policy's inputs for a sandbox with these options (also for LocalServiceSandbox).
    LocalSandboxConfig sandboxConfig(const SandboxOptions& options);

private:
    std::unique_ptr<LocalSandbox> prestarted(Language language, const SandboxOptions& options);

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
    QByteArray m_fontBytes; // its content, read once
    std::atomic<int> m_pooledCreates{0};
    std::unique_ptr<SandboxPool> m_pool; // last: destroyed first, while the rest is still there
};

} // namespace sandpad
