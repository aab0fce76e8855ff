#include "TempDatabase.h"
#include "TestChecks.h"

#include "core/documents/DocumentFiles.h"
#include "core/documents/DocumentStore.h"
#include "core/storage/Database.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

using namespace sandpad;

namespace {

QString sha(const QString& s)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(s.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QStringList ids(const QList<Document>& docs)
{
    QStringList out;
    for (const auto& d : docs)
        out << d.title;
    out.sort();
    return out;
}

} // namespace

class TestDocumentStore : public QObject {
    Q_OBJECT
    TempDatabase m_data;
    std::unique_ptr<DocumentStore> m_store;

    QString refusal(const QString& doc, const QString& rev)
    {
        QString reason;
        const auto r = m_store->authorize(doc, rev, &reason);
        return r ? QString() : reason;
    }

private slots:
    void init()
    {
        SANDPAD_CHECK(m_data.initTest());
        m_store = std::make_unique<DocumentStore>(m_data.db());
    }
    void cleanup()
    {
        m_store.reset();
        m_data.close();
    }

    void createGivesFirstRevision()
    {
        const QString code = QStringLiteral("print('héllo ✓')\n");
        const auto doc = m_store->create(QStringLiteral("hello.py"), code);
        QVERIFY2(doc, qPrintable(m_store->lastError()));
        QCOMPARE(doc->id.size(), 36);
        QVERIFY(!doc->id.contains(u'{'));
        QCOMPARE(doc->title, QStringLiteral("hello.py"));
        QCOMPARE(doc->language, QStringLiteral("python"));
        QCOMPARE(doc->revisionCount, 1);
        QVERIFY(!doc->deleted);
        QVERIFY(doc->createdAt.isValid());
        const auto rev = m_store->revision(doc->headRevisionId);
        QVERIFY(rev);
        QCOMPARE(rev->documentId, doc->id);
        QVERIFY(rev->parentId.isEmpty());
        QCOMPARE(rev->content, code);
        QCOMPARE(rev->sha256, sha(code));
        QCOMPARE(rev->size, code.toUtf8().size());
        QVERIFY(!m_store->create(QStringLiteral("  "), QStringLiteral("x")));
        QVERIFY(!m_store->lastError().isEmpty());
    }

    void revisionChain()
    {
        const auto doc = m_store->create(QStringLiteral("a.js"), QStringLiteral("v1"));
        QVERIFY(doc);
        QCOMPARE(doc->language, QStringLiteral("javascript"));
        const auto r2 = m_store->save(doc->id, QStringLiteral("v2"));
        const auto r3 = m_store->save(doc->id, QStringLiteral("v3"));
        QVERIFY(r2 && r3);
        QCOMPARE(r2->parentId, doc->headRevisionId);
        QCOMPARE(r3->parentId, r2->id);
        const auto revs = m_store->revisions(doc->id);
        QCOMPARE(revs.size(), 3);
        QCOMPARE(revs[0].content, QStringLiteral("v3"));
        QCOMPARE(revs[1].content, QStringLiteral("v2"));
        QCOMPARE(revs[2].content, QStringLiteral("v1"));
        const auto now = m_store->document(doc->id);
        QCOMPARE(now->headRevisionId, r3->id);
        QCOMPARE(now->revisionCount, 3);
        QVERIFY(!m_store->save(QStringLiteral("no-such-doc"), QStringLiteral("x")));
        QVERIFY(m_store->lastError().contains(QStringLiteral("not in this workspace")));
    }

    void revisionsAreImmutable()
    {
        const auto doc = m_store->create(QStringLiteral("a.py"), QStringLiteral("original"));
        QSqlQuery q(m_data.db().connection());
        q.prepare(QStringLiteral("UPDATE revisions SET content = 'evil' WHERE id = ?"));
        q.addBindValue(doc->headRevisionId);
        QVERIFY(!q.exec());
        QVERIFY2(q.lastError().text().contains(QStringLiteral("immutable")), qPrintable(q.lastError().text()));
        q.prepare(QStringLiteral("DELETE FROM revisions WHERE id = ?"));
        q.addBindValue(doc->headRevisionId);
        QVERIFY(!q.exec());
        QCOMPARE(m_store->revision(doc->headRevisionId)->content, QStringLiteral("original"));
    }

