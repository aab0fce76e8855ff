#include "ui/editor/WordCompleter.h"

#include <QRegularExpression>
#include <QSet>

namespace sandpad {

const QStringList& WordCompleter::keywords(Language language)
{
    static const QStringList python{
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
        "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
        "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
        // the builtins a snippet uses most
        "abs", "all", "any", "bool", "dict", "enumerate", "filter", "float", "format", "int", "isinstance",
        "len", "list", "map", "max", "min", "open", "print", "range", "repr", "reversed", "round", "set",
        "sorted", "str", "sum", "tuple", "type", "zip"};
    static const QStringList javascript{
        "async", "await", "break", "case", "catch", "class", "const", "continue", "default", "delete",
        "do", "else", "export", "extends", "false", "finally", "for", "function", "if", "import", "in",
        "instanceof", "let", "new", "null", "return", "static", "super", "switch", "this", "throw", "true",
        "try", "typeof", "undefined", "var", "void", "while", "yield",
        "Array", "JSON", "Map", "Math", "Number", "Object", "Promise", "Set", "String", "console"};
    return language == Language::Python ? python : javascript;
}

QStringList WordCompleter::candidates(const QString& text, Language language, const QString& prefix,
                                      const QString& qualifier)
{
    static const QRegularExpression pyWord(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*"));
    static const QRegularExpression jsWord(QStringLiteral("[A-Za-z_$][A-Za-z0-9_$]*"));
    const QRegularExpression& word = language == Language::Python ? pyWord : jsWord;
    QSet<QString> found;
    if (!qualifier.isEmpty()) {
        // The names written after "qualifier." anywhere in the text.
        const QRegularExpression after(QRegularExpression::escape(qualifier) + QStringLiteral("\\s*\\.\\s*(")
                                       + word.pattern() + QLatin1Char(')'));
        for (auto it = after.globalMatch(text); it.hasNext();) {
            const QString name = it.next().captured(1);
            if (name.startsWith(prefix) && name != prefix)
                found.insert(name);
        }
    } else {
        if (prefix.isEmpty())
            return {};
        for (auto it = word.globalMatch(text); it.hasNext();) {
            const QString name = it.next().captured(0);
            if (name.size() > prefix.size() && name.startsWith(prefix))
                found.insert(name);
        }
        for (const QString& k : keywords(language))
            if (k.size() > prefix.size() && k.startsWith(prefix))
                found.insert(k);
    }
    QStringList sorted(found.begin(), found.end());
    std::sort(sorted.begin(), sorted.end(), [](const QString& a, const QString& b) {
        const int c = a.compare(b, Qt::CaseInsensitive);
        return c != 0 ? c < 0 : a < b;
    });
    if (sorted.size() > kMaxCandidates)
        sorted.resize(kMaxCandidates);
    return sorted;
}

} // namespace sandpad
