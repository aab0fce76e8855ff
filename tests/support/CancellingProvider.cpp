#include "CancellingProvider.h"

#include "CancellingSandbox.h"

namespace sandpad {

std::unique_ptr<Sandbox> CancellingProvider::create(const SandboxOptions& options, RunControl& control)
{
    return std::make_unique<CancellingSandbox>(m_inner->create(options, control));
}

} // namespace sandpad
