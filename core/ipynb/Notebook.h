#pragma once

#include "core/language/Language.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace sandpad {

// A Jupyter notebook (nbformat 4) as Sandpad holds it between the file and a tab: the cells the
// user wrote and what came with them (ids, metadata, outputs), kept so that writing it back
// loses nothing that was read.
struct NotebookCell {
    enum class Type { Code, Markdown, Raw };
    Type type = Type::Code;
    QString source;                    // the cell's text, lines joined with '\n'
    QString id;                        // nbformat 4.5's cell id; empty: one is made when written
    QJsonObject metadata;
    QJsonObject attachments;           // markdown/raw cells' attached files, kept as read
    QJsonArray outputs;                // code cells: nbformat output objects
    std::optional<int> executionCount; // code cells
    int line = 0;                      // PercentFormat::fromText: the tab's 1-based line of the
                                       // cell's first source line (what a run of the cell names)
};

struct Notebook {
    QList<NotebookCell> cells;
    QJsonObject metadata;              // the notebook's (kernelspec, language_info, anything else)
    Language language = Language::Python;
    int nbformatMinor = 5;             // as read; always written as 4.5
};

QString notebookCellTypeName(NotebookCell::Type type); // "code", "markdown", "raw"

} // namespace sandpad
