#include "core/engine/ArtifactCollector.h"

#include "core/runtime/ResultLimits.h"
#include "core/sandbox/Sandbox.h"

#include <QCryptographicHash>
#include <QJsonObject>
#include <QMimeDatabase>
#include <QRegularExpression>

#include <algorithm>

namespace sandpad {

namespace {

constexpr int kMaxNameChars = 1024;
constexpr int kNamedNotices = 5; // then "and N more"

bool isUnsafe(QChar::Category category)
{
    return category == QChar::Other_Control || category == QChar::Other_Format;
}

QString shown(const QString& name)
{
    return name.size() > 80 ? name.left(77) + QStringLiteral("...") : name;
}

// A name the wrapper did not escape (a forged or older result), made safe to show in a notice:
// control and format characters and lone surrogates as \u{XXXX}, so the notice is still given.
QString escaped(const QString& name)
{
    QString out;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name.at(i);
        if (c.isHighSurrogate() && i + 1 < name.size() && name.at(i + 1).isLowSurrogate()) {
            const char32_t code = QChar::surrogateToUcs4(c, name.at(i + 1));
            if (isUnsafe(QChar::category(code)))
                out += QStringLiteral("\\u{%1}").arg(uint(code), 4, 16, QLatin1Char('0'));
            else
                out += name.mid(i, 2);
            ++i;
        } else if (c.isSurrogate() || isUnsafe(c.category())) {
            out += QStringLiteral("\\u{%1}").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        } else {
            out += c;
        }
    }
    return shown(out);
}

} // namespace

bool ArtifactCollector::isSafeName(const QString& name)
{
    if (name.isEmpty() || name.size() > kMaxNameChars || name.startsWith(u'/'))
        return false;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name.at(i);
        if (c.isHighSurrogate() && i + 1 < name.size() && name.at(i + 1).isLowSurrogate()) {
            const char32_t code = QChar::surrogateToUcs4(c, name.at(i + 1));
            if (isUnsafe(QChar::category(code)))
                return false;
            ++i;
            continue;
        }
        // Raw control and format characters, and lone surrogates (a name that was not UTF-8),
        // come escaped by the wrapper; unescaped, the name is refused.
        if (c.isSurrogate() || isUnsafe(c.category()))
            return false;
        if (c == u'\\') { // only the wrapper's escapes: a doubled backslash, or \xHH
            if (name.mid(i, 2) == u"\\\\") {
                ++i;
                continue;
            }
            auto hex = [&](qsizetype at) {
                const QChar h = at < name.size() ? name.at(at) : QChar();
                return (h >= u'0' && h <= u'9') || (h >= u'a' && h <= u'f');
            };
            if (i + 3 >= name.size() || name.at(i + 1) != u'x' || !hex(i + 2) || !hex(i + 3))
                return false;
            i += 3;
        }
    }
    for (const QStringView part : QStringView(name).split(u'/'))
        if (part.isEmpty() || part == u"." || part == u"..")
            return false;
    return true;
}

QString ArtifactCollector::mimeType(const QString& name, const QByteArray& content)
{
    static const QMimeDatabase db;
    return db.mimeTypeForFileNameAndData(name, content).name();
}

QList<RunArtifact> ArtifactCollector::collect(const QJsonArray& listed, const QJsonArray& omitted, const QString& outDir,
                                              Sandbox& sandbox, QStringList* notices)
{
    using L = ResultLimits;
    static const QRegularExpression frameName(QStringLiteral("^artifact-[0-9]{1,6}$"));
    QList<RunArtifact> kept;
    QStringList overBytes, overFiles, other;
    bool overEntries = false;
    qint64 unnamed = 0;
    qint64 total = 0;
    for (const QJsonValue& value : listed) {
        const QJsonObject o = value.toObject();
        const QString name = o.value(QStringLiteral("name")).toString();
        const QString file = o.value(QStringLiteral("file")).toString();
        const qint64 size = qint64(o.value(QStringLiteral("size")).toDouble(-1));
        if (!isSafeName(name) || !frameName.match(file).hasMatch() || size < 0) {
            other << (name.isEmpty() ? QStringLiteral("an entry with an invalid name was ignored")
                                     : QStringLiteral("%1: an entry with an invalid name was ignored").arg(escaped(name)));
            continue;
        }
        // Counted before the file is read: the declared size must fit what is left.
        if (kept.size() >= L::artifactsPerRun) {
            overFiles << name;
            continue;
        }
        if (total + size > L::artifactBytesPerRun) {
            overBytes << QStringLiteral("%1 (%2)").arg(shown(name), L::bytesText(size));
            continue;
        }
        const auto content = sandbox.readFile(outDir + u'/' + file);
        if (!content || content->size() != size) {
            other << QStringLiteral("%1: its content did not arrive").arg(shown(name));
            continue;
        }
        total += size;
        RunArtifact artifact;
        artifact.name = name;
        artifact.size = size;
        artifact.content = *content;
        artifact.sha256 = QString::fromLatin1(QCryptographicHash::hash(*content, QCryptographicHash::Sha256).toHex());
        artifact.mimeType = mimeType(name, *content);
        kept << artifact;
    }
    for (const QJsonValue& value : omitted) {
        const QJsonObject o = value.toObject();
        const QString name = o.value(QStringLiteral("name")).toString();
        const QString reason = o.value(QStringLiteral("reason")).toString();
        const qint64 size = qint64(o.value(QStringLiteral("size")).toDouble(0));
        if (reason == u"entries") {
            overEntries = true;
            continue;
        }
        if (reason == u"more") { // not named by the wrapper: counted only
            unnamed += std::clamp<qint64>(size, 0, L::artifactEntriesPerRun);
            continue;
        }
        // A name that is not safe is still named (escaped): a thing left out is never silent.
        const QString shownName = isSafeName(name) ? shown(name) : escaped(name);
        if (reason == u"bytes")
            overBytes << QStringLiteral("%1 (%2)").arg(shownName, L::bytesText(size));
        else if (reason == u"files")
            overFiles << shownName;
        else if (reason == u"a symbolic link")
            other << QStringLiteral("%1 is a symbolic link (files are read without following links)").arg(shownName);
        else
            other << QStringLiteral("%1 is not a regular file").arg(shownName);
    }
    if (!notices)
        return kept;
    auto named = [](const QStringList& names) {
        QString text = names.mid(0, kNamedNotices).join(QStringLiteral(", "));
        if (names.size() > kNamedNotices)
            text += QStringLiteral(" and %1 more").arg(ResultLimits::countText(names.size() - kNamedNotices));
        return text;
    };
    if (!overBytes.isEmpty())
        *notices << QStringLiteral("Sandpad: not returned: %1: the run's files are limited to %2 per run")
                        .arg(named(overBytes), L::bytesText(L::artifactBytesPerRun));
    if (!overFiles.isEmpty())
        *notices << QStringLiteral("Sandpad: not returned: %1: a run returns at most %2 files")
                        .arg(named(overFiles), L::countText(L::artifactsPerRun));
    if (overEntries)
        *notices << QStringLiteral("Sandpad: the working directory has more than %1 files and folders; the rest were not looked at")
                        .arg(L::countText(L::artifactEntriesPerRun));
    if (!other.isEmpty())
        *notices << QStringLiteral("Sandpad: not returned: %1").arg(named(other));
    if (unnamed > 0) // the wrapper names up to 1,000 things it left out and counts the rest
        *notices << QStringLiteral("Sandpad: %1 more files were not returned").arg(L::countText(unnamed));
    return kept;
}

} // namespace sandpad
