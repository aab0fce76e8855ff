#pragma once

#include "core/sandbox/Sandbox.h"

#include <QByteArray>
#include <QList>

namespace sandpad {

// A tiny ustar writer plus gzip framing, for Vercel's fs/write (a tar.gz of the files).
class TarGzWriter {
public:
    // A tar archive of regular files; absolute paths become relative to "/" ("/tmp/a" -> "tmp/a").
    // Throws ProviderError(Protocol) for a path that does not fit the ustar name fields.
    static QByteArray tar(const QList<SandboxFile>& files);
    // gzip (RFC 1952) of data: Qt's zlib deflate stream re-framed with a gzip header and trailer.
    static QByteArray gzip(const QByteArray& data);
    static quint32 crc32(const QByteArray& data);
    static QByteArray tarGz(const QList<SandboxFile>& files) { return gzip(tar(files)); }
};

} // namespace sandpad
