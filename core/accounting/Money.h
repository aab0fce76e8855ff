#pragma once

#include <QString>

namespace sandpad {

// Integer micro-dollars as dollars for people: exact (no floating point), always cents, sub-cent
// digits kept: 50000 -> "$0.05", 1234567 -> "$1.234567", -20000 -> "-$0.02".
inline QString formatMoney(qint64 micros)
{
    const bool negative = micros < 0;
    // Unsigned, so that the most negative value has a magnitude too.
    const quint64 abs = negative ? 0 - static_cast<quint64>(micros) : static_cast<quint64>(micros);
    QString text = QStringLiteral("%1.%2").arg(abs / 1000000).arg(abs % 1000000, 6, 10, QLatin1Char('0'));
    while (text.endsWith(QLatin1Char('0')) && text.size() - text.indexOf(QLatin1Char('.')) > 3)
        text.chop(1);
    return (negative ? QStringLiteral("-$") : QStringLiteral("$")) + text;
}

} // namespace sandpad
