#include "core/files/FileRead.h"

#include <QFile>
#include <QLocale>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sandpad {

namespace {

QString kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return QStringLiteral("a folder");
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO (named pipe)");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return QStringLiteral("a device");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    return QStringLiteral("not a regular file");
}

QString notRegular(const QString& path, mode_t mode)
{
    return QStringLiteral("%1 is %2: only regular files can be opened").arg(path, kindOf(mode));
}

QString tooLarge(const QString& path, qint64 size, qint64 limit)
{
    return QStringLiteral("%1 is too large to open (%2; the limit is %3)")
        .arg(path, FileRead::sizeText(size), FileRead::sizeText(limit));
}

QString systemError(const QString& path, int error)
{
    return QStringLiteral("Cannot read %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(error)));
}

} // namespace

QString FileRead::sizeText(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, bytes < (1 << 20) ? 0 : 1, QLocale::DataSizeIecFormat);
}

FileRead::Result FileRead::read(const QString& path, qint64 limit, FileReadControl* control)
{
    Result r;
    const QByteArray native = QFile::encodeName(path);
    // stat first: a FIFO or a device is refused without being opened at all (opening some
    // devices has effects of its own).
    struct stat st {};
    if (::stat(native.constData(), &st) != 0) {
        r.error = systemError(path, errno);
        return r;
    }
    if (!S_ISREG(st.st_mode)) {
        r.error = notRegular(path, st.st_mode);
        return r;
    }
    if (st.st_size > limit) {
        r.error = tooLarge(path, st.st_size, limit);
        return r;
    }
    // The path may have been swapped for a FIFO since: O_NONBLOCK keeps open() from waiting for
    // a writer, and fstat decides on what was really opened.
    const int fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        r.error = systemError(path, errno);
        return r;
    }
    auto fail = [&](const QString& error) {
        ::close(fd);
        r.bytes.clear();
        r.error = error;
        return r;
    };
    if (::fstat(fd, &st) != 0)
        return fail(systemError(path, errno));
    if (!S_ISREG(st.st_mode))
        return fail(notRegular(path, st.st_mode));
    if (st.st_size > limit)
        return fail(tooLarge(path, st.st_size, limit));
    // A regular file: reads block as usual (O_NONBLOCK means nothing for it, but cleared anyway).
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (control) {
        control->total = qint64(st.st_size);
        control->done = 0;
    }
    r.bytes.reserve(qsizetype(st.st_size));
    char buffer[64 * 1024];
    qint64 sinceReport = 0;
    for (;;) {
        if (control && control->cancel.load()) {
            ::close(fd);
            r.bytes = QByteArray();
            r.cancelled = true;
            return r;
        }
        // One byte more than the limit is enough to tell that the file grew past it.
        const qint64 want = std::min<qint64>(sizeof buffer, limit + 1 - r.bytes.size());
        const ssize_t n = ::read(fd, buffer, size_t(want));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fail(systemError(path, errno));
        if (n == 0)
            break;
        r.bytes.append(buffer, n);
        if (r.bytes.size() > limit)
            return fail(tooLarge(path, r.bytes.size(), limit));
        sinceReport += n;
        if (control && (sinceReport >= kChunkBytes)) {
            control->done = r.bytes.size();
            sinceReport = 0;
        }
    }
    ::close(fd);
    if (control)
        control->done = r.bytes.size();
    return r;
}

} // namespace sandpad
