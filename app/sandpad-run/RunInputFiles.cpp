#include "RunInputFiles.h"

#include "core/files/FileRead.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace sandpad {

namespace {

// Reads a regular file of at most `limit` bytes (core/files/FileRead: the size is checked before
// reading, and on the opened descriptor, so a FIFO swapped in is never waited on).
QString readBounded(const QString& path, const QString& what, qint64 limit, QByteArray* out)
{
    const QFileInfo info(path);
    if (!info.exists())
        return QStringLiteral("%1 %2 does not exist").arg(what, path);
    if (!info.isFile())
        return QStringLiteral("%1 %2 is not a regular file").arg(what, path);
    if (info.size() > limit)
        return QStringLiteral("%1 %2 is %3 bytes; the limit is %4 bytes").arg(what, path).arg(info.size()).arg(limit);
    FileRead::Result read = FileRead::read(path, limit);
    if (!read.ok())
        return QStringLiteral("%1: %2").arg(what, read.error);
    *out = std::move(read.bytes);
    return {};
}

} // namespace

QString RunInputFiles::read(const QStringList& inputs, const std::optional<QString>& stdinPath, RunInput& input)
{
    qint64 total = 0;
    for (const QString& path : inputs) {
        InputFile file;
        file.name = QFileInfo(path).fileName();
        if (const QString why = readBounded(path, QStringLiteral("--input"), RunInput::maxFileBytes - total, &file.content);
            !why.isEmpty())
            return total > 0 && QFileInfo(path).isFile() && QFileInfo(path).size() <= RunInput::maxFileBytes
                ? QStringLiteral("the --input files are over %1 bytes together").arg(RunInput::maxFileBytes) : why;
        total += file.content.size();
        input.files << file;
    }
    if (stdinPath) {
        QByteArray data;
        if (*stdinPath == u"-") {
            QFile in;
            if (!in.open(stdin, QIODevice::ReadOnly))
                return QStringLiteral("cannot read standard input (--stdin -)");
            data = in.read(RunInput::maxStdinBytes + 1);
            if (data.size() > RunInput::maxStdinBytes)
                return QStringLiteral("--stdin -: the input is over the limit of %1 bytes").arg(RunInput::maxStdinBytes);
        } else if (const QString why = readBounded(*stdinPath, QStringLiteral("--stdin"), RunInput::maxStdinBytes, &data);
                   !why.isEmpty()) {
            return why;
        }
        input.stdinData = data;
    }
    if (const QString why = input.problem(); !why.isEmpty())
        return why;
    return {};
}

QString RunInputFiles::writeArtifact(const QDir& dir, const RunArtifact& artifact, QString* why)
{
    // The name was checked by ArtifactCollector (relative, no "..").
    const QString path = dir.absoluteFilePath(artifact.name);
    if (!dir.mkpath(QFileInfo(path).absolutePath())) {
        *why = QStringLiteral("cannot create the folder %1").arg(QFileInfo(path).absolutePath());
        return {};
    }
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        *why = errno == EEXIST ? QStringLiteral("%1 exists already (not overwritten)").arg(path)
                               : QStringLiteral("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return {};
    }
    qint64 done = 0;
    while (done < artifact.content.size()) {
        const ssize_t n = ::write(fd, artifact.content.constData() + done, size_t(artifact.content.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            *why = QStringLiteral("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
            ::close(fd);
            return {};
        }
        done += n;
    }
    ::close(fd);
    return path;
}

} // namespace sandpad
