#include "CancellingSandbox.h"

#include "core/sandbox/RunControl.h"

#include <QCoreApplication>

namespace sandpad {

CancellingSandbox::CancellingSandbox(std::unique_ptr<Sandbox> inner) : m_inner(std::move(inner)) {}

CommandOutcome CancellingSandbox::run(const SandboxCommand& command, const OutputCallback& onOutput,
                                      RunControl& control)
{
    bool pressed = false;
    const OutputCallback forward = [&](OutputStream stream, const QByteArray& bytes) {
        if (onOutput)
            onOutput(stream, bytes);
        if (!pressed) {
            pressed = true;
            // The RunControl outlives the run (it is the run's own), so the queued call is safe.
            QMetaObject::invokeMethod(QCoreApplication::instance(), [c = &control] { c->cancel(); },
                                      Qt::QueuedConnection);
        }
    };
    return m_inner->run(command, forward, control);
}

} // namespace sandpad
