#include "core/runtime/PipDirectives.h"

#include <QRegularExpression>
#include <QSet>

namespace sandpad {

const QStringList& PipDirectives::basePackages()
{
    // Only what every runtime is sure to have. Not yfinance: the providers try to provide it, but
    // it is not in Debian and the local sandbox lacks it, so `!pip install yfinance` must reach
    // pip (which does nothing where it is installed already).
    static const QStringList base{QStringLiteral("matplotlib"), QStringLiteral("pandas"),
                                  QStringLiteral("numpy"), QStringLiteral("sympy")};
    return base;
}

QString PipDirectives::normalizedName(const QString& requirement)
{
    // The name ends at the first character that cannot be part of it: a specifier, extras,
    // a marker or whitespace.
    static const QRegularExpression nameEnd(QStringLiteral("[^A-Za-z0-9._-]"));
    QString name = requirement.trimmed();
    const qsizetype end = name.indexOf(nameEnd);
    if (end >= 0)
        name.truncate(end);
    static const QRegularExpression separators(QStringLiteral("[-_.]+"));
    return name.toLower().replace(separators, QStringLiteral("-"));
}

static bool isDirective(const QString& trimmed)
{
    return trimmed.startsWith(u"!pip install ") || trimmed.startsWith(u"%pip install ")
        || trimmed == u"!pip install" || trimmed == u"%pip install";
}

PipDirectives PipDirectives::parse(const QString& code)
{
    PipDirectives out;
    QStringList lines = code.split(u'\n');
    QSet<QString> seen;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString trimmed = lines[i].trimmed();
        if (!isDirective(trimmed))
            continue;
        out.m_lines.append(int(i + 1));
        // Keep a trailing '\r' so CRLF files stay CRLF.
        lines[i] = lines[i].endsWith(u'\r') ? QStringLiteral("\r") : QString();

        QString args = trimmed.mid(QStringLiteral("!pip install").size());
        const qsizetype comment = args.indexOf(u'#');
        if (comment >= 0)
            args.truncate(comment);
        const QStringList words = args.split(u' ', Qt::SkipEmptyParts);
        bool skipValue = false;
        for (QString word : words) {
            word = word.trimmed();
            if (word.isEmpty())
                continue;
            if (skipValue) { // the value of an option such as `-i URL`
                skipValue = false;
                continue;
            }
            if (word.startsWith(u'-')) {
                // Options that take a separate value; their value is not a package.
                static const QSet<QString> withValue{
                    QStringLiteral("-i"), QStringLiteral("--index-url"),
                    QStringLiteral("--extra-index-url"), QStringLiteral("-f"),
                    QStringLiteral("--find-links"), QStringLiteral("-t"), QStringLiteral("--target"),
                    QStringLiteral("-c"), QStringLiteral("--constraint"), QStringLiteral("-r"),
                    QStringLiteral("--requirement"), QStringLiteral("--prefix"),
                    QStringLiteral("--root"), QStringLiteral("--trusted-host"),
                    QStringLiteral("--platform"), QStringLiteral("--python-version"),
                    QStringLiteral("--timeout"), QStringLiteral("--retries"),
                    QStringLiteral("--proxy")};
                skipValue = withValue.contains(word);
                continue;
            }
            // Quotes as a shell would strip them: !pip install "pandas<2"
            if (word.size() >= 2 && (word.front() == u'"' || word.front() == u'\'')
                && word.back() == word.front())
                word = word.mid(1, word.size() - 2);
            if (word.isEmpty() || seen.contains(word))
                continue;
            seen.insert(word);
            out.m_packages.append(word);
        }
    }
    out.m_code = lines.join(u'\n');
    return out;
}

QStringList PipDirectives::packagesToInstall() const
{
    QSet<QString> base;
    for (const QString& name : basePackages())
        base.insert(normalizedName(name));
    QStringList out;
    for (const QString& package : m_packages) {
        if (!base.contains(normalizedName(package)))
            out.append(package);
    }
    return out;
}

} // namespace sandpad
