#pragma once

#include <QString>

namespace sandpad {

// A running time as a clock that ticks in seconds: "0:07", "12:34", "1:02:03".
QString formatElapsed(qint64 ms);

} // namespace sandpad
