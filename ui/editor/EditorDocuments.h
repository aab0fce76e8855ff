#pragma once

#include "core/recovery/RecoveryJournal.h"
#include "ui/examples/ExampleLibrary.h"

#include <QList>
#include <QMessageBox>
#include <QObject>
#include <functional>

namespace sandpad {

class DocumentStore;
class EditorPage;
class EditorTabs;
class NotebookFiles;

// The editor side of the main window: opening, saving and closing tabs, whatever their source
// (a file, a saved document, a stored revision, an example), and the journal that keeps their
// unsaved text across a crash. Opening something replaces a blank untitled tab (files excepted:
// they open beside it). The window wires its actions and the Documents dock to these methods;
// dialogs are parented to it.
class EditorDocuments : public QObject {
    Q_OBJECT
public:
    // documents may be null (no workspace: Save as Document is refused); an empty recoveryDir
    // journals nothing.
    EditorDocuments(EditorTabs* tabs, DocumentStore* documents, const QString& recoveryDir, QWidget* window);

    RecoveryJournal* journal() const { return m_journal; } // null without a recoveryDir
    // .ipynb files: opened as a tab of cells, saved back as notebooks, exported (ui/notebookio).
    NotebookFiles* notebooks() const { return m_notebooks; }

    // Files. openFile warns in a message box and returns null when the file cannot be read.
    void openFileWithDialog();
    EditorPage* openFile(const QString& path);
    // The same without the message box: null with *error set (empty: the user cancelled). Files
    // are read off the GUI thread, regular files within a limit only (EditorTabs::openFile).
    EditorPage* openFileQuietly(const QString& path, QString* error);
    // A document tab: a new revision; otherwise a file (askPath, or no file yet: a dialog).
    bool saveCurrent(bool askPath);

    // Saved documents: what the Documents dock's signals lead to.
    EditorPage* openDocumentForEditing(const QString& documentId, const QString& title, const QString& content,
                                       const QString& headRevisionId);
    EditorPage* openRevisionReadOnly(const QString& documentId, const QString& title, const QString& content,
                                     const QString& revisionId);
    // Stores the current tab as a new document titled `title` (the extension gives the language).
    bool saveCurrentAsDocument(const QString& title);
    void saveAsDocumentInteractive();
    // Documents were renamed, or got a new head (a restore), in the store: their open tabs follow
    // (an unmodified tab shows the new head; a modified one keeps its text, and Save asks).
    void applyDocumentTitles();

    void openExample(const Example& example);
    bool openExample(const QString& name);

    // Closing. A modified tab is asked about first (Save, Discard or Cancel).
    void closeCurrentTab();
    void closeTab(int index);
    // Before the window closes: asks about every modified tab; false when one was cancelled.
    // With several, the question also offers Discard All (NoToAll): the rest are not asked.
    bool confirmCloseAll();
    // The window closed after confirmCloseAll(): every tab was saved or discarded on purpose,
    // so nothing is left to recover.
    void forgetJournal();
    // Not closed through confirmCloseAll (e.g. the session ended): keeps pending text on disk.
    void flushJournal();
    // What asks about a modified tab; the default is a message box. Tests answer it directly.
    using DiscardPrompt = std::function<QMessageBox::StandardButton(EditorPage* page)>;
    void setDiscardPrompt(DiscardPrompt prompt) { m_prompt = std::move(prompt); }
    // What asks before a document tab's text is saved over a newer head (Save or Cancel).
    using StalePrompt = std::function<QMessageBox::StandardButton(EditorPage* page)>;
    void setStalePrompt(StalePrompt prompt) { m_stalePrompt = std::move(prompt); }

    // Recovery: shows the dialog when the journal holds text a crash left (call once at start),
    // or restores every entry without asking (restoreAll, for tests and --restore-all).
    void offerRecovery(bool restoreAll = false);
    QList<EditorPage*> restoreRecovered(const QList<RecoveryEntry>& entries);

signals:
    void statusMessage(const QString& text, int timeoutMs);
    void documentSaved(const QString& documentId);   // a revision was appended
    void documentCreated(const QString& documentId); // Save as Document made it

private:
    bool confirmDiscard(EditorPage* page);
    void closePageAt(int index); // after confirmDiscard: forgets the tab's journal too
    EditorPage* blankCurrentPage() const;
    void closeBlank(EditorPage* blank); // the blank tab something was opened over, if any
    bool saveToDocument(EditorPage* page);
    void watchPage(EditorPage* page);

    EditorTabs* m_tabs;
    DocumentStore* m_documents;
    QWidget* m_window;
    RecoveryJournal* m_journal = nullptr;
    NotebookFiles* m_notebooks = nullptr;
    DiscardPrompt m_prompt;
    StalePrompt m_stalePrompt;
    int m_closingAll = 0;      // modified tabs still to ask about while quitting
    bool m_discardAll = false; // Discard All was chosen
};

} // namespace sandpad
