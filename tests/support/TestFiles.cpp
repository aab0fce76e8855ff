#include "TestFiles.h"

#include <QFile>

namespace sandpad {

bool writeFile(const QString& path, const QByteArray& content, QFileDevice::Permissions permissions)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    const bool written = f.write(content) == content.size();
    f.close();
    return written && (!permissions || f.setPermissions(permissions));
}

} // namespace sandpad
