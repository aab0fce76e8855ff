#pragma once

#include "core/recovery/OpenTabs.h"

#include <QList>
#include <QStringList>

namespace sandpad {

class DocumentStore;
class EditorDocuments;
class EditorPage;
class EditorTabs;
class TabSessions;

// The open tabs across a normal restart (core/recovery/OpenTabs holds the file): capture() at a
// normal quit, after every modified tab was saved or discarded on purpose; restore() at the next
// start, before the crash journal is offered (which a normal quit left empty).
class OpenTabsRestore {
public:
    // Every tab but the blank ones. A modified untitled tab was discarded when quitting: it is
    // not kept. Files and documents are kept as where they are (read again at restore); an
    // untitled tab keeps its text. Cursor and run mode per tab.
    static OpenTabs capture(const EditorTabs& tabs, const TabSessions* sessions);
    // Opens the tabs again, in order, the current one current. A file, document or revision that
    // is gone still gets its tab, empty, with a note on it (EditorPage::note) and a sentence in
    // *notes; Save writes a vanished file again. The blank start tab makes room; a tab opened at
    // start (a file, an example to run) stays the current one.
    static QList<EditorPage*> restore(const OpenTabs& open, EditorDocuments& documents, EditorTabs& tabs,
                                      TabSessions* sessions, const DocumentStore* store, QStringList* notes);
};

} // namespace sandpad
