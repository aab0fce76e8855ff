#pragma once

#include "core/ipynb/Notebook.h"

#include <QHash>
#include <QObject>
#include <functional>

class QWidget;

namespace sandpad {

class CellRuns;
class EditorPage;
class EditorTabs;
class RunController;

// Jupyter notebooks in the editor. Opening an .ipynb makes a tab of `# %%` cells (Jupytext's
// percent format: markdown and raw cells commented out); the tab stays the notebook's file, so
// Save writes it back as a notebook, never as the tab's text. What was read is kept per tab so
// that writing loses nothing: the notebook's metadata, and for each cell still as it was read
// its id, metadata, attachments and outputs (an edited cell keeps its id and metadata when it
// stays in its place). A cell run in this session gets its last run's outputs (CellRuns).
// Export writes the same notebook, or an HTML report of it, elsewhere, the tab unchanged.
class NotebookFiles : public QObject {
    Q_OBJECT
public:
    NotebookFiles(EditorTabs* tabs, QWidget* window);

    static bool isNotebookPath(const QString& path); // "*.ipynb"

    // The runs whose outputs a written notebook carries.
    void followRuns(RunController* runs);
    CellRuns* cellRuns() const { return m_cellRuns; }

    // A tab of the notebook's cells (the open tab when it has this file), or null with *error
    // set: a notebook that cannot be read opens nothing (*error empty: the user cancelled). Read
    // and parsed off the GUI thread, with progress and Cancel for a big one (OpenProgress).
    EditorPage* open(const QString& path, QString* error);
    // Writes the tab as a notebook to path, which becomes the tab's file.
    bool save(EditorPage* page, const QString& path, QString* error);
    // The tab as a notebook: its cells, with the outputs described above.
    Notebook notebookOf(EditorPage* page) const;

    // File > Export: the tab stays what it is.
    bool exportNotebook(EditorPage* page, const QString& path, QString* error);
    bool exportHtml(EditorPage* page, const QString& path, QString* error);
    void exportNotebookWithDialog() { exportWithDialog(false); }
    void exportHtmlWithDialog() { exportWithDialog(true); }
    // What asks for the path to export to (a save dialog by default). Tests answer it directly.
    using PathPrompt = std::function<QString(const QString& caption, const QString& suggested, const QString& filter)>;
    void setPathPrompt(PathPrompt prompt) { m_prompt = std::move(prompt); }

signals:
    void statusMessage(const QString& text, int timeoutMs);

private:
    void exportWithDialog(bool html);
    QString suggestedPath(EditorPage* page, const QString& extension) const;
    QString outputsNote(EditorPage* page, const Notebook& notebook) const;
    void remember(EditorPage* page, const Notebook& notebook);

    EditorTabs* m_tabs;
    QWidget* m_window;
    CellRuns* m_cellRuns;
    QHash<QObject*, Notebook> m_read; // per tab: the notebook as read (or as last saved)
    PathPrompt m_prompt;
};

} // namespace sandpad
