#pragma once

#include "runtime/Language.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace sandpad {

class CodeEditor;

// One editor tab: a language selector and file label over a CodeEditor.
class EditorPage : public QWidget {
    Q_OBJECT
public:
    explicit EditorPage(const QString& untitledName, QWidget* parent = nullptr);

    CodeEditor* editor() const { return m_editor; }
    Language language() const;
    void setLanguage(Language language);

    QString filePath() const { return m_filePath; }
    void setFilePath(const QString& path);
    // The file name, or "Untitled N".
    QString title() const;
    bool isModified() const;
    void setModified(bool modified);

    // A stable id for the recovery journal (a UUID made at construction).
    QString tabId() const { return m_tabId; }
    // Binds the tab to a saved document: Save appends a revision to it (not a file). The title
    // (its extension gives the language) replaces the tab name; baseRevisionId is the revision
    // the text was opened from (updated after each save).
    void setDocument(const QString& documentId, const QString& title, const QString& baseRevisionId);
    QString documentId() const { return m_documentId; }
    QString baseRevisionId() const { return m_baseRevisionId; }
    bool isDocument() const { return !m_documentId.isEmpty(); }
    // Shows a stored revision read-only (with a visible "revision abc12345 (read-only)" label).
    void setReadOnlyRevision(const QString& documentId, const QString& title, const QString& revisionId);
    bool isReadOnlyRevision() const { return m_readOnly; }
    QString locationText() const; // the label over the editor (file path, document, revision)

signals:
    void titleChanged();

private:
    CodeEditor* m_editor;
    QComboBox* m_language;
    QLabel* m_path;
    QString m_filePath, m_untitledName;
    QString m_tabId, m_documentId, m_baseRevisionId;
    bool m_readOnly = false;
    void updateLocation();
};

} // namespace sandpad
