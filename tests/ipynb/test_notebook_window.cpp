// The main window end to end, offscreen, with the real Executor and the local (bubblewrap)
// sandbox: an .ipynb opened as File > Open opens it, each cell run with Shift+Enter, then
// File > Export > Notebook and > HTML Report (their path prompt answered); checked by nbformat.
#include "GuiTestSession.h"
#include "NotebookChecks.h"

#include "ui/console/RunController.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/MainWindow.h"
#include "ui/MainWindowActions.h"
#include "ui/editor/EditorDocuments.h"
#include "ui/notebookio/NotebookFiles.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace sandpad;
using sandpad::test::fileBytes;
using sandpad::test::nbformatProblems;

namespace {

QJsonObject cell(const QString& type, const QString& source)
{
    QJsonObject c{{"cell_type", type}, {"metadata", QJsonObject{}}, {"source", source}};
    if (type == QLatin1String("code")) {
        c["outputs"] = QJsonArray{};
        c["execution_count"] = QJsonValue();
    }
    return c;
}

} // namespace

class TestNotebookWindow : public QObject {
    Q_OBJECT
private slots:
    void openRunExport()
    {
        QTemporaryDir dir;
        GuiTestSession session(dir.filePath("data"));
        QVERIFY(session.opened && session.providerReady);
        MainWindow window(session.services());
        window.show();

        const QString path = dir.filePath("analysis.ipynb");
        {
            const QJsonArray cells{cell("markdown", "# Analysis\n\nA *small* one."),
                                   cell("code", "x = 6 * 7\nprint('x is', x)"),
                                   cell("code", "x + 1"),
                                   cell("code", "import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])"),
                                   cell("code", "1 / 0")};
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(QJsonObject{{"cells", cells}, {"metadata", QJsonObject{}}, {"nbformat", 4},
                                              {"nbformat_minor", 5}}).toJson());
        }
        // What File > Open does with the file its dialog returns (the dialog itself is Qt's: a
        // non-native QFileDialog answered from a timer refused its answer under load).
        window.editorDocuments()->openFile(path);
        EditorPage* page = window.tabs()->currentPage();
        QVERIFY(page);
        QCOMPARE(page->filePath(), QFileInfo(path).absoluteFilePath());
        QVERIFY(page->editor()->text().startsWith("# %% [markdown]\n# # Analysis\n"));

        // Shift+Enter through the four code cells (the cursor moves on after each).
        page->editor()->goToLine(7); // the first code cell's first line
        for (int i = 0; i < 4; ++i) {
            window.actions()->runCell->trigger();
            QVERIFY(QTest::qWaitFor([&] { return !window.runs()->isRunning(); }, 60000));
        }

        const QString out = dir.filePath("exported.ipynb");
        QString answer;
        window.editorDocuments()->notebooks()->setPathPrompt(
            [&answer](const QString&, const QString&, const QString&) { return answer; });
        answer = out;
        window.actions()->exportNotebook->trigger();
        const QByteArray bytes = fileBytes(out);
        QVERIFY2(!bytes.isEmpty(), "nothing exported");
        QVERIFY2(nbformatProblems(bytes).isEmpty(), qPrintable(nbformatProblems(bytes)));
        const QJsonArray cells = QJsonDocument::fromJson(bytes).object()["cells"].toArray();
        QCOMPARE(cells.size(), 5);
        QCOMPARE(cells[1]["outputs"][0]["output_type"].toString(), QStringLiteral("stream"));
        QCOMPARE(cells[1]["outputs"][0]["text"].toArray(), (QJsonArray{"x is 42\n"}));
        QCOMPARE(cells[2]["outputs"][0]["output_type"].toString(), QStringLiteral("execute_result"));
        QCOMPARE(cells[2]["outputs"][0]["data"]["text/plain"].toArray(), (QJsonArray{"43"}));
        bool png = false;
        for (const QJsonValue& o : cells[3]["outputs"].toArray())
            png = png || o["data"].toObject().contains("image/png");
        QVERIFY2(png, qPrintable(QJsonDocument(cells[3].toObject()).toJson()));
        const QJsonArray last = cells[4]["outputs"].toArray();
        QCOMPARE(last.last()["output_type"].toString(), QStringLiteral("error"));
        QCOMPARE(last.last()["ename"].toString(), QStringLiteral("ZeroDivisionError"));
        // A notebook session numbers its executions (In [n]).
        QVERIFY(cells[2]["execution_count"].isDouble());

        const QString report = dir.filePath("report.html");
        answer = report;
        window.actions()->exportHtml->trigger();
        const QString html = QString::fromUtf8(fileBytes(report));
        QVERIFY(html.contains("x is 42"));
        QVERIFY(html.contains("<h1>Analysis</h1>"));
        QVERIFY(html.contains("src=\"data:image/png;base64,"));
        QVERIFY(html.contains("ZeroDivisionError"));
        QVERIFY(!html.contains("<script"));
        QVERIFY(!page->isModified()); // exporting changed nothing in the tab
        QCOMPARE(page->filePath(), QFileInfo(path).absoluteFilePath());
    }
};

QTEST_MAIN(TestNotebookWindow)
#include "test_notebook_window.moc"
