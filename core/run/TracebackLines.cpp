#include "core/run/TracebackLines.h"

#include <QRegularExpression>
#include <QStringList>

namespace sandpad {

namespace {

// The names a JavaScript stack gives the snippet: its title (trimmed, as the runtime program
// writes it into the manifest), or the default file name when it had none. A session's cell
// runs under a sourceURL without spaces, which the wrapper maps back; both are accepted.
QStringList javaScriptNames(const QString& title)
{
    const QString trimmed = title.trimmed();
    if (trimmed.isEmpty())
        return {QStringLiteral("main.mjs")};
    QStringList names{trimmed};
    QString sourceUrl = trimmed;
    sourceUrl.replace(QRegularExpression(QStringLiteral("\\s")), QStringLiteral("_"));
    if (sourceUrl != trimmed)
        names.append(sourceUrl);
    return names;
}

} // namespace

QList<TracebackLines::Link> TracebackLines::links(const QString& traceback, Language language, const QString& title)
{
    QList<Link> found;
    const QStringList lines = traceback.split(QLatin1Char('\n'));
    if (language == Language::Python) {
        static const QRegularExpression pyLine(QStringLiteral("line (\\d+)"));
        for (int i = 0; i < lines.size(); ++i) {
            const auto m = pyLine.match(lines[i]);
            if (m.hasMatch())
                found.append({i, int(m.capturedStart(1)), int(m.capturedLength(1)), m.captured(1).toInt()});
        }
        return found;
    }
    // "NAME:N" or "NAME:N:C" where a file name stands: at the start of the line (a syntax
    // error's heading), after "at " or inside "(…)"; followed by the end, ")" or ",".
    QStringList alternatives;
    for (const QString& name : javaScriptNames(title))
        alternatives.append(QRegularExpression::escape(name));
    const QRegularExpression frame(QStringLiteral("(?:^|[\\s(])(?:%1):(\\d+)(?::\\d+)?(?=\\)|,|\\s*$)")
                                       .arg(alternatives.join(QLatin1Char('|'))));
    for (int i = 0; i < lines.size(); ++i) {
        const QString& line = lines[i];
        const QString trimmed = line.trimmed();
        // Frames start with "at "; only the heading (the first line) may be a bare location.
        if (!trimmed.startsWith(QLatin1String("at ")) && i != 0)
            continue;
        const auto m = frame.match(line);
        if (m.hasMatch() && m.captured(1).toInt() > 0)
            found.append({i, int(m.capturedStart(1)), int(m.capturedLength(1)), m.captured(1).toInt()});
    }
    return found;
}

std::optional<int> TracebackLines::innermost(const QString& traceback, Language language, const QString& title)
{
    const QList<Link> found = links(traceback, language, title);
    if (found.isEmpty())
        return std::nullopt;
    return language == Language::Python ? found.constLast().codeLine : found.constFirst().codeLine;
}

} // namespace sandpad
