#include "core/sandbox/RunControl.h"

namespace sandpad {

void RunControl::cancel()
{
    if (!m_cancelled.exchange(true))
        emit cancelRequested();
}

void RunControl::giveWay()
{
    if (!m_givingWay.exchange(true))
        emit giveWayRequested();
}

} // namespace sandpad
