#pragma once

#include <qcustomplot.h>

namespace sandpad {

// matplotlib's "symlog" scale, which QCustomPlot does not have: linear within ±linthresh,
// logarithmic outside. A symlog axis is a linear axis over transformed values: u = v / linthresh
// inside, ±(1 + log10(|v| / linthresh)) outside (continuous at ±linthresh, one unit per decade).
// ChartSpecAdapter transforms the data (forward), SymlogTicker labels the axis with the real
// values, and the viewer's tooltips show them (inverse).
struct SymlogScale {
    double linthresh = 1;

    double forward(double v) const;
    double inverse(double u) const;
};

// Ticks at 0, ±linthresh and each decade beyond, labelled with the real values; zoomed in
// between them, evenly spaced ticks of the transformed axis, labelled with their real values too.
class SymlogTicker : public QCPAxisTicker {
public:
    explicit SymlogTicker(double linthresh) : m_scale{linthresh} {}
    const SymlogScale& scale() const { return m_scale; }

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    QVector<double> createSubTickVector(int subTickCount, const QVector<double>& ticks) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    SymlogScale m_scale;
};

} // namespace sandpad
