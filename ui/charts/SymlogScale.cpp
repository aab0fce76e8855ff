#include "ui/charts/SymlogScale.h"

#include <cmath>

namespace sandpad {

double SymlogScale::forward(double v) const
{
    const double a = std::abs(v);
    if (std::isnan(v) || a <= linthresh)
        return v / linthresh;
    return std::copysign(1 + std::log10(a / linthresh), v);
}

double SymlogScale::inverse(double u) const
{
    const double a = std::abs(u);
    if (std::isnan(u) || a <= 1)
        return u * linthresh;
    return std::copysign(linthresh * std::pow(10.0, a - 1), u);
}

QVector<double> SymlogTicker::createTickVector(double tickStep, const QCPRange& range)
{
    // 0 and ±(1 + k): the decades' places. Thinned to every 2nd, 3rd... decade on a wide axis.
    QVector<double> decades;
    const double reach = std::min(320.0, std::max(std::abs(range.lower), std::abs(range.upper)));
    const int count = int(std::floor(reach)); // decades reached on either side
    const int every = std::max(1, int(std::ceil(count / 6.0)));
    for (int k = -count; k <= count; ++k) {
        if (k != 0 && k % every != 0)
            continue;
        const double u = k == 0 ? 0.0 : std::copysign(double(std::abs(k)), double(k)); // ±linthresh·10^(|k|-1)
        if (u >= range.lower && u <= range.upper)
            decades.append(u);
    }
    if (decades.size() >= 3)
        return decades;
    return QCPAxisTicker::createTickVector(tickStep, range); // zoomed in between decades
}

QVector<double> SymlogTicker::createSubTickVector(int, const QVector<double>&)
{
    return {}; // evenly spaced sub-ticks would mislead on the logarithmic parts
}

QString SymlogTicker::getTickLabel(double tick, const QLocale& locale, QChar, int)
{
    const double v = m_scale.inverse(tick);
    if (std::abs(v) < 1e-12 * m_scale.linthresh)
        return QStringLiteral("0");
    Q_UNUSED(locale)
    return QString::number(v, 'g', 4);
}

} // namespace sandpad
