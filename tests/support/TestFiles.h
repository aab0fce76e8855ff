#pragma once

#include <QByteArray>
#include <QFileDevice>
#include <QString>

namespace sandpad {

// Writes `content` to `path` (replacing it) and, when given, sets its permissions: a script or an
// input file a test needs on disk. False when any step fails.
bool writeFile(const QString& path, const QByteArray& content, QFileDevice::Permissions permissions = {});

} // namespace sandpad
