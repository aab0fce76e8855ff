#pragma once

#include "core/ipynb/Notebook.h"

#include <QList>
#include <QString>

namespace sandpad {

// A notebook's cells as the text of one tab, in Jupytext's "percent" format: each cell starts
// with a `# %%` line (`// %%` in JavaScript, the separators the editor runs cell by cell),
// markdown cells with `# %% [markdown]` and raw cells with `# %% [raw]`, their lines commented
// out (`# ` / `// `). Cells are separated by one blank line, which reading takes away again, so
// that cells -> text -> cells gives back the same sources.
class PercentFormat {
public:
    static QString toText(const QList<NotebookCell>& cells, Language language);
    // The cells of a tab's text (types and sources only). Text before the first separator is a
    // code cell of its own unless it is blank.
    static QList<NotebookCell> fromText(const QString& text, Language language);

    // "# %%" or "// %%": what starts a cell.
    static QString marker(Language language);
    static bool isSeparator(const QString& line, Language language);
};

} // namespace sandpad
