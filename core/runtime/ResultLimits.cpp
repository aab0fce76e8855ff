#include "core/runtime/ResultLimits.h"

#include <QLocale>

namespace sandpad {

QString ResultLimits::bytesText(qint64 bytes)
{
    const auto unit = [bytes](qint64 size, const char* name) {
        // Whole units without a fraction ("48 MiB"), others with one ("60.3 MiB"), and the exact
        // count where the fraction hides it ("48.0 MiB (50,331,649 bytes)" is over 48 MiB).
        if (bytes % size == 0)
            return QStringLiteral("%1 %2").arg(bytes / size).arg(QLatin1String(name));
        QString text = QStringLiteral("%1 %2").arg(double(bytes) / double(size), 0, 'f', 1).arg(QLatin1String(name));
        if (text.contains(QStringLiteral(".0 ")))
            text += QStringLiteral(" (%1 bytes)").arg(countText(bytes));
        return text;
    };
    if (bytes >= (1LL << 20))
        return unit(1LL << 20, "MiB");
    if (bytes >= 1024)
        return unit(1024, "KiB");
    return QStringLiteral("%1 bytes").arg(bytes);
}

QString ResultLimits::countText(qint64 count)
{
    // Grouped the same way everywhere, whatever the user's locale: "1,000,000".
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(count);
}

} // namespace sandpad
