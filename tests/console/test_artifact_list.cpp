// The files a run left, in its notebook entry (offscreen, no execution): images inline, every file
// a row with Open / Save As; Save writes the bytes; Open makes a private, non-executable copy and
// never hands a runnable file to the desktop.
#include "TestImages.h"
#include "TestRecords.h"

#include "core/run/Run.h"
#include "ui/console/ArtifactList.h"
#include "ui/console/RunEntry.h"
#include "ui/console/RunNotebook.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

using namespace sandpad;

namespace {

RunArtifact artifact(const QString& name, const QString& type, const QByteArray& content)
{
    return RunArtifact{name, content.size(), type, QStringLiteral("00"), content};
}

QPushButton* button(QWidget* in, const QString& accessibleName)
{
    for (QPushButton* b : in->findChildren<QPushButton*>())
        if (b->accessibleName() == accessibleName)
            return b;
    return nullptr;
}

} // namespace

class TestArtifactList : public QObject {
    Q_OBJECT

private slots:
    void entryShowsImagesInlineAndRowsForAll()
    {
        RunNotebook notebook;
        ExecutionResult r = runResult(QStringLiteral("run-art-1"), QStringLiteral("files.py"), QStringLiteral("success"));
        r.artifacts = {artifact(QStringLiteral("plot.png"), QStringLiteral("image/png"), redPng(800, 400)),
                       artifact(QStringLiteral("out/data.csv"), QStringLiteral("text/csv"), QByteArray("a,b\n1,2\n"))};
        RunEntry* entry = notebook.addFinished(new Run(r));
        auto* list = entry->findChild<ArtifactList*>();
        QVERIFY(list);
        QVERIFY(!list->isHidden());
        QCOMPARE(list->count(), 2);
        QCOMPARE(list->imageCount(), 1);
        bool scaled = false;
        for (QLabel* label : list->findChildren<QLabel*>())
            if (!label->pixmap().isNull())
                scaled = label->pixmap().width() == 320; // shown at most 320 px wide
        QVERIFY(scaled);
        QVERIFY(button(list, QStringLiteral("Open out/data.csv")));
        QVERIFY(button(list, QStringLiteral("Save out/data.csv as"))->isEnabled());

        QTemporaryDir dir;
        QString error;
        const QString path = dir.filePath(QStringLiteral("saved.csv"));
        QVERIFY2(list->saveTo(1, path, &error), qPrintable(error));
        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QCOMPARE(saved.readAll(), QByteArray("a,b\n1,2\n"));

        const QString copy = list->temporaryCopy(1, &error);
        QVERIFY2(!copy.isEmpty(), qPrintable(error));
        QCOMPARE(QFileInfo(copy).fileName(), QStringLiteral("data.csv"));
        QCOMPARE(QFileInfo(copy).permissions() & (QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther | QFile::ReadOther), QFile::Permissions());
        QFile::remove(copy);
    }

    void noArtifactsNoList()
    {
        RunNotebook notebook;
        RunEntry* entry = notebook.addFinished(new Run(runResult(QStringLiteral("run-art-2"), QStringLiteral("x.py"), QStringLiteral("success"))));
        QVERIFY(entry->findChild<ArtifactList*>()->isHidden());
    }

    // A file the desktop could run is only saved; one whose content is not loaded is neither.
    // A file over the preview's inline size is read from the stored run when saved (issue 14).
    void largeHistoryFilesAreReadWhenSaved()
    {
        ArtifactList list;
        const QByteArray big(3 << 20, 'x');
        QStringList asked;
        list.setContentSource([&](const QString& name) -> std::optional<QByteArray> {
            asked << name;
            return name == QStringLiteral("big.csv") ? std::optional<QByteArray>(big) : std::nullopt;
        });
        RunArtifact notLoaded = artifact(QStringLiteral("big.csv"), QStringLiteral("text/csv"), QByteArray());
        notLoaded.size = big.size();
        RunArtifact gone = artifact(QStringLiteral("gone.csv"), QStringLiteral("text/csv"), QByteArray());
        gone.size = 10;
        list.setArtifacts({notLoaded, gone}, QStringLiteral("run-art-4"));
        QVERIFY(button(&list, QStringLiteral("Save big.csv as"))->isEnabled());
        QVERIFY(asked.isEmpty()); // nothing read until asked for
        QTemporaryDir dir;
        QString error;
        QVERIFY2(list.saveTo(0, dir.filePath(QStringLiteral("big.csv")), &error), qPrintable(error));
        QCOMPARE(QFileInfo(dir.filePath(QStringLiteral("big.csv"))).size(), big.size());
        QVERIFY(!list.saveTo(1, dir.filePath(QStringLiteral("gone.csv")), &error));
        QVERIFY(error.contains(QStringLiteral("not loaded")));
    }

    void runnableAndUnloadedFiles()
    {
        ArtifactList list;
        RunArtifact notLoaded = artifact(QStringLiteral("big.bin"), QStringLiteral("application/octet-stream"), QByteArray());
        notLoaded.size = 5 << 20;
        list.setArtifacts({artifact(QStringLiteral("run.sh"), QStringLiteral("application/x-shellscript"), QByteArray("#!/bin/sh\n")),
                           artifact(QStringLiteral("x.desktop"), QStringLiteral("application/x-desktop"), QByteArray("[Desktop Entry]\n")),
                           notLoaded},
                          QStringLiteral("run-art-3"));
        QVERIFY(!button(&list, QStringLiteral("Open run.sh"))->isEnabled());
        QVERIFY(button(&list, QStringLiteral("Save run.sh as"))->isEnabled());
        QVERIFY(!button(&list, QStringLiteral("Open x.desktop"))->isEnabled());
        QVERIFY(!button(&list, QStringLiteral("Open big.bin"))->isEnabled());
        QVERIFY(!button(&list, QStringLiteral("Save big.bin as"))->isEnabled());
        QString error;
        QVERIFY(!list.saveTo(2, QDir::temp().filePath(QStringLiteral("never")), &error));
        QVERIFY(error.contains(QStringLiteral("not loaded")));
    }
};

QTEST_MAIN(TestArtifactList)
#include "test_artifact_list.moc"
