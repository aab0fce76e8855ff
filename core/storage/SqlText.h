#pragma once

#include <QString>
#include <QVariant>

namespace sandpad {

// Qt's SQLite driver binds a null QString as SQL NULL; text columns are NOT NULL with '' as
// "empty", so bind empty strings through this.
inline QVariant sqlText(const QString& s)
{
    return s.isNull() ? QVariant(QString(QLatin1String(""))) : QVariant(s);
}

} // namespace sandpad
