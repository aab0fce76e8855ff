#pragma once

#include "core/storage/ThreadLocalError.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <functional>
#include <optional>

class QSqlDatabase;

namespace sandpad {

class Database;

struct Document {
    QString id;                // UUID without braces
    QString title;             // its extension gives the language
    QString language;          // "python", "javascript", or "" when unsupported
    QString headRevisionId;
    int revisionCount = 0;
    QDateTime createdAt, updatedAt;
    bool deleted = false;
};

struct Revision {
    QString id;                // UUID without braces
    QString documentId;
    QString parentId;          // empty for the first revision
    QString content;
    QString sha256;            // hex of the UTF-8 content
    qint64 size = 0;           // bytes of the UTF-8 content
    QDateTime createdAt;
};

// Saved code documents and their immutable revision chains. Thread-safe like UsageLedger.
class DocumentStore {
public:
    explicit DocumentStore(Database& database);

    // Creates a document with a first revision. Returns the document (headRevisionId set).
    std::optional<Document> create(const QString& title, const QString& content);
    // Appends a revision as the new head (always, even when the text is unchanged). Returns it.
    // Refused (nullopt, lastError()) for an unknown or trashed document.
    std::optional<Revision> save(const QString& documentId, const QString& content);
    // Appends a copy of an old revision as the new head.
    std::optional<Revision> restore(const QString& documentId, const QString& revisionId);
    bool rename(const QString& documentId, const QString& title);
    bool setDeleted(const QString& documentId, bool deleted);   // soft delete / restore from trash

    std::optional<Document> document(const QString& documentId) const;
    QList<Document> documents(bool includeDeleted = false) const; // most recently updated first
    // Title and head content, case-insensitive for ASCII, % and _ literal; not the trash.
    QList<Document> search(const QString& text) const;
    QList<Revision> revisions(const QString& documentId) const;  // newest first
    std::optional<Revision> revision(const QString& revisionId) const;

    // The only way the Executor gets source for a saved-document run. Returns the revision when
    // it belongs to that document's history in this workspace, the document is not deleted, its
    // title gives a supported language and the content matches its SHA-256; otherwise nullopt
    // with *reason set to a clear sentence. An empty revisionId means the head.
    std::optional<Revision> authorize(const QString& documentId, const QString& revisionId,
                                      QString* reason) const;

    QString lastError() const { return m_lastError.get(); } // this thread's last error

private:
    // save() and restore(): in one transaction, checks that the document exists and is not in
    // the trash, then appends content(db) after its head. `action` and `trashedAdvice` word the
    // errors; content() returns nullopt (with lastError set) to refuse.
    std::optional<Revision> appendToHead(
        const QString& documentId, const QString& action, const QString& trashedAdvice,
        const std::function<std::optional<QString>(QSqlDatabase&)>& content);

    Database& m_db;
    mutable ThreadLocalError m_lastError;
};

} // namespace sandpad
