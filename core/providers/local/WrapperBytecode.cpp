#include "core/providers/local/WrapperBytecode.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSaveFile>
#include <QStandardPaths>
#include <QMutex>
#include <QProcess>

namespace sandpad::localsandbox {

namespace {

// A .pyc read as a script: the magic number, flags 0 and an unused timestamp/size, then the
// marshalled module code. Running a .pyc by path checks only the magic number.
constexpr const char* kCompileScript =
    "import sys, marshal, importlib.util\n"
    "code = compile(sys.stdin.buffer.read(), sys.argv[1], 'exec', dont_inherit=True)\n"
    "sys.stdout.buffer.write(importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code))\n";

QMutex& mutex()
{
    static QMutex m;
    return m;
}

QHash<QByteArray, QByteArray>& cache()
{
    static QHash<QByteArray, QByteArray> c;
    return c;
}

// The user's own cache (never a shared temp folder: a planted file there would run as the
// wrapper). Empty when there is none: then compiled code lives in memory only.
QString diskCacheDir()
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    if (base.isEmpty())
        return {};
    const QString dir = base + QStringLiteral("/sandpad/bytecode");
    return QDir().mkpath(dir) ? dir : QString();
}

QByteArray readCached(const QString& path)
{
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray pyc = file.read(16 << 20);
    return pyc.size() > 16 ? pyc : QByteArray();
}

void writeCached(const QString& path, const QByteArray& pyc)
{
    if (path.isEmpty() || pyc.isEmpty())
        return;
    QSaveFile file(path); // whole or not at all: a reader never sees half a file
    if (file.open(QIODevice::WriteOnly) && file.write(pyc) == pyc.size())
        file.commit();
}

} // namespace

QByteArray WrapperBytecode::compile(const QString& interpreter, const QByteArray& source, const QString& sourceName)
{
    QProcess python;
    // -I: no user site, no PYTHON* variables, no current directory on the path; our own text only.
    python.start(interpreter, {QStringLiteral("-I"), QStringLiteral("-S"), QStringLiteral("-c"),
                               QString::fromLatin1(kCompileScript), sourceName});
    if (!python.waitForStarted(10000))
        return {};
    python.write(source);
    python.closeWriteChannel();
    if (!python.waitForFinished(30000) || python.exitStatus() != QProcess::NormalExit || python.exitCode() != 0) {
        python.kill();
        python.waitForFinished(1000);
        return {};
    }
    const QByteArray pyc = python.readAllStandardOutput();
    return pyc.size() > 16 ? pyc : QByteArray();
}

std::optional<QByteArray> WrapperBytecode::lookup(const QString& interpreter, const QByteArray& source,
                                                  const QString& sourceName)
{
    // The interpreter's identity too (an upgrade of the same path changes the magic number).
    const QFileInfo binary(QFileInfo(interpreter).canonicalFilePath());
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(interpreter.toUtf8());
    hash.addData(binary.filePath().toUtf8());
    hash.addData(QByteArray::number(binary.size()) + ' ' + QByteArray::number(binary.lastModified().toMSecsSinceEpoch()));
    hash.addData(QByteArrayView("\n"));
    hash.addData(sourceName.toUtf8());
    hash.addData(QByteArrayView("\n"));
    hash.addData(source);
    const QByteArray key = hash.result();
    QMutexLocker lock(&mutex()); // one compile at a time; the others wait for its result
    const auto it = cache().constFind(key);
    if (it != cache().constEnd())
        return it->isEmpty() ? std::nullopt : std::optional<QByteArray>(*it);
    static const QString dir = diskCacheDir();
    const QString path = dir.isEmpty() ? QString() : dir + u'/' + QString::fromLatin1(key.toHex()) + QStringLiteral(".pyc");
    QByteArray pyc = readCached(path);
    if (pyc.isEmpty()) {
        pyc = compile(interpreter, source, sourceName);
        writeCached(path, pyc);
    }
    cache().insert(key, pyc); // empty: failed, the source is used from now on
    return pyc.isEmpty() ? std::nullopt : std::optional<QByteArray>(pyc);
}

} // namespace sandpad::localsandbox
