#pragma once

#include "core/files/FileRead.h"
#include "core/language/Language.h"

#include <QTabWidget>

namespace sandpad {

class CodeEditor;
class EditorPage;

// The open code tabs. Each tab is an EditorPage; titles show the file name and a "•" when
// modified. File dialogs are the caller's business: these methods take paths.
class EditorTabs : public QTabWidget {
    Q_OBJECT
public:
    explicit EditorTabs(QWidget* parent = nullptr);

    EditorPage* newTab(Language language = Language::Python, const QString& text = {},
                       const QString& title = {});
    // Opens a file in a new tab (or focuses the tab that has it), read off the GUI thread with a
    // progress dialog and Cancel for a big one (OpenProgress). Returns null with *error set, or
    // with *error empty when the user cancelled. Regular files of at most kMaxFileBytes only.
    EditorPage* openFile(const QString& path, QString* error = nullptr);

    // 64 MiB, as a document import (DocumentFiles::kMaxImportBytes): the editor holds a file of
    // that size in about half a GiB.
    static constexpr qint64 kMaxFileBytes = 64ll << 20;
    // One step of opening a text as a new tab (OpenProgress's guiStep): the first makes the tab
    // (*page) and starts filling its document on a worker, the next wait for it (reporting to
    // control.done/total), the last swaps it in (*at: how much is in);
    // true once all of it is in (the tab unmodified, its undo starting there).
    bool loadStep(EditorPage** page, Language language, const QString& text, const QString& title, qsizetype* at,
                  FileReadControl& control);
    // Writes the page to its file (or to path, which becomes its file; a revision tab stays one).
    bool savePage(EditorPage* page, const QString& path, QString* error = nullptr);
    // Closes without asking; callers check isModified() first.
    void closePage(int index);

    EditorPage* currentPage() const;
    CodeEditor* currentEditor() const;
    EditorPage* page(int index) const;

signals:
    void currentEditorChanged(sandpad::CodeEditor* editor);
    // A tab was created (its text is set and it is unmodified).
    void pageAdded(sandpad::EditorPage* page);

private:
    void refreshTitle(EditorPage* page);
    int m_untitledCount = 0;
};

} // namespace sandpad
