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

QString shown(const QString& name)
{
    return name.size() > 80 ? name.left(77) + QStringLiteral("...") : name;
}

} // namespace

bool ArtifactCollector::isSafeName(const QString& name)
{
    if (name.isEmpty() || name.size() > kMaxNameChars || name.startsWith(u'/') || name.contains(u'\\'))
        return false;
    for (const QChar c : name)
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            return false;
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
            other << QStringLiteral("an entry with an invalid name was ignored");
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
        if (!isSafeName(name))
            continue;
        if (reason == u"bytes")
            overBytes << QStringLiteral("%1 (%2)").arg(shown(name), L::bytesText(size));
        else if (reason == u"files")
            overFiles << name;
        else if (reason == u"a symbolic link")
            other << QStringLiteral("%1 is a symbolic link (files are read without following links)").arg(shown(name));
        else
            other << QStringLiteral("%1 is not a regular file").arg(shown(name));
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
