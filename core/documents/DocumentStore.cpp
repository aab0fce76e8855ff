#include "core/documents/DocumentStore.h"

#include "core/language/Language.h"
#include "core/storage/Database.h"
#include "core/storage/SqlText.h"
#include "core/storage/Transaction.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

namespace sandpad {

namespace {

const QString kDocumentColumns = QStringLiteral(
    "d.id, d.title, d.head_revision_id, "
    "(SELECT COUNT(*) FROM revisions r WHERE r.document_id = d.id), "
    "d.created_ms, d.updated_ms, d.deleted");
const QString kRevisionColumns =
    QStringLiteral("id, document_id, parent_id, content, sha256, size, created_ms");

QString newId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QString sha256Hex(const QByteArray& utf8)
{
    return QString::fromLatin1(QCryptographicHash::hash(utf8, QCryptographicHash::Sha256).toHex());
}

QDateTime fromMs(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

Document documentFrom(const QSqlQuery& q)
{
    Document d;
    d.id = q.value(0).toString();
    d.title = q.value(1).toString();
    if (const auto lang = languageFromTitle(d.title))
        d.language = languageName(*lang);
    d.headRevisionId = q.value(2).toString();
    d.revisionCount = q.value(3).toInt();
    d.createdAt = fromMs(q.value(4).toLongLong());
    d.updatedAt = fromMs(q.value(5).toLongLong());
    d.deleted = q.value(6).toLongLong() != 0;
    return d;
}

Revision revisionFrom(const QSqlQuery& q)
{
    Revision r;
    r.id = q.value(0).toString();
    r.documentId = q.value(1).toString();
    r.parentId = q.value(2).toString();
    r.content = q.value(3).toString();
    r.sha256 = q.value(4).toString();
    r.size = q.value(5).toLongLong();
    r.createdAt = fromMs(q.value(6).toLongLong());
    return r;
}

// Executes a prepared query and maps its rows with `from`; on a failure, lastError gets the
// driver's text (and the result is empty).
template <typename T>
QList<T> fetchAll(QSqlQuery& q, T (*from)(const QSqlQuery&), ThreadLocalError& lastError)
{
    QList<T> out;
    if (!q.exec()) {
        lastError = q.lastError().text();
        return out;
    }
    while (q.next())
        out.append(from(q));
    return out;
}

// The same for at most one row; nullopt also when there is none (lastError untouched).
template <typename T>
std::optional<T> fetchOne(QSqlQuery& q, T (*from)(const QSqlQuery&), ThreadLocalError& lastError)
{
    if (!q.exec()) {
        lastError = q.lastError().text();
        return std::nullopt;
    }
    if (!q.next())
        return std::nullopt;
    return from(q);
}

// Executes a prepared UPDATE of one document row; false, with lastError set, when it fails
// (`failure` gets the driver's text as %1) or no such document exists.
bool updateDocument(QSqlQuery& q, const QString& documentId, const QString& failure,
                    ThreadLocalError& lastError)
{
    if (!q.exec()) {
        lastError = failure.arg(q.lastError().text());
        return false;
    }
    if (q.numRowsAffected() != 1) {
        lastError = QStringLiteral("document %1 is not in this workspace").arg(documentId);
        return false;
    }
    return true;
}

// "*.txt" -> ".txt"; the extension as the user wrote it, for messages.
QString extensionOf(const QString& title)
{
    const QString name = QFileInfo(title.trimmed()).fileName();
    const qsizetype dot = name.lastIndexOf(u'.');
    return dot > 0 ? name.mid(dot) : QString();
}

// Escapes LIKE wildcards so that user text matches literally (ESCAPE '\').
QString likePattern(const QString& text)
{
    QString escaped = text;
    escaped.replace(u'\\', QStringLiteral("\\\\"));
    escaped.replace(u'%', QStringLiteral("\\%"));
    escaped.replace(u'_', QStringLiteral("\\_"));
    return u'%' + escaped + u'%';
}

struct HeadInfo {
    bool found = false;
    bool deleted = false;
    QString title;
    QString headId;
    int maxSeq = 0;
};

HeadInfo headInfo(QSqlDatabase& db, const QString& documentId, QString* error)
{
    HeadInfo h;
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT d.title, d.deleted, d.head_revision_id, "
                             "(SELECT COALESCE(MAX(seq), 0) FROM revisions r "
                             " WHERE r.document_id = d.id) "
                             "FROM documents d WHERE d.id = ?"));
    q.addBindValue(documentId);
    if (!q.exec()) {
        *error = q.lastError().text();
        return h;
    }
    if (q.next()) {
        h.found = true;
        h.title = q.value(0).toString();
        h.deleted = q.value(1).toLongLong() != 0;
        h.headId = q.value(2).toString();
        h.maxSeq = q.value(3).toInt();
    }
    return h;
}

// Inserts a revision (inside the caller's transaction) and makes it the head.
std::optional<Revision> appendRevision(QSqlDatabase& db, const QString& documentId,
                                       const QString& parentId, int seq, const QString& content,
                                       QString* error)
{
    const QByteArray utf8 = content.toUtf8();
    Revision r;
    r.id = newId();
    r.documentId = documentId;
    r.parentId = parentId;
    r.content = content;
    r.sha256 = sha256Hex(utf8);
    r.size = utf8.size();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    r.createdAt = fromMs(now);

    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO revisions (id, document_id, parent_id, seq, content, "
                             "sha256, size, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(r.id);
    q.addBindValue(documentId);
    q.addBindValue(parentId.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(parentId));
    q.addBindValue(seq);
    q.addBindValue(sqlText(content));
    q.addBindValue(r.sha256);
    q.addBindValue(r.size);
    q.addBindValue(now);
    if (!q.exec()) {
        *error = q.lastError().text();
        return std::nullopt;
    }
    QSqlQuery u(db);
    u.prepare(QStringLiteral("UPDATE documents SET head_revision_id = ?, updated_ms = ? WHERE id = ?"));
    u.addBindValue(r.id);
    u.addBindValue(now);
    u.addBindValue(documentId);
    if (!u.exec() || u.numRowsAffected() != 1) {
        *error = u.lastError().text();
        return std::nullopt;
    }
    return r;
}

} // namespace

DocumentStore::DocumentStore(Database& database) : m_db(database) {}

std::optional<Document> DocumentStore::create(const QString& title, const QString& content)
{
    m_lastError.clear();
    const QString cleanTitle = title.trimmed();
    if (cleanTitle.isEmpty()) {
        m_lastError = QStringLiteral("a document needs a title");
        return std::nullopt;
    }
    QSqlDatabase db = m_db.connection();
    Transaction tx(db);
    if (!tx.isActive()) {
        m_lastError = QStringLiteral("cannot create the document: %1").arg(tx.error());
        return std::nullopt;
    }
    const QString id = newId();
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QSqlQuery q(db);
        q.prepare(QStringLiteral("INSERT INTO documents (id, title, created_ms, updated_ms, deleted) "
                                 "VALUES (?, ?, ?, ?, 0)"));
        q.addBindValue(id);
        q.addBindValue(cleanTitle);
        q.addBindValue(now);
        q.addBindValue(now);
        if (!q.exec()) {
            m_lastError = QStringLiteral("cannot create the document: %1").arg(q.lastError().text());
            return std::nullopt;
        }
    }
    QString error;
    if (!appendRevision(db, id, QString(), 1, content, &error)) {
        m_lastError = QStringLiteral("cannot create the document: %1").arg(error);
        return std::nullopt;
    }
    if (!tx.commit()) {
        m_lastError = QStringLiteral("cannot create the document: %1").arg(tx.error());
        return std::nullopt;
    }
    return document(id);
}

