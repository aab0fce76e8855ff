#include "ui/charts/ChartColors.h"

namespace sandpad {

QColor chartSeriesColor(int index)
{
    static const QRgb colors[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                                  0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
    return QColor(colors[(index % 10 + 10) % 10]);
}

} // namespace sandpad
