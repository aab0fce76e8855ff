#pragma once

#include <QList>
#include <QStringList>

namespace sandpad {

// The schema, as an ordered list of migrations. Migration N brings a file from user_version N-1
// to N; each runs in its own transaction together with the user_version bump. Never edit a
// released migration: add a new one and raise Database::kSchemaVersion.
struct Migration {
    int version = 0;
    QStringList statements; // one SQL statement each
};

class Migrations {
public:
    static const QList<Migration>& all();
};

} // namespace sandpad
