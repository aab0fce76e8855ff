#pragma once

#include "core/documents/DocumentStore.h"

#include <QString>
#include <optional>

namespace sandpad {

// Moving code between files on disk and the document store (.py, .js, .mjs, .cjs).
class DocumentFiles {
public:
    explicit DocumentFiles(DocumentStore& store) : m_store(store) {}

    // Reads a UTF-8 source file into a new document titled `title` (default: the file name).
    // Refused with error() set when the file cannot be read, is larger than kMaxImportBytes, is
    // not valid UTF-8, or its name gives no supported language.
    std::optional<Document> importFile(const QString& path, const QString& title = QString());
    // Writes a revision's content to `path` (atomically: a temporary file renamed into place).
    bool exportRevision(const QString& revisionId, const QString& path);

    QString error() const { return m_error; }

    static constexpr qint64 kMaxImportBytes = 64ll << 20;

private:
    DocumentStore& m_store;
    QString m_error;
};

} // namespace sandpad
