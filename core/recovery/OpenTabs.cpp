#include "core/recovery/OpenTabs.h"

#include <QDir>
#include <algorithm>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace sandpad {

namespace {

constexpr qint64 kMaxFileBytes = 64 * 1024 * 1024; // far above what kMaxTextChars tabs need

QString kindName(OpenTab::Kind kind)
{
    switch (kind) {
    case OpenTab::Kind::Untitled: return QStringLiteral("untitled");
    case OpenTab::Kind::File: return QStringLiteral("file");
    case OpenTab::Kind::Document: return QStringLiteral("document");
    case OpenTab::Kind::Revision: return QStringLiteral("revision");
    }
    return {};
}

std::optional<OpenTab::Kind> kindFromName(const QString& name)
{
    for (auto kind : {OpenTab::Kind::Untitled, OpenTab::Kind::File, OpenTab::Kind::Document, OpenTab::Kind::Revision})
        if (kindName(kind) == name)
            return kind;
    return std::nullopt;
}

} // namespace

QString OpenTabs::filePath(const QString& dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("open-tabs.json"));
}

bool OpenTabs::write(const QString& path, QString* error) const
{
    QJsonArray list;
    for (const OpenTab& tab : tabs) {
        QJsonObject o{{QStringLiteral("kind"), kindName(tab.kind)},
                      {QStringLiteral("title"), tab.title},
                      {QStringLiteral("language"), tab.language},
                      {QStringLiteral("line"), tab.line},
                      {QStringLiteral("column"), tab.column},
                      {QStringLiteral("fresh_runs"), tab.freshRuns}};
        if (tab.kind == OpenTab::Kind::File)
            o.insert(QStringLiteral("path"), tab.path);
        if (tab.kind == OpenTab::Kind::Document || tab.kind == OpenTab::Kind::Revision)
            o.insert(QStringLiteral("document_id"), tab.documentId);
        if (tab.kind == OpenTab::Kind::Revision)
            o.insert(QStringLiteral("revision_id"), tab.revisionId);
        if (tab.kind == OpenTab::Kind::Untitled)
            o.insert(QStringLiteral("text"), tab.text.left(kMaxTextChars));
        if (!tab.input.isEmpty())
            o.insert(QStringLiteral("input"), tab.input.toJson());
        list.append(o);
    }
    const QJsonObject root{{QStringLiteral("version"), kFormatVersion},
                           {QStringLiteral("current"), current},
                           {QStringLiteral("tabs"), list}};
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(root).toJson(QJsonDocument::Compact)) < 0
        || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

std::optional<OpenTabs> OpenTabs::read(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.exists())
        return std::nullopt;
    auto fail = [&](const QString& why) -> std::optional<OpenTabs> {
        if (error)
            *error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), why);
        return std::nullopt;
    };
    if (file.size() > kMaxFileBytes)
        return fail(QStringLiteral("too large (%1 bytes)").arg(file.size()));
    if (!file.open(QIODevice::ReadOnly))
        return fail(file.errorString());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject())
        return fail(parseError.error != QJsonParseError::NoError ? parseError.errorString() : QStringLiteral("not a JSON object"));
    const QJsonObject root = doc.object();
    if (root.value(QStringLiteral("version")).toInt() != kFormatVersion)
        return fail(QStringLiteral("unknown format version %1").arg(root.value(QStringLiteral("version")).toInt()));
    OpenTabs result;
    for (const QJsonValue& value : root.value(QStringLiteral("tabs")).toArray()) {
        const QJsonObject o = value.toObject();
        const auto kind = kindFromName(o.value(QStringLiteral("kind")).toString());
        if (!kind)
            continue; // a tab of a kind this version does not know: the others still come back
        OpenTab tab;
        tab.kind = *kind;
        tab.title = o.value(QStringLiteral("title")).toString();
        tab.path = o.value(QStringLiteral("path")).toString();
        tab.documentId = o.value(QStringLiteral("document_id")).toString();
        tab.revisionId = o.value(QStringLiteral("revision_id")).toString();
        tab.language = o.value(QStringLiteral("language")).toString();
        tab.text = o.value(QStringLiteral("text")).toString().left(kMaxTextChars);
        tab.line = std::max(0, o.value(QStringLiteral("line")).toInt());
        tab.column = std::max(0, o.value(QStringLiteral("column")).toInt());
        tab.freshRuns = o.value(QStringLiteral("fresh_runs")).toBool();
        tab.input = TabInput::fromJson(o.value(QStringLiteral("input")));
        if ((tab.kind == OpenTab::Kind::File && tab.path.isEmpty())
            || (tab.kind != OpenTab::Kind::File && tab.kind != OpenTab::Kind::Untitled && tab.documentId.isEmpty()))
            continue;
        result.tabs.append(tab);
    }
    result.current = std::clamp(root.value(QStringLiteral("current")).toInt(), 0, std::max(0, int(result.tabs.size()) - 1));
    return result;
}

std::optional<OpenTabs> OpenTabs::take(const QString& path, QString* error)
{
    auto tabs = read(path, error);
    if (QFile::exists(path) && !QFile::remove(path)) {
        // Not removed: it would come back at every start. Keep it aside instead.
        QFile::remove(path + QStringLiteral(".old"));
        QFile::rename(path, path + QStringLiteral(".old"));
    }
    return tabs;
}

} // namespace sandpad
