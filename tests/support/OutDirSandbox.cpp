#include "OutDirSandbox.h"

namespace sandpad {

std::optional<QByteArray> OutDirSandbox::readFile(const QString& path)
{
    const QString name = path.section(u'/', -1);
    reads << name;
    if (!path.startsWith(QStringLiteral("/w/out/")) || !files.contains(name))
        return std::nullopt;
    return files.value(name);
}

} // namespace sandpad
