#include "ui/console/ElapsedTime.h"

namespace sandpad {

QString formatElapsed(qint64 ms)
{
    const qint64 s = std::max<qint64>(0, ms) / 1000;
    const QString mmss = QStringLiteral("%1:%2").arg((s / 60) % 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    if (s < 3600)
        return mmss;
    return QStringLiteral("%1:%2").arg(s / 3600).arg(mmss, 5, QLatin1Char('0'));
}

} // namespace sandpad