    void restoreAppendsCopy()
    {
        const auto doc = m_store->create(QStringLiteral("a.py"), QStringLiteral("one"));
        const QString first = doc->headRevisionId;
        const auto r2 = m_store->save(doc->id, QStringLiteral("two"));
        const auto restored = m_store->restore(doc->id, first);
        QVERIFY2(restored, qPrintable(m_store->lastError()));
        QVERIFY(restored->id != first);
        QCOMPARE(restored->content, QStringLiteral("one"));
        QCOMPARE(restored->parentId, r2->id);
        QCOMPARE(restored->sha256, sha(QStringLiteral("one")));
        QCOMPARE(m_store->document(doc->id)->headRevisionId, restored->id);
        QCOMPARE(m_store->revisions(doc->id).size(), 3);
        QCOMPARE(m_store->revision(first)->content, QStringLiteral("one"));
        QCOMPARE(m_store->revision(r2->id)->content, QStringLiteral("two"));

        const auto other = m_store->create(QStringLiteral("b.py"), QStringLiteral("b"));
        QVERIFY(!m_store->restore(doc->id, other->headRevisionId));
        QVERIFY(m_store->lastError().contains(QStringLiteral("does not belong to document")));
        QCOMPARE(m_store->revisions(doc->id).size(), 3);
    }

    void softDeleteAndRestoreFromTrash()
    {
        const auto a = m_store->create(QStringLiteral("a.py"), QStringLiteral("a"));
        const auto b = m_store->create(QStringLiteral("b.py"), QStringLiteral("b"));
        QVERIFY(m_store->setDeleted(a->id, true));
        QCOMPARE(ids(m_store->documents()), QStringList{QStringLiteral("b.py")});
        QCOMPARE(ids(m_store->documents(true)), (QStringList{QStringLiteral("a.py"), QStringLiteral("b.py")}));
        QVERIFY(m_store->document(a->id)->deleted);
        QVERIFY(!m_store->save(a->id, QStringLiteral("new")));
        QVERIFY(m_store->lastError().contains(QStringLiteral("trash")));
        QCOMPARE(m_store->revisions(a->id).size(), 1); // still there
        QVERIFY(m_store->setDeleted(a->id, false));
        QCOMPARE(m_store->documents().size(), 2);
        QVERIFY(m_store->save(a->id, QStringLiteral("new")));
        QVERIFY(!m_store->setDeleted(QStringLiteral("nope"), true));
    }

    void rename()
    {
        const auto a = m_store->create(QStringLiteral("a.py"), QStringLiteral("x"));
        QVERIFY(m_store->rename(a->id, QStringLiteral("  b.mjs ")));
        const auto d = m_store->document(a->id);
        QCOMPARE(d->title, QStringLiteral("b.mjs"));
        QCOMPARE(d->language, QStringLiteral("javascript"));
        QCOMPARE(d->revisionCount, 1);
        QVERIFY(!m_store->rename(a->id, QString()));
        QVERIFY(!m_store->rename(QStringLiteral("nope"), QStringLiteral("x.py")));
        QVERIFY(m_store->rename(a->id, QStringLiteral("notes.txt")));
        QCOMPARE(m_store->document(a->id)->language, QString());
    }

    void search()
    {
        const auto a = m_store->create(QStringLiteral("sales report.py"), QStringLiteral("print('total')"));
        const auto b = m_store->create(QStringLiteral("chart.js"), QStringLiteral("const pct = '100%';"));
        const auto c = m_store->create(QStringLiteral("a_b.py"), QStringLiteral("axb = 1"));
        QCOMPARE(ids(m_store->search(QStringLiteral("SALES"))), QStringList{QStringLiteral("sales report.py")});
        QCOMPARE(ids(m_store->search(QStringLiteral("total"))), QStringList{QStringLiteral("sales report.py")});
        QCOMPARE(ids(m_store->search(QStringLiteral("%"))), QStringList{QStringLiteral("chart.js")});
        QCOMPARE(ids(m_store->search(QStringLiteral("a_b"))), QStringList{QStringLiteral("a_b.py")});
        QCOMPARE(ids(m_store->search(QStringLiteral("x_b"))), QStringList{});
        QCOMPARE(m_store->search(QString()).size(), 3);
        // Head content only: an old revision's text is not found.
        m_store->save(a->id, QStringLiteral("print('sum')"));
        QVERIFY(m_store->search(QStringLiteral("total")).isEmpty());
        // Deleted documents are not found.
        m_store->setDeleted(b->id, true);
        QVERIFY(m_store->search(QStringLiteral("100")).isEmpty());
        Q_UNUSED(c);
    }

