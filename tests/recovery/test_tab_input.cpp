// A tab's attached files and Input box (issue 16, issue-14 polish) survive a normal restart (the
// open-tabs list) and a crash (the journal): files come back by the path they were attached
// from and are read again, a file that vanished meanwhile is shown as missing (never dropped
// silently) and a run of the tab waits until it is attached again or removed.
#include "core/recovery/OpenTabs.h"
#include "core/recovery/RecoveryJournal.h"
#include "core/recovery/TabInput.h"
#include "ui/editor/AttachmentStrip.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorDocuments.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/MainWindow.h"
#include "ui/statusbar/RunStatusBar.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>

using namespace sandpad;

namespace {
bool writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

QByteArray contentOf(const RunInput& input, const QString& name)
{
    for (const InputFile& f : input.files)
        if (f.name == name)
            return f.content;
    return "<none>";
}

// The strip's chip labels, as shown.
QStringList chipTexts(AttachmentStrip* strip)
{
    QStringList out;
    for (QLabel* label : strip->findChildren<QLabel*>(QStringLiteral("attachment")))
        if (!label->parentWidget()->isHidden()) // chips of an earlier layout are hidden, then deleted
            out << label->text();
    return out;
}
} // namespace

class TestTabInput : public QObject {
    Q_OBJECT

private slots:
    void jsonRoundTripAndDamage()
    {
        TabInput input;
        input.files = {{QStringLiteral("a.csv"), QStringLiteral("/data/a.csv")}, {QStringLiteral("b.txt"), QStringLiteral("/x/b.txt")}};
        input.stdinText = QStringLiteral("Ada\nLovelace\n");
        input.inputShown = true;
        QCOMPARE(TabInput::fromJson(input.toJson()), input);
        QVERIFY(TabInput().toJson().isEmpty());
        QVERIFY(TabInput::fromJson(QJsonValue()).isEmpty());
        QVERIFY(TabInput::fromJson(QJsonValue(42)).isEmpty());
        // Damaged entries are left out, the rest kept.
        const QJsonObject damaged = QJsonDocument::fromJson(R"({"files": [{"name": "ok.csv", "path": "/p/ok.csv"},
            {"name": "../etc/passwd", "path": "/etc/passwd"}, {"name": "nopath.csv"}, 7, {"name": "", "path": "/p/x"}],
            "stdin": 12})").object();
        const TabInput read = TabInput::fromJson(damaged);
        QCOMPARE(read.files.size(), 1);
        QCOMPARE(read.files[0].name, QStringLiteral("ok.csv"));
        QVERIFY(read.stdinText.isEmpty());

        // Both files carry it.
        QTemporaryDir dir;
        OpenTabs open;
        OpenTab tab;
        tab.title = QStringLiteral("Untitled 2");
        tab.text = QStringLiteral("print(input())\n");
        tab.input = input;
        open.tabs = {tab};
        QVERIFY(open.write(OpenTabs::filePath(dir.path())));
        QCOMPARE(OpenTabs::read(OpenTabs::filePath(dir.path()))->tabs.value(0).input, input);
        RecoveryJournal journal(dir.path());
        RecoverySnapshot s;
        s.tabId = QStringLiteral("t1");
        s.title = tab.title;
        s.text = tab.text;
        s.input = input;
        journal.noteChanged(s.tabId, s);
        QVERIFY(journal.flush());
        QString error;
        const auto back = RecoveryJournal::readFile(journal.filePathFor(s.tabId), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->input, input);
    }

    void stripRestoresAndShowsMissingFiles()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.csv")), b = dir.filePath(QStringLiteral("b.txt"));
        QVERIFY(writeFile(a, "1,2\n"));
        QVERIFY(writeFile(b, "bee"));
        EditorPage page(QStringLiteral("Untitled 1"));
        AttachmentStrip* strip = page.attachments();
        QVERIFY(strip->attachFiles({a, b}).isEmpty());
        strip->setInputText(QStringLiteral("Ada"));
        const TabInput kept = strip->tabInput();
        QCOMPARE(kept.files.size(), 2);
        QCOMPARE(kept.files[0].path, QFileInfo(a).absoluteFilePath());
        QCOMPARE(kept.stdinText, QStringLiteral("Ada"));
        QVERIFY(!page.isBlank()); // a tab with input is a tab of its own

        QVERIFY(QFile::remove(b));
        QVERIFY(writeFile(a, "3,4\n")); // changed since: read again
        EditorPage again(QStringLiteral("Untitled 1"));
        const QStringList missing = again.attachments()->restore(kept);
        QCOMPARE(missing, QStringList{QStringLiteral("b.txt")});
        AttachmentStrip* back = again.attachments();
        QCOMPARE(back->fileNames(), (QStringList{QStringLiteral("a.csv"), QStringLiteral("b.txt")})); // not dropped
        QCOMPARE(back->missingFiles(), QStringList{QStringLiteral("b.txt")});
        QCOMPARE(back->inputText(), QStringLiteral("Ada"));
        QVERIFY(back->inputShown());
        const RunInput input = back->runInput();
        QCOMPARE(input.files.size(), 1);
        QCOMPARE(contentOf(input, QStringLiteral("a.csv")), QByteArray("3,4\n"));
        QCOMPARE(input.stdinData, std::optional(QByteArray("Ada\n")));
        QVERIFY(back->problem().contains(QStringLiteral("b.txt")));
        QVERIFY(chipTexts(back).contains(QStringLiteral("b.txt (missing)")));
        // Kept as missing in the next list too (the user decides), and attached again it is whole.
        QCOMPARE(back->tabInput().files.size(), 2);
        QVERIFY(writeFile(b, "bee again"));
        QVERIFY(back->attachFiles({b}).isEmpty());
        QVERIFY(back->missingFiles().isEmpty());
        QVERIFY(back->problem().isEmpty());
        QCOMPARE(contentOf(back->runInput(), QStringLiteral("b.txt")), QByteArray("bee again"));
        // Removing a missing file is the other way out.
        QVERIFY(QFile::remove(b));
        EditorPage third(QStringLiteral("Untitled 1"));
        third.attachments()->restore(kept);
        third.attachments()->removeFile(QStringLiteral("b.txt"));
        QVERIFY(third.attachments()->problem().isEmpty());
    }

    void survivesANormalRestart()
    {
        QTemporaryDir data, files;
        const QString script = files.filePath(QStringLiteral("job.py"));
        const QString a = files.filePath(QStringLiteral("a.csv")), gone = files.filePath(QStringLiteral("gone.csv"));
        QVERIFY(writeFile(script, "import sys\nprint(open('a.csv').read(), sys.stdin.read())\n"));
        QVERIFY(writeFile(a, "x,y\n1,2\n"));
        QVERIFY(writeFile(gone, "soon gone"));
        MainWindowServices services;
        services.recoveryDir = data.path();
        {
            MainWindow window(services);
            window.show();
            EditorPage* page = window.editorDocuments()->openFileQuietly(script, nullptr);
            QVERIFY(page);
            QVERIFY(page->attachments()->attachFiles({a, gone}).isEmpty());
            page->attachments()->setInputText(QStringLiteral("from stdin"));
            // An untitled tab with only an Input box is kept too.
            EditorPage* scratch = window.tabs()->newTab(Language::Python, {}, QStringLiteral("Untitled 9"));
            scratch->attachments()->setInputText(QStringLiteral("only input"));
            window.editorDocuments()->setDiscardPrompt([](EditorPage*) { return QMessageBox::Discard; });
            QVERIFY(window.close());
        }
        QVERIFY(QFile::remove(gone));
        MainWindow window(services);
        window.show();
        const QList<EditorPage*> pages = window.restoreOpenTabs();
        QCOMPARE(pages.size(), 2);
        EditorPage* page = pages[0];
        QCOMPARE(page->filePath(), QFileInfo(script).absoluteFilePath());
        AttachmentStrip* strip = page->attachments();
        QCOMPARE(strip->fileNames(), (QStringList{QStringLiteral("a.csv"), QStringLiteral("gone.csv")}));
        QCOMPARE(strip->missingFiles(), QStringList{QStringLiteral("gone.csv")});
        QCOMPARE(contentOf(strip->runInput(), QStringLiteral("a.csv")), QByteArray("x,y\n1,2\n"));
        QCOMPARE(strip->inputText(), QStringLiteral("from stdin"));
        QVERIFY2(window.runStatusBar()->currentMessage().contains(QStringLiteral("gone.csv")),
                 qPrintable(window.runStatusBar()->currentMessage()));
        QCOMPARE(pages[1]->attachments()->inputText(), QStringLiteral("only input"));
        // A run of the tab waits for the missing file, and says why.
        window.tabs()->setCurrentWidget(page);
        QVERIFY(!window.runAll());
        QVERIFY2(window.runStatusBar()->currentMessage().contains(QStringLiteral("missing")),
                 qPrintable(window.runStatusBar()->currentMessage()));
    }

    void survivesACrash()
    {
        QTemporaryDir data, files, leftovers;
        const QString a = files.filePath(QStringLiteral("a.csv")), gone = files.filePath(QStringLiteral("gone.csv"));
        QVERIFY(writeFile(a, "1,2\n"));
        QVERIFY(writeFile(gone, "soon gone"));
        MainWindowServices services;
        services.recoveryDir = data.path();
        QStringList journaled;
        {
            MainWindow window(services);
            window.show();
            EditorPage* page = window.tabs()->currentPage();
            page->editor()->setText(QStringLiteral("print(input())\n")); // unsaved: journaled
            QVERIFY(page->isModified());
            QVERIFY(page->attachments()->attachFiles({a, gone}).isEmpty());
            page->attachments()->setInputText(QStringLiteral("typed before the crash"));
            QVERIFY(window.journal()->flush());
            // What a kill -9 would leave: the journal's files as they are now.
            const QDir dir(window.journal()->directory());
            for (const QString& name : dir.entryList(QDir::Files)) {
                QVERIFY(QFile::copy(dir.filePath(name), leftovers.filePath(name)));
                journaled << name;
            }
            QCOMPARE(journaled.size(), 1);
            const auto snapshot = RecoveryJournal::readFile(dir.filePath(journaled[0]), nullptr);
            QVERIFY(snapshot);
            QCOMPARE(snapshot->input.files.size(), 2);
            QCOMPARE(snapshot->input.stdinText, QStringLiteral("typed before the crash"));
            window.editorDocuments()->setDiscardPrompt([](EditorPage*) { return QMessageBox::Discard; });
        }
        const QString journalDir = RecoveryJournal(data.path()).directory();
        QDir().mkpath(journalDir);
        for (const QString& name : journaled) {
            QFile::remove(QDir(journalDir).filePath(name));
            QVERIFY(QFile::copy(leftovers.filePath(name), QDir(journalDir).filePath(name)));
        }
        QVERIFY(QFile::remove(gone));

        MainWindow window(services);
        window.show();
        window.offerRecovery(true);
        EditorPage* page = window.tabs()->currentPage();
        QVERIFY(page);
        QCOMPARE(page->editor()->text(), QStringLiteral("print(input())\n"));
        AttachmentStrip* strip = page->attachments();
        QCOMPARE(strip->fileNames(), (QStringList{QStringLiteral("a.csv"), QStringLiteral("gone.csv")}));
        QCOMPARE(strip->missingFiles(), QStringList{QStringLiteral("gone.csv")});
        QCOMPARE(contentOf(strip->runInput(), QStringLiteral("a.csv")), QByteArray("1,2\n"));
        QCOMPARE(strip->inputText(), QStringLiteral("typed before the crash"));
        QVERIFY2(page->note().contains(QStringLiteral("gone.csv")), qPrintable(page->note()));
        // Journaled again under the new tab, input included.
        QVERIFY(window.journal()->flush());
        const QList<RecoveryEntry> pending = RecoveryJournal(data.path()).pending();
        QCOMPARE(pending.size(), 1);
        QCOMPARE(pending[0].snapshot->input.stdinText, QStringLiteral("typed before the crash"));
        window.editorDocuments()->setDiscardPrompt([](EditorPage*) { return QMessageBox::Discard; });
    }
};

QTEST_MAIN(TestTabInput)
#include "test_tab_input.moc"
