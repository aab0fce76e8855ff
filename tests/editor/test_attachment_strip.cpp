// A tab's run input (offscreen): files attached (by path or dropped on the editor) and removed,
// the Input box as stdin, bad files refused with a message, and what a run of the tab is given.
#include "ui/editor/AttachmentStrip.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUrl>

using namespace sandpad;

class TestAttachmentStrip : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString file(const QString& name, const QByteArray& content)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(content);
        return path;
    }

private slots:
    void attachRemoveAndInput()
    {
        EditorPage page(QStringLiteral("Untitled 1"));
        AttachmentStrip* strip = page.attachments();
        QVERIFY(strip);
        QVERIFY(strip->runInput().isEmpty()); // nothing given: the run has no input
        QSignalSpy changed(strip, &AttachmentStrip::changed);
        QVERIFY(strip->attachFiles({file(QStringLiteral("a.csv"), "1,2\n"), file(QStringLiteral("b.txt"), "b")}).isEmpty());
        QCOMPARE(strip->fileNames(), (QStringList{QStringLiteral("a.csv"), QStringLiteral("b.txt")}));
        QVERIFY(changed.count() >= 1);
        // Attached again under the same name: replaced, not doubled.
        QVERIFY(strip->attachFiles({file(QStringLiteral("a.csv"), "3,4\n")}).isEmpty());
        QCOMPARE(strip->fileNames(), (QStringList{QStringLiteral("b.txt"), QStringLiteral("a.csv")}));
        QCOMPARE(strip->runInput().files.last().content, QByteArray("3,4\n"));
        // Each file has its remove button.
        QToolButton* remove = nullptr;
        for (QToolButton* b : strip->findChildren<QToolButton*>())
            if (b->accessibleName() == QStringLiteral("Remove b.txt"))
                remove = b;
        QVERIFY(remove);
        remove->click();
        QCOMPARE(strip->fileNames(), QStringList{QStringLiteral("a.csv")});

        QVERIFY(!strip->runInput().stdinData);
        strip->setInputText(QStringLiteral("Ada"));
        QVERIFY(strip->inputShown());
        QCOMPARE(strip->runInput().stdinData, std::optional(QByteArray("Ada\n")));
    }

    // Tab goes as the strip reads: Attach Files…, each file's remove button, Input, the input
    // box (it went Input before Attach Files).
    void tabGoesLeftToRight()
    {
        EditorPage page(QStringLiteral("Untitled 1"));
        AttachmentStrip* strip = page.attachments();
        QVERIFY(strip->attachFiles({file(QStringLiteral("a.csv"), "1\n"), file(QStringLiteral("b.txt"), "b")}).isEmpty());
        strip->setInputShown(true);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        // From the Language box on (the row above the strip), as Tab goes.
        QWidget* from = page.findChild<QComboBox*>();
        QVERIFY(from);
        QStringList order;
        QWidget* w = from;
        for (int i = 0; i < 6; ++i) {
            auto* button = qobject_cast<QToolButton*>(w);
            order << (!w->accessibleName().isEmpty() ? w->accessibleName() : button ? button->text() : QString::fromLatin1(w->metaObject()->className()));
            do
                w = w->nextInFocusChain();
            while (w != from && (!(w->focusPolicy() & Qt::TabFocus) || !w->isVisible() || !page.isAncestorOf(w)));
        }
        QCOMPARE(order.mid(1, 5), (QStringList{QStringLiteral("Attach Files…"), QStringLiteral("Remove a.csv"), QStringLiteral("Remove b.txt"),
                                               QStringLiteral("Input"), QStringLiteral("Standard input of this tab's runs")}));
    }

    void badFilesAreRefusedInWords()
    {
        AttachmentStrip strip;
        QSignalSpy failed(&strip, &AttachmentStrip::attachFailed);
        const QString why = strip.attachFiles({m_dir.filePath(QStringLiteral("missing.txt")), m_dir.path()});
        QVERIFY(why.contains(QStringLiteral("missing.txt is not a file")));
        QCOMPARE(failed.count(), 1);
        QVERIFY(strip.fileNames().isEmpty());
    }

    // Files dropped on the editor are attached, not pasted into the code.
    void dropOnTheEditor()
    {
        EditorPage page(QStringLiteral("Untitled 2"));
        page.resize(600, 400);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(file(QStringLiteral("dropped.json"), "{}"))});
        QWidget* viewport = page.editor()->viewport();
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &drop);
        QCOMPARE(page.attachments()->fileNames(), QStringList{QStringLiteral("dropped.json")});
        QVERIFY(page.editor()->text().isEmpty());
    }
};

QTEST_MAIN(TestAttachmentStrip)
#include "test_attachment_strip.moc"
