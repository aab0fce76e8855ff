#pragma once

#include <QByteArray>
#include <QString>

namespace sandpad {

// Keeps the first `limit` bytes of one output stream and counts the rest, so a snippet printing
// without end costs bounded memory. The notice says how much was cut.
class OutputCap {
public:
    explicit OutputCap(qint64 limit) : m_limit(limit) {}

    // Appends what still fits; returns the part that was kept (for live forwarding).
    QByteArray append(const QByteArray& bytes);
    bool truncated() const { return m_total > m_limit; }
    qint64 totalBytes() const { return m_total; }
    const QByteArray& kept() const { return m_kept; }
    // The kept text, decoded, with a notice line when cut.
    QString text() const;
    static QString formatBytes(qint64 bytes);

private:
    qint64 m_limit;
    qint64 m_total = 0;
    QByteArray m_kept;
};

} // namespace sandpad
