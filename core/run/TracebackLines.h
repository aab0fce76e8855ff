#pragma once

#include "core/language/Language.h"

#include <QList>
#include <QString>
#include <optional>

namespace sandpad {

// The lines of a run's traceback that point into the code that ran, so the notebook can link
// them to the editor and the editor can mark the innermost one. Python: `File "…", line N` (the
// wrapper keeps only the snippet's frames). JavaScript: the stack's frames in the snippet
// (`at f (TITLE:N:C)`, `at TITLE:N:C`) and a syntax error's `TITLE:N[:C]` heading; frames of
// other files (node's own, a required module) are not the snippet's and get no link.
class TracebackLines {
public:
    struct Link {
        int textLine = 0;     // index of the traceback's line (split at '\n')
        int numberStart = 0;  // where the line number stands in that text line
        int numberLength = 0;
        int codeLine = 0;     // the line in the code that ran (1-based)
    };

    // title: the run's title as the wrapper got it (the file name its stacks show).
    static QList<Link> links(const QString& traceback, Language language, const QString& title);
    // The innermost frame in the code that ran: Python's last, JavaScript's first.
    static std::optional<int> innermost(const QString& traceback, Language language, const QString& title);
};

} // namespace sandpad
