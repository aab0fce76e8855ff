#pragma once

#include "core/language/Language.h"

#include <QObject>
#include <QPointer>
#include <QString>

namespace sandpad {

// Where a run came from, as its caller named it: what the notebook shows while it runs, and
// what a traceback line or an error mark leads back to.
struct RunOrigin {
    QString title;                  // "a.py · lines 3–9", "x.py · revision 1a2b3c4d"
    QString code;                   // shown while it runs (a stored revision: its stored text)
    Language language = Language::Python;
    int firstLine = 1;              // the editor line of the run's line 1
    QPointer<QObject> source;       // the editor tab it ran from (core knows no widgets)
    QString documentId, revisionId; // set for saved-revision runs
};

} // namespace sandpad