std::optional<Revision> DocumentStore::save(const QString& documentId, const QString& content)
{
    return appendToHead(documentId, QStringLiteral("save"), QStringLiteral("restore it before saving"),
                        [&](QSqlDatabase&) -> std::optional<QString> { return content; });
}

std::optional<Revision> DocumentStore::restore(const QString& documentId, const QString& revisionId)
{
    return appendToHead(
        documentId, QStringLiteral("restore"), QStringLiteral("restore it from the trash first"),
        [&](QSqlDatabase& db) -> std::optional<QString> {
            QSqlQuery q(db);
            q.prepare(QStringLiteral("SELECT document_id, content, sha256 FROM revisions WHERE id = ?"));
            q.addBindValue(revisionId);
            if (!q.exec() || !q.next()) {
                m_lastError = QStringLiteral("revision %1 is not in this workspace").arg(revisionId);
                return std::nullopt;
            }
            if (q.value(0).toString() != documentId) {
                m_lastError = QStringLiteral("revision %1 does not belong to document %2")
                                  .arg(revisionId, documentId);
                return std::nullopt;
            }
            const QString content = q.value(1).toString();
            // Copying a tampered revision would launder it into a fresh, valid hash.
            if (sha256Hex(content.toUtf8()) != q.value(2).toString()) {
                m_lastError = QStringLiteral("revision %1 no longer matches its SHA-256 (it was "
                                             "modified outside Sandpad); it cannot be restored")
                                  .arg(revisionId);
                return std::nullopt;
            }
            return content;
        });
}

