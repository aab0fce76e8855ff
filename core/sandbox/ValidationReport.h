#pragma once

#include <QList>
#include <QString>

namespace sandpad {

// One finding of a provider's self-check, shown item by item (CLI --validate, Settings > Validate).
struct ValidationItem {
    enum class Level { Ok, Warning, Error };
    QString name;   // e.g. "bubblewrap", "python3", "package numpy"
    Level level = Level::Ok;
    QString detail; // e.g. "bwrap 0.8.0", "missing: install python3-numpy"
};

struct ValidationReport {
    QString provider;
    QList<ValidationItem> items;
    // Usable: no Error item. Warnings (e.g. a missing optional package) keep it usable.
    bool usable() const;
    QString toText() const;
};

} // namespace sandpad
