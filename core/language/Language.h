#pragma once

#include <QString>
#include <optional>

namespace sandpad {

// The languages a snippet can be written in.
enum class Language { Python, JavaScript };

QString languageName(Language language);                 // "python" / "javascript"
std::optional<Language> languageFromName(const QString& name);
// From a title or file name: no extension or .py -> Python; .js/.mjs/.cjs -> JavaScript;
// anything else -> nullopt (the caller refuses with a clear error).
std::optional<Language> languageFromTitle(const QString& title);
// The language the title's extension names, without the no-extension default: nullopt for
// "notes" as for "notes.txt" (for callers that must not guess Python).
std::optional<Language> languageOfExtension(const QString& title);
QString languageExtension(Language language); // "py" / "js"
// title with its extension set to the language's: "a.js" -> "a.py", "a" -> "a.py".
QString titleWithLanguage(const QString& title, Language language);

} // namespace sandpad
