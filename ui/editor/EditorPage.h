#pragma once

#include "core/language/Language.h"

#include <QWidget>
#include <variant>

class QComboBox;
class QLabel;

namespace sandpad {

class AttachmentStrip;
class CodeEditor;

// Where a tab's text came from, which decides what Save does with it.

// Not saved anywhere yet: Save asks for a file.
struct UntitledSource {
    QString name;             // "Untitled 1", an example's file name, a recovered tab's title
};

// A file on disk: Save writes it.
struct FileSource {
    QString path;             // absolute
};

// A saved document, editable: Save appends a revision to it (not a file).
struct DocumentSource {
    QString documentId;
    QString title;            // the document's title; its extension gives the language
    QString headRevisionId;   // the revision the text is based on (updated after each save)
};

// One stored revision of a document, read-only: nothing is saved back to it.
struct RevisionSource {
    QString documentId;
    QString title;            // the document's title
    QString revisionId;
};

using EditorSource = std::variant<UntitledSource, FileSource, DocumentSource, RevisionSource>;

// One editor tab: a language selector and a location label over a CodeEditor.
class EditorPage : public QWidget {
    Q_OBJECT
public:
    explicit EditorPage(const QString& untitledName, QWidget* parent = nullptr);

    CodeEditor* editor() const { return m_editor; }
    // The tab's input files and stdin, given to each of its runs.
    AttachmentStrip* attachments() const { return m_attachments; }
    Language language() const;
    void setLanguage(Language language);

    const EditorSource& source() const { return m_source; }
    // A file, document or revision title with a known extension also sets the language; a
    // revision makes the editor read-only.
    void setSource(EditorSource source);

    // Read from source(), for the callers that ask one thing of it.
    QString title() const;                // the file name, document title or untitled name
    QString filePath() const;             // a file tab's path, else empty
    QString documentId() const;           // a document's or a revision's, else empty
    QString baseRevisionId() const;       // a document's head revision or the revision shown
    bool isDocument() const { return std::holds_alternative<DocumentSource>(m_source); }
    bool isReadOnlyRevision() const { return std::holds_alternative<RevisionSource>(m_source); }
    // Untitled, unmodified and empty: what opening something replaces.
    bool isBlank() const;

    bool isModified() const;
    void setModified(bool modified);

    // A stable id for the recovery journal (a UUID made at construction).
    QString tabId() const { return m_tabId; }
    QString locationText() const; // the label over the editor (file path, document, revision)
    // A note shown after the location until the tab is saved (e.g. its file vanished since the
    // last session); empty: none.
    void setNote(const QString& note);
    QString note() const { return m_note; }

signals:
    void titleChanged();
    void languageChanged(sandpad::Language language);

private:
    CodeEditor* m_editor;
    QComboBox* m_language;
    QLabel* m_path;
    AttachmentStrip* m_attachments;
    EditorSource m_source;
    QString m_tabId;
    QString m_note;
    void updateLocation();
};

} // namespace sandpad
