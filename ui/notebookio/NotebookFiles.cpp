#include "ui/notebookio/NotebookFiles.h"

#include "core/ipynb/CellOutputs.h"
#include "core/ipynb/HtmlReport.h"
#include "core/ipynb/IpynbReader.h"
#include "core/ipynb/IpynbWriter.h"
#include "core/ipynb/PercentFormat.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/editor/OpenProgress.h"
#include "ui/notebookio/CellRuns.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace sandpad {

namespace {

bool sameCell(const NotebookCell& a, const NotebookCell& b) { return a.type == b.type && a.source == b.source; }

// What the tab's cells keep of the cells that were read. A cell found unchanged, in order, keeps
// everything (its outputs too); between two such cells, the edited cells, paired in order with
// the cells read there while their types match, keep their id, metadata and attachments.
void carryOver(QList<NotebookCell>& cells, const QList<NotebookCell>& read)
{
    QList<std::pair<int, int>> anchors; // (index in cells, index in read)
    int from = 0;
    for (int i = 0; i < cells.size(); ++i)
        for (int k = from; k < read.size(); ++k)
            if (sameCell(cells.at(i), read.at(k))) {
                anchors.append({i, k});
                from = k + 1;
                break;
            }
    auto keepAll = [&](int i, int k) {
        NotebookCell& c = cells[i];
        const NotebookCell& r = read.at(k);
        c.id = r.id;
        c.metadata = r.metadata;
        c.attachments = r.attachments;
        c.outputs = r.outputs;
        c.executionCount = r.executionCount;
    };
    int prevCell = -1, prevRead = -1;
    anchors.append({int(cells.size()), int(read.size())}); // the end closes the last gap
    for (const auto& [ci, ri] : anchors) {
        const int gap = std::min(ci - prevCell - 1, ri - prevRead - 1);
        for (int g = 1; g <= gap; ++g) {
            NotebookCell& c = cells[prevCell + g];
            const NotebookCell& r = read.at(prevRead + g);
            if (c.type != r.type)
                break;
            c.id = r.id;
            c.metadata = r.metadata;
            c.attachments = r.attachments;
        }
        if (ci < cells.size())
            keepAll(ci, ri);
        prevCell = ci;
        prevRead = ri;
    }
}

} // namespace

NotebookFiles::NotebookFiles(EditorTabs* tabs, QWidget* window)
    : QObject(window), m_tabs(tabs), m_window(window), m_cellRuns(new CellRuns(this))
{
    m_prompt = [this](const QString& caption, const QString& suggested, const QString& filter) {
        return QFileDialog::getSaveFileName(m_window, caption, suggested, filter);
    };
}

bool NotebookFiles::isNotebookPath(const QString& path)
{
    return path.endsWith(QLatin1String(".ipynb"), Qt::CaseInsensitive);
}

void NotebookFiles::followRuns(RunController* runs) { m_cellRuns->follow(runs); }

void NotebookFiles::remember(EditorPage* page, const Notebook& notebook)
{
    if (!m_read.contains(page))
        connect(page, &QObject::destroyed, this, [this, page] { m_read.remove(page); });
    m_read.insert(page, notebook);
}

EditorPage* NotebookFiles::open(const QString& path, QString* error)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (int i = 0; i < m_tabs->count(); ++i)
        if (EditorPage* p = m_tabs->page(i); p && !p->filePath().isEmpty() && p->filePath() == absolute) {
            m_tabs->setCurrentIndex(i);
            return p;
        }
    // Read, parsed and turned into the tab's text on a worker thread (a 50 MB notebook takes
    // seconds): the window keeps running, a big one shows progress and Cancel.
    QString why;
    std::optional<Notebook> notebook;
    QString text;
    FileReadControl control;
    const QString name = QFileInfo(path).fileName();
    EditorPage* page = nullptr;
    qsizetype at = 0;
    OpenProgress::run(
        m_window, tr("Opening the notebook %1 (%2)…").arg(name, FileRead::sizeText(QFileInfo(path).size())), control,
        [&] {
            notebook = IpynbReader::readFile(path, &why, &control);
            if (notebook && !control.cancel)
                text = PercentFormat::toText(notebook->cells, notebook->language);
        },
        [&] { return !notebook || m_tabs->loadStep(&page, notebook->language, text, name, &at, control); });
    if (control.cancel) {
        if (page)
            m_tabs->closePage(m_tabs->indexOf(page));
        if (error)
            error->clear(); // the user's own choice: nothing to warn about
        return nullptr;
    }
    if (!notebook || !page) {
        if (error)
            *error = tr("%1 cannot be opened as a notebook. %2").arg(name, why);
        return nullptr;
    }
    page->setSource(FileSource{absolute});
    page->setModified(false);
    remember(page, *notebook);
    emit statusMessage(tr("Opened %1: %n cell(s), %2. Save writes it back as a notebook.", nullptr,
                          int(notebook->cells.size()))
                           .arg(QFileInfo(path).fileName(),
                                notebook->language == Language::JavaScript ? tr("JavaScript") : tr("Python")),
                       8000);
    return page;
}

