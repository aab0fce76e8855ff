#pragma once

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sandpad {

class CodeEditor;

// Find (Ctrl+F) and replace (Ctrl+H) for the current editor; Escape closes it.
class FindReplaceBar : public QWidget {
    Q_OBJECT
public:
    explicit FindReplaceBar(QWidget* parent = nullptr);

    void setEditor(CodeEditor* editor);
    void showFind();
    void showReplace();

    bool findNext(bool forward = true);
    void replaceCurrent();
    int replaceAll();

    QLineEdit* findField() const { return m_find; }
    QLineEdit* replaceField() const { return m_replace; }

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void setReplaceVisible(bool visible);
    QPointer<CodeEditor> m_editor;
    QLineEdit *m_find, *m_replace;
    QCheckBox* m_caseSensitive;
    QPushButton *m_replaceButton, *m_replaceAllButton;
    QLabel* m_status;
};

} // namespace sandpad