    void authorizeAcceptsGoodRevisions()
    {
        const auto doc = m_store->create(QStringLiteral("a.py"), QStringLiteral("print(1)"));
        const auto r2 = m_store->save(doc->id, QStringLiteral("print(2)"));
        QString reason = QStringLiteral("stale");
        auto head = m_store->authorize(doc->id, QString(), &reason);
        QVERIFY(head);
        QVERIFY(reason.isEmpty());
        QCOMPARE(head->id, r2->id);
        auto old = m_store->authorize(doc->id, doc->headRevisionId, &reason);
        QVERIFY(old);
        QCOMPARE(old->content, QStringLiteral("print(1)"));
    }

    void authorizeRefusals()
    {
        const auto doc = m_store->create(QStringLiteral("a.py"), QStringLiteral("print(1)"));
        const auto other = m_store->create(QStringLiteral("b.py"), QStringLiteral("print(2)"));

        QVERIFY(refusal(QString(), QString()).contains(QStringLiteral("no document")));
        QVERIFY(refusal(QStringLiteral("0000-unknown"), QString()).contains(QStringLiteral("not in this workspace")));
        QVERIFY(refusal(doc->id, QStringLiteral("unknown-rev")).contains(QStringLiteral("revision unknown-rev is not in this workspace")));
        QCOMPARE(refusal(doc->id, other->headRevisionId),
                 QStringLiteral("revision %1 does not belong to document %2").arg(other->headRevisionId, doc->id));

        m_store->setDeleted(doc->id, true);
        QVERIFY(refusal(doc->id, QString()).contains(QStringLiteral("is in the trash")));
        m_store->setDeleted(doc->id, false);

        m_store->rename(doc->id, QStringLiteral("notes.txt"));
        QVERIFY2(refusal(doc->id, QString()).startsWith(
                     QStringLiteral(".txt is not a supported language; use .py, .js, .mjs or .cjs")),
                 qPrintable(refusal(doc->id, QString())));
        m_store->rename(doc->id, QStringLiteral("a.py"));
        QVERIFY(refusal(doc->id, QString()).isEmpty());

        // nullptr reason is allowed.
        QVERIFY(!m_store->authorize(QStringLiteral("x"), QString(), nullptr));
    }

    void tamperedContentRefused()
    {
        const auto doc = m_store->create(QStringLiteral("a.py"), QStringLiteral("print('safe')"));
        const auto r2 = m_store->save(doc->id, QStringLiteral("print('also safe')"));
        // Someone with raw access to the file removes the guard and rewrites a revision.
        QSqlQuery q(m_data.db().connection());
        QVERIFY(q.exec(QStringLiteral("DROP TRIGGER revisions_no_update")));
        q.prepare(QStringLiteral("UPDATE revisions SET content = 'import os' WHERE id = ?"));
        q.addBindValue(doc->headRevisionId);
        QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
        QVERIFY(refusal(doc->id, doc->headRevisionId).contains(QStringLiteral("no longer matches its SHA-256")));
        QVERIFY(refusal(doc->id, r2->id).isEmpty()); // the untouched revision still runs
        // Restoring the tampered revision would launder it: refused too.
        QVERIFY(!m_store->restore(doc->id, doc->headRevisionId));
        QVERIFY(m_store->lastError().contains(QStringLiteral("SHA-256")));
        // A forged hash that does not match the content is refused as well.
        q.prepare(QStringLiteral("UPDATE revisions SET sha256 = ? WHERE id = ?"));
        q.addBindValue(sha(QStringLiteral("something else")));
        q.addBindValue(r2->id);
        QVERIFY(q.exec());
        QVERIFY(refusal(doc->id, QString()).contains(QStringLiteral("SHA-256")));
    }

    void documentOfAnotherWorkspaceRefused()
    {
        QTemporaryDir otherDir;
        Database otherDb(otherDir.path());
        QVERIFY(otherDb.open());
        DocumentStore otherStore(otherDb);
        const auto foreign = otherStore.create(QStringLiteral("x.py"), QStringLiteral("print(1)"));
        QVERIFY(foreign);
        QString reason;
        QVERIFY(otherStore.authorize(foreign->id, QString(), &reason));
        QVERIFY(!m_store->authorize(foreign->id, QString(), &reason));
        QVERIFY2(reason.contains(QStringLiteral("not in this workspace")), qPrintable(reason));
        QVERIFY(!m_store->authorize(foreign->id, foreign->headRevisionId, &reason));
        QVERIFY(!m_store->document(foreign->id));
    }

