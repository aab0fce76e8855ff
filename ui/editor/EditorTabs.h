#pragma once

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
    // Opens a file in a new tab (or focuses the tab that has it). Returns null with *error set.
    EditorPage* openFile(const QString& path, QString* error = nullptr);
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
