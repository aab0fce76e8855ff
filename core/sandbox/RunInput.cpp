#include "core/sandbox/RunInput.h"

#include <QLocale>
#include <QSet>

namespace sandpad {

namespace {

QString mib(qint64 bytes)
{
    return QStringLiteral("%1 MiB").arg(QLocale::c().toString(double(bytes) / (1 << 20), 'f', 1));
}

} // namespace

QString RunInput::nameProblem(const QString& name)
{
    if (name.isEmpty())
        return QStringLiteral("an input file needs a name");
    if (name == u'.' || name == QLatin1String("..") || name.contains(u'/') || name.contains(u'\\'))
        return QStringLiteral("the input file name \"%1\" must be a plain file name (no folder)").arg(name);
    if (name.toUtf8().size() > 255)
        return QStringLiteral("the input file name \"%1…\" is longer than 255 bytes").arg(name.left(40));
    for (const QChar c : name)
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            return QStringLiteral("the input file name \"%1\" has a control character").arg(name.toHtmlEscaped());
    return {};
}

QString RunInput::problem() const
{
    if (files.size() > maxFiles)
        return QStringLiteral("%1 input files; the limit is %2 per run").arg(files.size()).arg(maxFiles);
    qint64 total = 0;
    QSet<QString> names;
    for (const InputFile& file : files) {
        if (const QString why = nameProblem(file.name); !why.isEmpty())
            return why;
        if (names.contains(file.name))
            return QStringLiteral("two input files are named \"%1\"").arg(file.name);
        names.insert(file.name);
        total += file.content.size();
        if (file.content.size() > maxFileBytes)
            return QStringLiteral("the input file %1 is %2; the limit is %3").arg(file.name, mib(file.content.size()), mib(maxFileBytes));
    }
    if (total > maxFileBytes)
        return QStringLiteral("the input files are %1 together; the limit is %2 per run").arg(mib(total), mib(maxFileBytes));
    if (stdinData && stdinData->size() > maxStdinBytes)
        return QStringLiteral("the input (stdin) is %1; the limit is %2").arg(mib(stdinData->size()), mib(maxStdinBytes));
    return {};
}

} // namespace sandpad
