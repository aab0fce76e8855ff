// .ipynb in the editor (ui/notebookio over ui/editor's EditorDocuments): File > Open gives a tab
// of cells, a notebook that cannot be read opens nothing and says why, Save writes a notebook
// back (never the tab's text) keeping what was read, Export carries each cell's last run.
#include "NotebookChecks.h"
#include "core/ipynb/IpynbReader.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorDocuments.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/notebookio/CellRuns.h"
#include "ui/notebookio/NotebookFiles.h"

#include <QApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <memory>

using namespace sandpad;
using sandpad::test::fileBytes;
using sandpad::test::nbformatProblems;

namespace {

QByteArray sampleNotebook()
{
    const QJsonArray cells{
        QJsonObject{{"cell_type", "markdown"}, {"id", "md1"}, {"metadata", QJsonObject{}}, {"source", QJsonArray{"# Sales\n", "notes"}}},
        QJsonObject{{"cell_type", "code"}, {"id", "c1"}, {"metadata", QJsonObject{{"tags", QJsonArray{"setup"}}}},
                    {"source", "x = 6 * 7"}, {"outputs", QJsonArray{}}, {"execution_count", 1}},
        QJsonObject{{"cell_type", "code"}, {"id", "c2"}, {"metadata", QJsonObject{}}, {"source", "print(x)"},
                    {"outputs", QJsonArray{QJsonObject{{"output_type", "stream"}, {"name", "stdout"}, {"text", QJsonArray{"42\n"}}}}},
                    {"execution_count", 2}},
        QJsonObject{{"cell_type", "code"}, {"id", "c3"}, {"metadata", QJsonObject{{"tags", QJsonArray{"edited"}}}},
                    {"source", "x + 1"}, {"outputs", QJsonArray{}}, {"execution_count", QJsonValue()}},
    };
    const QJsonObject meta{{"kernelspec", QJsonObject{{"name", "python3"}, {"language", "python"}, {"display_name", "Python 3"}}},
                           {"custom", "kept"}};
    return QJsonDocument(QJsonObject{{"cells", cells}, {"metadata", meta}, {"nbformat", 4}, {"nbformat_minor", 5}}).toJson();
}

} // namespace

