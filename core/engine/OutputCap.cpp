#include "core/engine/OutputCap.h"

#include <algorithm>

namespace sandpad {

QByteArray OutputCap::append(const QByteArray& bytes)
{
    const qint64 room = std::max<qint64>(0, m_limit - m_total);
    m_total += bytes.size();
    if (room <= 0)
        return {};
    if (bytes.size() <= room) {
        m_kept += bytes;
        return bytes;
    }
    const QByteArray part = bytes.left(room);
    m_kept += part;
    return part;
}

QString OutputCap::formatBytes(qint64 bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    if (bytes < 1024 * 1024)
        return QStringLiteral("%1 KiB").arg(double(bytes) / 1024.0, 0, 'f', 1);
    return QStringLiteral("%1 MiB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}

QString OutputCap::text() const
{
    QString text = QString::fromUtf8(m_kept);
    if (truncated()) {
        if (!text.endsWith(u'\n'))
            text += u'\n';
        text += QStringLiteral("[output truncated: kept the first %1 of %2]\n")
                    .arg(formatBytes(m_kept.size()), formatBytes(m_total));
    }
    return text;
}

} // namespace sandpad
