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
