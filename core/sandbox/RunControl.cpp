#include "core/sandbox/RunControl.h"

namespace sandpad {

void RunControl::cancel()
{
    if (!m_cancelled.exchange(true))
        emit cancelRequested();
}

} // namespace sandpad
