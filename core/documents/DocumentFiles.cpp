#include "core/documents/DocumentFiles.h"

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
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxImportBytes) {
        m_error = QStringLiteral("%1 is too large to import (%2 bytes; the limit is %3)")
                      .arg(path)
                      .arg(file.size())
                      .arg(kMaxImportBytes);
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
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