std::optional<Revision> DocumentStore::appendToHead(
    const QString& documentId, const QString& action, const QString& trashedAdvice,
    const std::function<std::optional<QString>(QSqlDatabase&)>& content)
{
    m_lastError.clear();
    QSqlDatabase db = m_db.connection();
    Transaction tx(db);
    if (!tx.isActive()) {
        m_lastError = QStringLiteral("cannot %1: %2").arg(action, tx.error());
        return std::nullopt;
    }
    QString error;
    const HeadInfo head = headInfo(db, documentId, &error);
    if (!head.found) {
        m_lastError = error.isEmpty()
                          ? QStringLiteral("document %1 is not in this workspace").arg(documentId)
                          : error;
        return std::nullopt;
    }
    if (head.deleted) {
        m_lastError = QStringLiteral("document \"%1\" is in the trash; %2").arg(head.title, trashedAdvice);
        return std::nullopt;
    }
    const std::optional<QString> text = content(db);
    if (!text)
        return std::nullopt; // content() set lastError
    auto rev = appendRevision(db, documentId, head.headId, head.maxSeq + 1, *text, &error);
    if (!rev) {
        m_lastError = QStringLiteral("cannot %1: %2").arg(action, error);
        return std::nullopt;
    }
    if (!tx.commit()) {
        m_lastError = QStringLiteral("cannot %1: %2").arg(action, tx.error());
        return std::nullopt;
    }
    return rev;
}

bool DocumentStore::rename(const QString& documentId, const QString& title)
{
    m_lastError.clear();
    const QString cleanTitle = title.trimmed();
    if (cleanTitle.isEmpty()) {
        m_lastError = QStringLiteral("a document needs a title");
        return false;
    }
    QSqlQuery q(m_db.connection()); // one statement: atomic on its own
    q.prepare(QStringLiteral("UPDATE documents SET title = ?, updated_ms = ? WHERE id = ?"));
    q.addBindValue(cleanTitle);
    q.addBindValue(QDateTime::currentMSecsSinceEpoch());
    q.addBindValue(documentId);
    return updateDocument(q, documentId, QStringLiteral("cannot rename: %1"), m_lastError);
}

bool DocumentStore::setDeleted(const QString& documentId, bool deleted)
{
    m_lastError.clear();
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("UPDATE documents SET deleted = ?, updated_ms = ? WHERE id = ?"));
    q.addBindValue(deleted ? 1 : 0);
    q.addBindValue(QDateTime::currentMSecsSinceEpoch());
    q.addBindValue(documentId);
    return updateDocument(q, documentId, QStringLiteral("cannot change the document: %1"),
                          m_lastError);
}

