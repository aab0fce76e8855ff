#include "core/providers/http/TarGzWriter.h"

#include "core/sandbox/ProviderError.h"

#include <QDateTime>
#include <array>
#include <cstring>

namespace sandpad {

namespace {
void putOctal(char* field, int width, quint64 value)
{
    // width-1 octal digits, then NUL (the classic ustar encoding).
    const QByteArray digits = QByteArray::number(value, 8).rightJustified(width - 1, '0');
    std::memcpy(field, digits.constData(), size_t(width - 1));
    field[width - 1] = '\0';
}

void putLe32(QByteArray& out, quint32 v)
{
    for (int i = 0; i < 4; ++i)
        out.append(char((v >> (8 * i)) & 0xff));
}
} // namespace

QByteArray TarGzWriter::tar(const QList<SandboxFile>& files)
{
    QByteArray out;
    const quint64 mtime = quint64(QDateTime::currentSecsSinceEpoch());
    for (const auto& f : files) {
        QByteArray name = f.path.toUtf8();
        while (name.startsWith('/'))
            name.remove(0, 1);
        QByteArray prefix;
        if (name.size() > 100) {
            // Split at a '/' so that the prefix fits 155 bytes and the rest 100.
            int cut = name.lastIndexOf('/', 155);
            while (cut > 0 && name.size() - cut - 1 > 100)
                cut = -1;
            if (cut <= 0)
                throw ProviderError(ProviderError::Kind::Protocol,
                                    QStringLiteral("file path too long for the archive: %1").arg(f.path));
            prefix = name.left(cut);
            name = name.mid(cut + 1);
        }
        if (name.isEmpty())
            throw ProviderError(ProviderError::Kind::Protocol,
                                QStringLiteral("invalid file path: '%1'").arg(f.path));
        std::array<char, 512> h{};
        std::memcpy(h.data(), name.constData(), size_t(name.size()));
        putOctal(h.data() + 100, 8, quint64(f.mode & 07777));
        putOctal(h.data() + 108, 8, 0);
        putOctal(h.data() + 116, 8, 0);
        putOctal(h.data() + 124, 12, quint64(f.content.size()));
        putOctal(h.data() + 136, 12, mtime);
        std::memset(h.data() + 148, ' ', 8);
        h[156] = '0';
        std::memcpy(h.data() + 257, "ustar\0" "00", 8);
        std::memcpy(h.data() + 345, prefix.constData(), size_t(prefix.size()));
        quint32 sum = 0;
        for (char c : h)
            sum += quint8(c);
        putOctal(h.data() + 148, 7, sum);
        h[155] = ' ';
        out.append(h.data(), 512);
        out.append(f.content);
        const qsizetype pad = (512 - f.content.size() % 512) % 512;
        out.append(QByteArray(pad, '\0'));
    }
    out.append(QByteArray(1024, '\0')); // end of archive: two zero blocks
    return out;
}

quint32 TarGzWriter::crc32(const QByteArray& data)
{
    static const auto table = [] {
        std::array<quint32, 256> t{};
        for (quint32 i = 0; i < 256; ++i) {
            quint32 c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    quint32 crc = 0xffffffffu;
    for (char ch : data)
        crc = table[(crc ^ quint8(ch)) & 0xff] ^ (crc >> 8);
    return crc ^ 0xffffffffu;
}

QByteArray TarGzWriter::gzip(const QByteArray& data)
{
    // qCompress: 4-byte big-endian size, 2-byte zlib header, raw deflate, 4-byte Adler-32.
    const QByteArray z = qCompress(data, 6);
    if (z.size() < 10)
        throw ProviderError(ProviderError::Kind::Io, QStringLiteral("compression failed"));
    QByteArray out;
    out.reserve(z.size() + 18);
    static const char header[10] = {'\x1f', '\x8b', 8, 0, 0, 0, 0, 0, 0, 3}; // deflate, OS unix
    out.append(header, 10);
    out.append(z.constData() + 6, z.size() - 10);
    putLe32(out, crc32(data));
    putLe32(out, quint32(data.size() & 0xffffffffu));
    return out;
}

} // namespace sandpad
