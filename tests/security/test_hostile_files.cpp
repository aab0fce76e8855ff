// Issue 26, item 6: opening a file someone sent (docs/threat-model.md, "Opening files"). File >
// Open, a tab restored at start, an attachment, a document import and sandpad-run's FILE read
// regular files only, within a limit, without blocking: a link to /dev/zero, a FIFO, a folder or
// a file over the limit is refused at once with a sentence saying why; a big notebook is read and
// parsed off the GUI thread (the event loop keeps running, a progress dialog offers Cancel).
#include "CliDriver.h"

#include "core/documents/DocumentFiles.h"
#include "core/documents/DocumentStore.h"
#include "core/files/FileRead.h"
#include "core/ipynb/IpynbReader.h"
#include "core/storage/Database.h"
#include "ui/editor/AttachmentStrip.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorDocuments.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/editor/OpenProgress.h"
#include "ui/notebookio/NotebookFiles.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProgressDialog>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <atomic>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace sandpad;

namespace {

// Before issue 26 opening a FIFO blocked for ever in open(2), waiting for a writer. This one
// unblocks such a reader after a while (it opens the FIFO for writing, which succeeds only when
// someone is reading) and records that it had to: the test then fails instead of hanging.
class FifoUnblocker {
public:
    explicit FifoUnblocker(const QString& fifo) : m_path(QFile::encodeName(fifo))
    {
        m_thread = std::thread([this] {
            for (int i = 0; i < 100 && !m_stop; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            while (!m_stop) {
                const int fd = ::open(m_path.constData(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
                if (fd >= 0) {
                    m_hung = true;
                    ::close(fd);
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
    }
    ~FifoUnblocker()
    {
        m_stop = true;
        m_thread.join();
    }
    bool hung() const { return m_hung; }

private:
    QByteArray m_path;
    std::atomic<bool> m_stop{false}, m_hung{false};
    std::thread m_thread;
};

// A notebook of one code cell of about `bytes` bytes, as the 50 MB one.
QByteArray bigNotebook(qint64 bytes)
{
    QJsonArray lines;
    const QString line = QStringLiteral("x = [%1]  # a long line of a big cell\n").arg(QString(40, u'7'));
    for (qint64 size = 0; size < bytes; size += line.size() + 4)
        lines.append(line);
    const QJsonObject cell{{"cell_type", "code"}, {"metadata", QJsonObject{}}, {"outputs", QJsonArray{}},
                           {"execution_count", QJsonValue()}, {"source", lines}};
    return QJsonDocument(QJsonObject{{"cells", QJsonArray{cell}}, {"metadata", QJsonObject{}}, {"nbformat", 4},
                                     {"nbformat_minor", 5}})
        .toJson(QJsonDocument::Compact);
}

QProgressDialog* openDialog()
{
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* d = qobject_cast<QProgressDialog*>(w); d && d->objectName() == OpenProgress::dialogName() && d->isVisible())
            return d;
    return nullptr;
}

} // namespace

class TestHostileFiles : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QWidget> m_window;
    EditorTabs* m_tabs = nullptr;
    EditorDocuments* m_docs = nullptr;

    QString path(const QString& name) const { return m_dir->filePath(name); }
    QString write(const QString& name, const QByteArray& content) const
    {
        QFile f(path(name));
        return f.open(QIODevice::WriteOnly) && f.write(content) == content.size() ? f.fileName() : QString();
    }
    QString sparse(const QString& name, qint64 size) const
    {
        QFile f(path(name));
        return f.open(QIODevice::WriteOnly) && f.resize(size) ? f.fileName() : QString();
    }
    QString fifo(const QString& name) const
    {
        return ::mkfifo(QFile::encodeName(path(name)).constData(), 0600) == 0 ? path(name) : QString();
    }
    QString link(const QString& name, const QString& target) const
    {
        return QFile::link(target, path(name)) ? path(name) : QString();
    }

    // Opens through the editor's one entry point (File > Open, restored tabs); no tab is added
    // when it is refused.
    EditorPage* open(const QString& file, QString* error)
    {
        const int before = m_tabs->count();
        EditorPage* page = m_docs->openFileQuietly(file, error);
        if (!page)
            [&] { QCOMPARE(m_tabs->count(), before); }();
        return page;
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_window = std::make_unique<QWidget>();
        m_tabs = new EditorTabs(m_window.get());
        m_docs = new EditorDocuments(m_tabs, nullptr, QString(), m_window.get());
        m_tabs->newTab();
    }
    void cleanup()
    {
        m_window.reset();
        m_dir.reset();
    }

    // A FIFO (as a .py and as an .ipynb) is refused at once: before, open(2) waited for a writer
    // for ever (the unblocker had to step in).
    void aFifoIsRefusedWithoutWaiting()
    {
        for (const QString& name : {QStringLiteral("pipe.py"), QStringLiteral("pipe.ipynb")}) {
            const QString file = fifo(name);
            QVERIFY(!file.isEmpty());
            FifoUnblocker unblocker(file);
            QString error;
            QVERIFY(!open(file, &error));
            QVERIFY2(!unblocker.hung(), "opening a FIFO waited for a writer");
            QVERIFY2(error.contains(QStringLiteral("is a FIFO (named pipe): only regular files can be opened")), qPrintable(error));
            // A link to it is the FIFO too.
            const QString viaLink = link(QStringLiteral("via-") + name, file);
            QVERIFY(!open(viaLink, &error));
            QVERIFY2(!unblocker.hung(), "opening a link to a FIFO waited for a writer");
            QVERIFY2(error.contains(QStringLiteral("is a FIFO")), qPrintable(error));
        }
    }

    // A link to /dev/zero: before, the GUI read it until std::bad_alloc (without a memory cap:
    // until the host ran out of memory). Now refused before a byte is read.
    void aLinkToADeviceIsRefused()
    {
        for (const QString& name : {QStringLiteral("zero.py"), QStringLiteral("zero.ipynb")}) {
            const QString file = link(name, QStringLiteral("/dev/zero"));
            QVERIFY(!file.isEmpty());
            QString error;
            QVERIFY(!open(file, &error));
            QVERIFY2(error.contains(QStringLiteral("is a device: only regular files can be opened")), qPrintable(error));
        }
    }

    // A folder named like a notebook says so (before: "not JSON" or "cannot open" at best).
    void aFolderIsRefused()
    {
        QVERIFY(QDir(m_dir->path()).mkdir(QStringLiteral("folder.ipynb")));
        QString error;
        QVERIFY(!open(path(QStringLiteral("folder.ipynb")), &error));
        QVERIFY2(error.contains(QStringLiteral("is a folder")), qPrintable(error));
    }

    // A link to a regular file is a file: it opens (the tab is the link's path).
    void aLinkToARegularFileOpens()
    {
        const QString real = write(QStringLiteral("real.py"), "print('real')\n");
        const QString file = link(QStringLiteral("alias.py"), real);
        QString error;
        EditorPage* page = open(file, &error);
        QVERIFY2(page, qPrintable(error));
        QCOMPARE(page->editor()->text(), QStringLiteral("print('real')\n"));
    }

    // Over the limit: refused with the size and the limit, before a byte is read (sparse files:
    // before, a 101 MiB notebook was read whole and refused as "not JSON", a 65 MiB .py opened).
    void overTheLimitIsRefusedWithTheLimit()
    {
        QString error;
        QVERIFY(!open(sparse(QStringLiteral("huge.ipynb"), IpynbReader::kMaxFileBytes + 1), &error));
        QVERIFY2(error.contains(QStringLiteral("is too large to open (100.0 MiB; the limit is 100.0 MiB)")), qPrintable(error));
        QVERIFY(!open(sparse(QStringLiteral("huge.py"), EditorTabs::kMaxFileBytes + 1), &error));
        QVERIFY2(error.contains(QStringLiteral("is too large to open (64.0 MiB; the limit is 64.0 MiB)")), qPrintable(error));
    }

    // The other ways in: attachments and document imports refuse the same things.
    void attachmentsAndImportsRefuseThemToo()
    {
        const QString zero = link(QStringLiteral("zero.csv"), QStringLiteral("/dev/zero"));
        const QString pipe = fifo(QStringLiteral("pipe.csv"));
        FifoUnblocker unblocker(pipe);
        AttachmentStrip strip;
        QVERIFY(!strip.attachFiles({zero}).isEmpty());
        QVERIFY(!strip.attachFiles({pipe}).isEmpty());
        QVERIFY(strip.fileNames().isEmpty());
        Database db(m_dir->filePath(QStringLiteral("db")));
        QVERIFY2(db.open(), qPrintable(db.error()));
        DocumentStore store(db);
        DocumentFiles files(store);
        QVERIFY(!files.importFile(link(QStringLiteral("zero2.py"), QStringLiteral("/dev/zero"))));
        QVERIFY2(files.error().contains(QStringLiteral("is a device")), qPrintable(files.error()));
        QVERIFY(!files.importFile(fifo(QStringLiteral("pipe.py"))));
        QVERIFY2(files.error().contains(QStringLiteral("is a FIFO")), qPrintable(files.error()));
        QVERIFY2(!unblocker.hung(), "an import or attachment waited on a FIFO");
    }

    // sandpad-run FILE and --save FILE: a FIFO or /dev/zero is a usage error at once (before: the
    // CLI hung on the FIFO, and read /dev/zero until it ran out of memory).
    void theCliRefusesThemToo()
    {
        CliDriver cli{{QStringLiteral("--provider"), QStringLiteral("none")}};
        cli.setTimeoutMs(20000);
        const QString pipe = fifo(QStringLiteral("cli.py"));
        FifoUnblocker unblocker(pipe);
        CliRun r = cli.run({pipe});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("is a FIFO (named pipe)"), r.err.constData());
        r = cli.run({link(QStringLiteral("clizero.py"), QStringLiteral("/dev/zero"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("is a device"), r.err.constData());
        r = cli.run({QStringLiteral("--save"), pipe});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("is a FIFO (named pipe)"), r.err.constData());
        QVERIFY(!unblocker.hung());
    }

    // The 50 MB single-cell notebook: read and parsed off the GUI thread. The event loop
    // keeps running while it opens (before: not once in 9-42 s) and the progress dialog shows.
    // The stalls themselves are measured by tests/bench/bench_open_files.
    void aBigNotebookOpensWhileTheWindowRuns()
    {
        const QString file = write(QStringLiteral("big.ipynb"), bigNotebook(50'000'000));
        QVERIFY(!file.isEmpty());
        int ticks = 0;
        bool dialogSeen = false;
        QTimer ticker;
        ticker.setInterval(10);
        connect(&ticker, &QTimer::timeout, this, [&] {
            ++ticks;
            dialogSeen = dialogSeen || openDialog();
        });
        ticker.start();
        QString error;
        EditorPage* page = open(file, &error);
        ticker.stop();
        QVERIFY2(page, qPrintable(error));
        QVERIFY2(ticks >= 20, qPrintable(QStringLiteral("the event loop ran %1 times while it opened").arg(ticks)));
        QVERIFY(dialogSeen);
        QVERIFY(page->editor()->text().startsWith(QStringLiteral("# %%\nx = [777")));
        QVERIFY(!openDialog());
    }

    // Cancel in the progress dialog: nothing opens, and no error is reported (the user chose).
    void cancelStopsTheOpen()
    {
        const QString file = write(QStringLiteral("cancel.ipynb"), bigNotebook(50'000'000));
        bool cancelled = false;
        QTimer poll;
        poll.setInterval(20);
        connect(&poll, &QTimer::timeout, this, [&] {
            if (QProgressDialog* d = openDialog(); d && !cancelled) {
                if (auto* button = d->findChild<QPushButton*>()) { // as the user does: its Cancel button
                    cancelled = true;
                    QTest::mouseClick(button, Qt::LeftButton);
                }
            }
        });
        poll.start();
        QString error = QStringLiteral("unset");
        QVERIFY(!open(file, &error));
        QVERIFY(cancelled);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!openDialog());
    }
};

QTEST_MAIN(TestHostileFiles)
#include "test_hostile_files.moc"