class TestNotebookFiles : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QWidget> m_window;
    EditorTabs* m_tabs = nullptr;
    EditorDocuments* m_docs = nullptr;

    QString write(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_dir->filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return {};
        return path;
    }
    // Opens path through EditorDocuments; a warning box it shows is read and closed.
    EditorPage* openAnswering(const QString& path, QString* shown)
    {
        QTimer closer;
        connect(&closer, &QTimer::timeout, this, [shown] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                *shown = box->text();
                box->accept();
            }
        });
        closer.start(20);
        return m_docs->openFile(path);
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
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

    void openingANotebookGivesItsCells()
    {
        const QString path = write("sales.ipynb", sampleNotebook());
        QString shown;
        EditorPage* page = openAnswering(path, &shown);
        QVERIFY2(page, qPrintable(shown));
        QCOMPARE(page->editor()->text(),
                 QStringLiteral("# %% [markdown]\n# # Sales\n# notes\n\n# %%\nx = 6 * 7\n\n# %%\nprint(x)\n\n# %%\nx + 1\n"));
        QCOMPARE(page->language(), Language::Python);
        QCOMPARE(page->filePath(), QFileInfo(path).absoluteFilePath());
        QVERIFY(!page->isModified());
        QCOMPARE(page->editor()->cellSeparatorLines(), (QList<int>{0, 4, 7, 10})); // the editor's cells
        QCOMPARE(m_docs->openFile(path), page); // opened again: the same tab
        QCOMPARE(m_tabs->count(), 2);

        const QString js = write("js.ipynb", QJsonDocument(QJsonObject{
            {"cells", QJsonArray{QJsonObject{{"cell_type", "markdown"}, {"metadata", QJsonObject{}}, {"source", "hi"}},
                                 QJsonObject{{"cell_type", "code"}, {"metadata", QJsonObject{}}, {"source", "console.log(1)"},
                                             {"outputs", QJsonArray{}}, {"execution_count", QJsonValue()}}}},
            {"metadata", QJsonObject{{"kernelspec", QJsonObject{{"name", "javascript"}, {"language", "javascript"}}}}},
            {"nbformat", 4}, {"nbformat_minor", 2}}).toJson());
        EditorPage* jsPage = openAnswering(js, &shown);
        QVERIFY(jsPage);
        QCOMPARE(jsPage->language(), Language::JavaScript);
        QCOMPARE(jsPage->editor()->text(), QStringLiteral("// %% [markdown]\n// hi\n\n// %%\nconsole.log(1)\n"));
        QCOMPARE(jsPage->editor()->cellSeparatorLines(), (QList<int>{0, 3}));
    }

    void aNotebookThatCannotBeReadOpensNothing_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("broken json") << QByteArray("{\"cells\": [") << "not valid JSON";
        QTest::newRow("nbformat 3") << QByteArray("{\"nbformat\": 3, \"worksheets\": []}") << "nbformat 3";
        QTest::newRow("julia") << QByteArray("{\"nbformat\": 4, \"nbformat_minor\": 5, \"cells\": [], \"metadata\": "
                                             "{\"kernelspec\": {\"name\": \"julia-1.9\", \"language\": \"julia\"}}}")
                               << "kernel is julia";
    }
    void aNotebookThatCannotBeReadOpensNothing()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const QString path = write("bad.ipynb", bytes);
        QString shown;
        QVERIFY(!openAnswering(path, &shown));
        QVERIFY2(shown.contains("bad.ipynb cannot be opened as a notebook"), qPrintable(shown));
        QVERIFY2(shown.contains(expected), qPrintable(shown));
        QCOMPARE(m_tabs->count(), 1); // nothing opened, not even the JSON as text
        QVERIFY(m_tabs->currentPage()->isBlank());
        QCOMPARE(fileBytes(path), bytes);
    }

    void saveWritesTheNotebookBackKeepingWhatWasRead()
    {
        const QString path = write("sales.ipynb", sampleNotebook());
        QString shown;
        EditorPage* page = openAnswering(path, &shown);
        QVERIFY(page);
        // Edit the last cell and add one.
        CodeEditor* e = page->editor();
        e->setText(e->text().replace("x + 1\n", "x + 2\n\n# %%\nprint('new')\n"));
        QVERIFY(page->isModified());
        QVERIFY(m_docs->saveCurrent(false));
        QVERIFY(!page->isModified());
        QCOMPARE(page->filePath(), QFileInfo(path).absoluteFilePath());

        const QByteArray saved = fileBytes(path);
        QVERIFY2(nbformatProblems(saved).isEmpty(), qPrintable(nbformatProblems(saved))); // a notebook, not percent text
        const QJsonObject top = QJsonDocument::fromJson(saved).object();
        QCOMPARE(top["metadata"]["custom"].toString(), QStringLiteral("kept"));
        const QJsonArray cells = top["cells"].toArray();
        QCOMPARE(cells.size(), 5);
        QCOMPARE(cells[0]["id"].toString(), QStringLiteral("md1"));
        QCOMPARE(cells[1]["metadata"]["tags"].toArray(), (QJsonArray{"setup"}));
        QCOMPARE(cells[1]["execution_count"].toInt(), 1);
        QCOMPARE(cells[2]["outputs"].toArray().size(), 1); // unchanged: its outputs stay
        QCOMPARE(cells[3]["id"].toString(), QStringLiteral("c3"));   // edited in place: id and tags stay
        QCOMPARE(cells[3]["metadata"]["tags"].toArray(), (QJsonArray{"edited"}));
        QCOMPARE(cells[3]["source"].toArray(), (QJsonArray{"x + 2"}));
        QCOMPARE(cells[4]["source"].toArray(), (QJsonArray{"print('new')"}));
        QVERIFY(!cells[4]["id"].toString().isEmpty());

        // Opened again, the same text.
        const QString text = e->text();
        m_docs->closeCurrentTab();
        EditorPage* again = openAnswering(path, &shown);
        QVERIFY(again);
        QCOMPARE(again->editor()->text(), text);
    }

    void saveToFileCanMakeAPythonFileOfANotebook()
    {
        const QString path = write("sales.ipynb", sampleNotebook());
        QString shown;
        EditorPage* page = openAnswering(path, &shown);
        QVERIFY(page);
        // What Save to File does once its dialog named a .py: the text, and the tab becomes that file.
        QString error;
        QVERIFY(m_tabs->savePage(page, m_dir->filePath("sales.py"), &error));
        QCOMPARE(QString::fromUtf8(fileBytes(m_dir->filePath("sales.py"))), page->editor()->text());
        QCOMPARE(fileBytes(path), sampleNotebook()); // the notebook untouched
    }

    void exportCarriesEachCellsLastRun()
    {
        const QString path = write("sales.ipynb", sampleNotebook());
        QString shown;
        EditorPage* page = openAnswering(path, &shown);
        QVERIFY(page);
        CellRuns* runs = m_docs->notebooks()->cellRuns();
        auto run = [&](const QString& code, int line, const QString& out, std::optional<int> count) {
            ExecutionResult r;
            r.status = RunStatus::Success;
            r.code = code + "\n"; // a cell's run has the blank line before the next separator
            r.stdoutText = out;
            r.executionCount = count;
            runs->record(page, r, line);
        };
        run("x = 6 * 7", 6, {}, 1);
        run("print(x)", 9, "old\n", 2);
        run("print(x)", 9, "42 again\n", 5);   // the last run of the cell wins
        run("x + 1", 12, "stale\n", 6);
        e_edit(page);                            // that cell is edited since: no outputs
        const QString out = m_dir->filePath("out.ipynb");
        m_docs->notebooks()->setPathPrompt([&](const QString&, const QString& suggested, const QString&) {
            return suggested.endsWith(".ipynb") ? out : m_dir->filePath("report.html");
        });
        m_docs->notebooks()->exportNotebookWithDialog();
        const QByteArray bytes = fileBytes(out);
        QVERIFY2(nbformatProblems(bytes).isEmpty(), qPrintable(nbformatProblems(bytes)));
        const QJsonArray cells = QJsonDocument::fromJson(bytes).object()["cells"].toArray();
        QCOMPARE(cells[2]["outputs"][0]["text"].toArray(), (QJsonArray{"42 again\n"}));
        QCOMPARE(cells[2]["execution_count"].toInt(), 5);
        QCOMPARE(cells[1]["execution_count"].toInt(), 1);
        QVERIFY(cells[3]["outputs"].toArray().isEmpty());
        QVERIFY(page->isModified());               // export leaves the tab as it is
        QCOMPARE(page->filePath(), QFileInfo(path).absoluteFilePath());

        m_docs->notebooks()->exportHtmlWithDialog();
        const QString html = QString::fromUtf8(fileBytes(m_dir->filePath("report.html")));
        QVERIFY(html.contains("42 again"));
        QVERIFY(html.contains("<h1>Sales</h1>"));
        QVERIFY(!html.contains("<script"));
    }

    void cellRunsTellCellsApart()
    {
        CellRuns runs;
        auto tab = std::make_unique<QObject>();
        auto record = [&](const QString& code, int line, const QString& out) {
            ExecutionResult r;
            r.code = code;
            r.stdoutText = out;
            runs.record(tab.get(), r, line);
        };
        record("print(1)\n\n", 2, "A");
        record("print(1)", 10, "B");
        record("a = 1\n\n# %%\nb = 2", 1, "whole tab"); // Run All of two cells: no cell's run
        QCOMPARE(runs.lastRun(tab.get(), "print(1)", 3)->stdoutText, QStringLiteral("A"));
        QCOMPARE(runs.lastRun(tab.get(), "print(1)\n", 9)->stdoutText, QStringLiteral("B"));
        QVERIFY(!runs.lastRun(tab.get(), "print(2)", 2));
        QVERIFY(!runs.lastRun(tab.get(), "a = 1", 1));
        record("print(1)", 2, "A2"); // the same cell again: replaces its run
        QCOMPARE(runs.runCount(tab.get()), 3);
        QCOMPARE(runs.lastRun(tab.get(), "print(1)", 2)->stdoutText, QStringLiteral("A2"));
        QObject other;
        QVERIFY(!runs.lastRun(&other, "print(1)", 2)); // runs are per tab
        QObject* gone = tab.get();                     // a closed tab's runs go with it (the
        tab.reset();                                   // pointer is only a key here)
        QCOMPARE(runs.runCount(gone), 0);
    }

private:
    static void e_edit(EditorPage* page)
    {
        CodeEditor* e = page->editor();
        e->setText(e->text().replace("x + 1\n", "x + 100\n"));
    }
};

QTEST_MAIN(TestNotebookFiles)
#include "test_notebook_files.moc"