    void concurrentReadersWhileWriting()
    {
        const auto doc = m_store->create(QStringLiteral("live.py"), QStringLiteral("v0"));
        std::atomic<bool> done{false};
        std::atomic<int> problems{0};
        std::atomic<int> reads{0};
        std::vector<std::thread> readers;
        for (int t = 0; t < 3; ++t) {
            readers.emplace_back([&] {
                int lastCount = 0;
                while (!done) {
                    QString reason;
                    const auto rev = m_store->authorize(doc->id, QString(), &reason);
                    const auto d = m_store->document(doc->id);
                    if (!rev || !d || d->revisionCount < lastCount)
                        ++problems;
                    else
                        lastCount = d->revisionCount;
                    if (rev && rev->sha256 != sha(rev->content))
                        ++problems;
                    ++reads;
                }
            });
        }
        std::thread writer([&] {
            for (int i = 1; i <= 100; ++i)
                if (!m_store->save(doc->id, QStringLiteral("v%1").arg(i)))
                    ++problems;
            done = true;
        });
        writer.join();
        for (auto& r : readers)
            r.join();
        QCOMPARE(problems.load(), 0);
        QVERIFY(reads.load() > 0);
        QCOMPARE(m_store->document(doc->id)->revisionCount, 101);
        QCOMPARE(m_store->revisions(doc->id).first().content, QStringLiteral("v100"));
    }

    void largeDocument()
    {
        QString big;
        big.reserve(5 * 1024 * 1024);
        const QString line = QStringLiteral("x = [%1]  # some padding text for a long line\n");
        for (int i = 0; big.size() < 5 * 1024 * 1024; ++i)
            big += line.arg(i);
        QElapsedTimer timer;
        timer.start();
        const auto doc = m_store->create(QStringLiteral("big.py"), big);
        QVERIFY(doc);
        QString reason;
        const auto rev = m_store->authorize(doc->id, QString(), &reason);
        QVERIFY2(rev, qPrintable(reason));
        QCOMPARE(rev->content.size(), big.size());
        QVERIFY(rev->content == big);
        QVERIFY(m_store->search(QStringLiteral("[12345]")).size() == 1);
        qInfo("5 MB document: created, authorized and searched in %lld ms", static_cast<long long>(timer.elapsed()));
    }

    void importAndExportFiles()
    {
        const QString path = m_data.filePath(QStringLiteral("script.mjs"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("console.log('hé');\n");
        f.close();
        DocumentFiles files(*m_store);
        const auto doc = files.importFile(path);
        QVERIFY2(doc, qPrintable(files.error()));
        QCOMPARE(doc->title, QStringLiteral("script.mjs"));
        QCOMPARE(doc->language, QStringLiteral("javascript"));
        QCOMPARE(m_store->revision(doc->headRevisionId)->content, QStringLiteral("console.log('hé');\n"));
        const auto renamed = files.importFile(path, QStringLiteral("other.js"));
        QCOMPARE(renamed->title, QStringLiteral("other.js"));

        const QString txt = m_data.filePath(QStringLiteral("notes.txt"));
        QFile t(txt);
        QVERIFY(t.open(QIODevice::WriteOnly));
        t.write("hello");
        t.close();
        QVERIFY(!files.importFile(txt));
        QVERIFY(files.error().contains(QStringLiteral(".txt is not a supported language")));
        QVERIFY(!files.importFile(m_data.filePath(QStringLiteral("missing.py"))));

        const QString latin = m_data.filePath(QStringLiteral("latin.py"));
        QFile l(latin);
        QVERIFY(l.open(QIODevice::WriteOnly));
        l.write("x = '\xe9'\n");
        l.close();
        QVERIFY(!files.importFile(latin));
        QVERIFY(files.error().contains(QStringLiteral("UTF-8")));

        const QString out = m_data.filePath(QStringLiteral("out/exported.mjs"));
        QDir().mkpath(m_data.filePath(QStringLiteral("out")));
        QVERIFY2(files.exportRevision(doc->headRevisionId, out), qPrintable(files.error()));
        QFile o(out);
        QVERIFY(o.open(QIODevice::ReadOnly));
        QCOMPARE(o.readAll(), QByteArray("console.log('h\xc3\xa9');\n"));
        QVERIFY(!files.exportRevision(QStringLiteral("nope"), out));
    }
};

QTEST_GUILESS_MAIN(TestDocumentStore)
#include "test_document_store.moc"
