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

} // namespace sandpad
