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

signals:
    void titleChanged();

private:
    CodeEditor* m_editor;
    QComboBox* m_language;
    QLabel* m_path;
    QString m_filePath, m_untitledName;
};

} // namespace sandpad
