#include "core/sandbox/ValidationReport.h"

namespace sandpad {

bool ValidationReport::usable() const
{
    for (const auto& item : items)
        if (item.level == ValidationItem::Level::Error)
            return false;
    return true;
}

QString ValidationReport::toText() const
{
    QString text = QStringLiteral("Provider: %1\n").arg(provider);
    for (const auto& item : items) {
        const char* mark = item.level == ValidationItem::Level::Ok        ? "ok  "
                           : item.level == ValidationItem::Level::Warning ? "warn"
                                                                          : "FAIL";
        text += QStringLiteral("  [%1] %2: %3\n").arg(QLatin1String(mark), item.name, item.detail);
    }
    text += usable() ? QStringLiteral("Usable.\n") : QStringLiteral("Not usable.\n");
    return text;
}

} // namespace sandpad
