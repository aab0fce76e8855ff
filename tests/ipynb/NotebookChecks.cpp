#include "NotebookChecks.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QFile>

namespace sandpad::test {

QString nbformatProblems(const QByteArray& notebookJson)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("checked.ipynb"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(notebookJson) != notebookJson.size())
        return QStringLiteral("cannot write %1").arg(path);
    file.close();
    QProcess python;
    // Debian's python3, where python3-nbformat is (packaging/install-deps.sh), not a python3 earlier on PATH.
    python.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral(SANDPAD_SOURCE_DIR "/tests/ipynb/validate_notebook.py"), path});
    if (!python.waitForFinished(60000))
        return QStringLiteral("python3 did not finish: %1").arg(python.errorString());
    if (python.exitStatus() != QProcess::NormalExit || python.exitCode() != 0)
        return QString::fromUtf8(python.readAllStandardError() + python.readAllStandardOutput());
    return {};
}

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace sandpad::test
