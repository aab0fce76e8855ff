#include "core/recovery/RecoveryJournal.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <algorithm>

namespace sandpad {

namespace {
constexpr qint64 kMaxRecoveryFileBytes = 512ll << 20; // far above any editor text we keep
constexpr int kRetryMs = 5000;                        // after a failed write
}

RecoveryJournal::RecoveryJournal(const QString& dataDir, QObject* parent)
    : QObject(parent), m_dir(QDir(dataDir).filePath(QStringLiteral("recovery")))
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &RecoveryJournal::onTimer);
}

RecoveryJournal::~RecoveryJournal() = default;

void RecoveryJournal::setDebounceMs(int ms)
{
    m_timer.setInterval(std::max(0, ms));
}

void RecoveryJournal::noteChanged(const QString& tabId, const RecoverySnapshot& snapshot)
{
    noteChanged(tabId, SnapshotFn([snapshot] { return snapshot; }));
}

void RecoveryJournal::noteChanged(const QString& tabId, const SnapshotFn& snapshot)
{
    m_dirty.insert(tabId, snapshot);
    if (!m_timer.isActive())
        m_timer.start();
}

void RecoveryJournal::onTimer()
{
    bool failed = false;
    const QStringList tabs = m_dirty.keys();
    for (const QString& tab : tabs)
        failed |= !write(tab);
    if (failed && !m_dirty.isEmpty())
        m_timer.start(std::max(m_timer.interval(), kRetryMs));
    else if (!m_dirty.isEmpty())
        m_timer.start();
}

bool RecoveryJournal::flush()
{
    bool ok = true;
    const QStringList tabs = m_dirty.keys();
    for (const QString& tab : tabs)
        ok &= write(tab);
    if (m_dirty.isEmpty())
        m_timer.stop();
    return ok;
}

bool RecoveryJournal::flush(const QString& tabId)
{
    return !m_dirty.contains(tabId) || write(tabId);
}

void RecoveryJournal::discard(const QString& tabId)
{
    m_dirty.remove(tabId);
    const QString path = filePathFor(tabId);
    if (QFileInfo::exists(path) && !QFile::remove(path))
        m_lastError = tr("Could not remove the recovery file %1.").arg(path);
}

QString RecoveryJournal::filePathFor(const QString& tabId) const
{
    // Tab ids become file names: anything unusual is hashed so no id can escape the directory.
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_-]{1,100}$"));
    const QString name = safe.match(tabId).hasMatch()
        ? tabId
        : QString::fromLatin1(QCryptographicHash::hash(tabId.toUtf8(), QCryptographicHash::Sha1).toHex());
    return QDir(m_dir).filePath(name + QStringLiteral(".json"));
}

bool RecoveryJournal::write(const QString& tabId)
{
    const auto it = m_dirty.constFind(tabId);
    if (it == m_dirty.constEnd())
        return true;
    RecoverySnapshot s = (*it)();
    s.tabId = tabId;
    s.savedAt = QDateTime::currentDateTimeUtc();

    auto fail = [&](const QString& message) {
        m_lastError = message;
        emit writeFailed(tabId, message);
        return false;
    };
    if (!QDir().mkpath(m_dir))
        return fail(tr("Cannot create the recovery directory %1.").arg(m_dir));

    QJsonObject o;
    o.insert(QStringLiteral("format"), QStringLiteral("sandpad-recovery"));
    o.insert(QStringLiteral("version"), kFormatVersion);
    o.insert(QStringLiteral("tabId"), s.tabId);
    o.insert(QStringLiteral("title"), s.title);
    o.insert(QStringLiteral("language"), s.language);
    o.insert(QStringLiteral("documentId"), s.documentId);
    o.insert(QStringLiteral("baseRevisionId"), s.baseRevisionId);
    o.insert(QStringLiteral("text"), s.text);
    if (!s.input.isEmpty())
        o.insert(QStringLiteral("input"), s.input.toJson());
    o.insert(QStringLiteral("savedAt"), s.savedAt.toString(Qt::ISODateWithMs));

    const QString path = filePathFor(tabId);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(tr("Cannot write the recovery file %1: %2").arg(path, file.errorString()));
    const QByteArray bytes = QJsonDocument(o).toJson(QJsonDocument::Compact);
    if (file.write(bytes) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return fail(tr("Cannot write the recovery file %1: %2").arg(path, why));
    }
    if (!file.commit())
        return fail(tr("Cannot save the recovery file %1: %2").arg(path, file.errorString()));
    m_dirty.remove(tabId);
    emit written(tabId);
    return true;
}

std::optional<RecoverySnapshot> RecoveryJournal::readFile(const QString& path, QString* error)
{
    auto bad = [&](const QString& message) -> std::optional<RecoverySnapshot> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return bad(tr("Cannot read %1: %2").arg(path, file.errorString()));
    if (file.size() > kMaxRecoveryFileBytes)
        return bad(tr("%1 is too large to be a recovery file.").arg(path));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return bad(tr("%1 is damaged (%2).")
                       .arg(path, parseError.error != QJsonParseError::NoError
                                      ? parseError.errorString()
                                      : tr("not a JSON object")));
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("format")).toString() != QStringLiteral("sandpad-recovery"))
        return bad(tr("%1 is not a Sandpad recovery file.").arg(path));
    const int version = o.value(QStringLiteral("version")).toInt(-1);
    if (version < 1)
        return bad(tr("%1 has no valid version.").arg(path));
    if (version > kFormatVersion)
        return bad(tr("%1 was written by a newer Sandpad (format %2).").arg(path).arg(version));
    if (!o.value(QStringLiteral("text")).isString())
        return bad(tr("%1 has no text.").arg(path));
    RecoverySnapshot s;
    s.tabId = o.value(QStringLiteral("tabId")).toString();
    s.title = o.value(QStringLiteral("title")).toString();
    s.language = o.value(QStringLiteral("language")).toString();
    s.documentId = o.value(QStringLiteral("documentId")).toString();
    s.baseRevisionId = o.value(QStringLiteral("baseRevisionId")).toString();
    s.text = o.value(QStringLiteral("text")).toString();
    s.input = TabInput::fromJson(o.value(QStringLiteral("input")));
    s.savedAt = QDateTime::fromString(o.value(QStringLiteral("savedAt")).toString(), Qt::ISODateWithMs);
    if (!s.savedAt.isValid())
        s.savedAt = QFileInfo(path).lastModified().toUTC();
    return s;
}

QList<RecoveryEntry> RecoveryJournal::pending() const
{
    QList<RecoveryEntry> entries;
    const QFileInfoList files = QDir(m_dir).entryInfoList({QStringLiteral("*.json")},
                                                          QDir::Files, QDir::Time | QDir::Reversed);
    for (const QFileInfo& info : files) {
        RecoveryEntry e;
        e.path = info.absoluteFilePath();
        e.tabId = info.completeBaseName();
        e.snapshot = readFile(e.path, &e.error);
        if (e.snapshot && !e.snapshot->tabId.isEmpty())
            e.tabId = e.snapshot->tabId;
        entries.append(e);
    }
    return entries;
}

bool RecoveryJournal::discardEntry(const RecoveryEntry& entry)
{
    bool ok;
    if (entry.isValid()) {
        ok = QFile::remove(entry.path);
    } else {
        const QString aside = entry.path + QStringLiteral(".corrupt");
        QFile::remove(aside);
        ok = QFile::rename(entry.path, aside);
    }
    if (!ok)
        m_lastError = tr("Could not remove the recovery file %1.").arg(entry.path);
    return ok;
}

} // namespace sandpad
