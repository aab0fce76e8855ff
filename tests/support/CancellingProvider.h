#pragma once

#include "core/sandbox/SandboxProvider.h"

#include <memory>

namespace sandpad {

// A provider whose sandboxes are CancellingSandboxes around `inner`'s: every run through it is
// stopped by "the user" once its first output arrived. Lets a suite test cancellation through
// Executor::run (which blocks) with any real provider.
class CancellingProvider : public SandboxProvider {
public:
    explicit CancellingProvider(std::shared_ptr<SandboxProvider> inner) : m_inner(std::move(inner)) {}

    QString name() const override { return m_inner->name(); }
    QString displayName() const override { return m_inner->displayName(); }
    ValidationReport validate() override { return m_inner->validate(); }
    std::unique_ptr<Sandbox> create(const SandboxOptions& options, RunControl& control) override;

private:
    std::shared_ptr<SandboxProvider> m_inner;
};

} // namespace sandpad