std::optional<Document> DocumentStore::document(const QString& documentId) const
{
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("SELECT %1 FROM documents d WHERE d.id = ?").arg(kDocumentColumns));
    q.addBindValue(documentId);
    return fetchOne(q, documentFrom, m_lastError);
}

QList<Document> DocumentStore::documents(bool includeDeleted) const
{
    QSqlQuery q(m_db.connection());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT %1 FROM documents d WHERE (? OR d.deleted = 0) "
                             "ORDER BY d.updated_ms DESC, d.title")
                  .arg(kDocumentColumns));
    q.addBindValue(includeDeleted ? 1 : 0);
    return fetchAll(q, documentFrom, m_lastError);
}

QList<Document> DocumentStore::search(const QString& text) const
{
    if (text.trimmed().isEmpty())
        return documents(false);
    QSqlQuery q(m_db.connection());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT %1 FROM documents d "
                             "LEFT JOIN revisions h ON h.id = d.head_revision_id "
                             "WHERE d.deleted = 0 AND (d.title LIKE ? ESCAPE '\\' "
                             "OR h.content LIKE ? ESCAPE '\\') "
                             "ORDER BY d.updated_ms DESC, d.title")
                  .arg(kDocumentColumns));
    const QString pattern = likePattern(text);
    q.addBindValue(pattern);
    q.addBindValue(pattern);
    return fetchAll(q, documentFrom, m_lastError);
}

QList<Revision> DocumentStore::revisions(const QString& documentId) const
{
    QSqlQuery q(m_db.connection());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT %1 FROM revisions WHERE document_id = ? ORDER BY seq DESC")
                  .arg(kRevisionColumns));
    q.addBindValue(documentId);
    return fetchAll(q, revisionFrom, m_lastError);
}

std::optional<Revision> DocumentStore::revision(const QString& revisionId) const
{
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("SELECT %1 FROM revisions WHERE id = ?").arg(kRevisionColumns));
    q.addBindValue(revisionId);
    return fetchOne(q, revisionFrom, m_lastError);
}

std::optional<Revision> DocumentStore::authorize(const QString& documentId,
                                                 const QString& revisionId, QString* reason) const
{
    auto refuse = [&](const QString& why) -> std::optional<Revision> {
        if (reason)
            *reason = why;
        m_lastError = why;
        return std::nullopt;
    };
    if (documentId.trimmed().isEmpty())
        return refuse(QStringLiteral("no document id was given"));

    const auto doc = document(documentId);
    if (!doc) {
        return refuse(QStringLiteral("document %1 is not in this workspace (%2)")
                          .arg(documentId, m_db.filePath()));
    }
    if (doc->deleted) {
        return refuse(QStringLiteral("document \"%1\" (%2) is in the trash; restore it before "
                                     "running it")
                          .arg(doc->title, documentId));
    }
    const QString wanted = revisionId.isEmpty() ? doc->headRevisionId : revisionId;
    const auto rev = revision(wanted);
    if (!rev)
        return refuse(QStringLiteral("revision %1 is not in this workspace").arg(wanted));
    if (rev->documentId != documentId) {
        return refuse(QStringLiteral("revision %1 does not belong to document %2")
                          .arg(wanted, documentId));
    }
    if (!languageFromTitle(doc->title)) {
        return refuse(QStringLiteral("%1 is not a supported language; use .py, .js, .mjs or .cjs "
                                     "(document \"%2\")")
                          .arg(extensionOf(doc->title), doc->title));
    }
    const QByteArray utf8 = rev->content.toUtf8();
    if (sha256Hex(utf8) != rev->sha256 || utf8.size() != rev->size) {
        return refuse(QStringLiteral("revision %1 of \"%2\" no longer matches its SHA-256: its "
                                     "content was modified outside Sandpad, so it is not run")
                          .arg(wanted, doc->title));
    }
    if (reason)
        reason->clear();
    return rev;
}

} // namespace sandpad
