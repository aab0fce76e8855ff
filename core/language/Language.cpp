#include "core/language/Language.h"

#include <QFileInfo>

namespace sandpad {

QString languageName(Language language)
{
    return language == Language::Python ? QStringLiteral("python") : QStringLiteral("javascript");
}

std::optional<Language> languageFromName(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == u"python" || n == u"py" || n == u"python3")
        return Language::Python;
    if (n == u"javascript" || n == u"js" || n == u"node")
        return Language::JavaScript;
    return std::nullopt;
}

namespace {
// The extension of the title's file name, lower case; empty when it has none.
QString extensionOf(const QString& title, qsizetype* dotInTitle = nullptr)
{
    const QString trimmed = title.trimmed();
    const QString name = QFileInfo(trimmed).fileName();
    const qsizetype dot = name.lastIndexOf(u'.');
    if (dot <= 0) // no extension (a leading dot is a hidden name, not an extension)
        return {};
    if (dotInTitle)
        *dotInTitle = trimmed.size() - name.size() + dot;
    return name.mid(dot + 1).toLower();
}
} // namespace

std::optional<Language> languageOfExtension(const QString& title)
{
    const QString ext = extensionOf(title);
    if (ext.isEmpty())
        return std::nullopt;
    return languageFromTitle(title);
}

QString languageExtension(Language language)
{
    return language == Language::Python ? QStringLiteral("py") : QStringLiteral("js");
}

QString titleWithLanguage(const QString& title, Language language)
{
    const QString trimmed = title.trimmed();
    qsizetype dot = -1;
    const QString ext = extensionOf(trimmed, &dot);
    if (!ext.isEmpty() && languageOfExtension(trimmed) == language)
        return trimmed;
    // A known code extension is replaced; any other dot is part of the name ("v1.2").
    const QString base = !ext.isEmpty() && languageFromTitle(trimmed) ? trimmed.left(dot) : trimmed;
    return base + QLatin1Char('.') + languageExtension(language);
}

std::optional<Language> languageFromTitle(const QString& title)
{
    const QString name = QFileInfo(title.trimmed()).fileName();
    const qsizetype dot = name.lastIndexOf(u'.');
    if (dot <= 0) // no extension (a leading dot is a hidden name, not an extension)
        return Language::Python;
    const QString ext = name.mid(dot + 1).toLower();
    if (ext == u"py")
        return Language::Python;
    if (ext == u"js" || ext == u"mjs" || ext == u"cjs")
        return Language::JavaScript;
    return std::nullopt;
}

} // namespace sandpad