Notebook NotebookFiles::notebookOf(EditorPage* page) const
{
    Notebook notebook;
    notebook.language = page->language();
    notebook.cells = PercentFormat::fromText(page->editor()->text(), notebook.language);
    const auto read = m_read.constFind(page);
    if (read != m_read.constEnd()) {
        notebook.metadata = read->metadata;
        carryOver(notebook.cells, read->cells);
    }
    for (NotebookCell& cell : notebook.cells) {
        if (cell.type != NotebookCell::Type::Code)
            continue;
        if (const auto run = m_cellRuns->lastRun(page, cell.source, cell.line)) {
            cell.outputs = CellOutputs::fromResult(*run);
            cell.executionCount = run->executionCount;
        }
    }
    return notebook;
}

bool NotebookFiles::save(EditorPage* page, const QString& path, QString* error)
{
    const Notebook notebook = notebookOf(page);
    if (!IpynbWriter::writeFile(notebook, path, error))
        return false;
    if (page->isReadOnlyRevision()) { // a copy of a stored revision: the tab stays the revision
        emit statusMessage(tr("Saved a copy of the revision as the notebook %1").arg(QDir::toNativeSeparators(path)), 6000);
        return true;
    }
    page->setSource(FileSource{QFileInfo(path).absoluteFilePath()});
    page->setModified(false);
    // What is in the file now (with the ids made for new cells) is what the next save starts from.
    QString ignored;
    if (auto written = IpynbReader::readFile(path, &ignored))
        remember(page, *written);
    emit statusMessage(tr("Saved %1 as a notebook%2").arg(QFileInfo(path).fileName(), outputsNote(page, notebook)), 6000);
    return true;
}

QString NotebookFiles::outputsNote(EditorPage* page, const Notebook& notebook) const
{
    int code = 0, withOutputs = 0;
    for (const NotebookCell& cell : notebook.cells)
        if (cell.type == NotebookCell::Type::Code) {
            ++code;
            withOutputs += !cell.outputs.isEmpty();
        }
    if (code == 0)
        return {};
    QString note = tr(" (%1 of %n code cell(s) with outputs)", nullptr, code).arg(withOutputs);
    if (withOutputs < code && m_cellRuns->runCount(page) > 0 && code > 1)
        note += tr(": a cell's outputs are those of its last Shift+Enter (Run All runs the tab as one program)");
    return note;
}

bool NotebookFiles::exportNotebook(EditorPage* page, const QString& path, QString* error)
{
    const Notebook notebook = notebookOf(page);
    if (!IpynbWriter::writeFile(notebook, path, error))
        return false;
    emit statusMessage(tr("Exported %1%2").arg(QDir::toNativeSeparators(path), outputsNote(page, notebook)), 8000);
    return true;
}

bool NotebookFiles::exportHtml(EditorPage* page, const QString& path, QString* error)
{
    const Notebook notebook = notebookOf(page);
    if (!HtmlReport::writeFile(notebook, page->title(), path, error))
        return false;
    emit statusMessage(tr("Exported %1%2").arg(QDir::toNativeSeparators(path), outputsNote(page, notebook)), 8000);
    return true;
}

QString NotebookFiles::suggestedPath(EditorPage* page, const QString& extension) const
{
    const QString title = page->title();
    const QString base = QFileInfo(title).completeBaseName().isEmpty() ? title : QFileInfo(title).completeBaseName();
    const QString name = base.toLower().replace(QLatin1Char(' '), QLatin1Char('_')) + extension;
    const QString file = page->filePath();
    return file.isEmpty() ? name : QFileInfo(file).absoluteDir().filePath(name);
}

void NotebookFiles::exportWithDialog(bool html)
{
    EditorPage* page = m_tabs->currentPage();
    if (!page)
        return;
    const QString path = html ? m_prompt(tr("Export as HTML Report"), suggestedPath(page, QStringLiteral(".html")),
                                         tr("HTML (*.html *.htm)"))
                              : m_prompt(tr("Export as Notebook"), suggestedPath(page, QStringLiteral(".ipynb")),
                                         tr("Jupyter notebook (*.ipynb)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!(html ? exportHtml(page, path, &error) : exportNotebook(page, path, &error)))
        QMessageBox::warning(m_window, tr("Export"), error);
}

} // namespace sandpad
