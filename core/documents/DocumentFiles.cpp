#include "core/documents/DocumentFiles.h"

#include "core/files/FileRead.h"
#include "core/language/Language.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStringDecoder>

namespace sandpad {

std::optional<Document> DocumentFiles::importFile(const QString& path, const QString& title)
{
    m_error.clear();
    const QFileInfo info(path);
    const QString finalTitle = title.trimmed().isEmpty() ? info.fileName() : title.trimmed();
    if (!languageFromTitle(finalTitle)) {
        m_error = QStringLiteral("%1: .%2 is not a supported language; use .py, .js, .mjs or .cjs")
                      .arg(finalTitle, QFileInfo(finalTitle).suffix());
        return std::nullopt;
    }
    // A regular file within the limit (no FIFO, device or link to one: core/files/FileRead).
    const FileRead::Result file = FileRead::read(path, kMaxImportBytes);
    if (!file.ok()) {
        m_error = file.error;
        return std::nullopt;
    }
    const QByteArray& bytes = file.bytes;
    QStringDecoder decoder(QStringDecoder::Utf8);
    const QString content = decoder.decode(bytes);
    if (decoder.hasError()) {
        m_error = QStringLiteral("%1 is not valid UTF-8 text").arg(path);
        return std::nullopt;
    }
    auto doc = m_store.create(finalTitle, content);
    if (!doc)
        m_error = m_store.lastError();
    return doc;
}

bool DocumentFiles::exportRevision(const QString& revisionId, const QString& path)
{
    m_error.clear();
    const auto rev = m_store.revision(revisionId);
    if (!rev) {
        m_error = QStringLiteral("revision %1 is not in this workspace").arg(revisionId);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        m_error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    file.write(rev->content.toUtf8());
    if (!file.commit()) {
        m_error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace sandpad
