#pragma once

#include "core/sandbox/RunInput.h"

#include <QWidget>

class QHBoxLayout;
class QPlainTextEdit;
class QToolButton;

namespace sandpad {

// A tab's input for its runs, shown above its editor so it is clear what a run could read: the
// attached files (each with a remove button; placed read-only in the run's working directory)
// and a collapsible "Input" box whose text is the run's stdin (empty: the run has no input).
// Files are attached with "Attach Files…" or by dropping them on the tab (watchDrops).
// Every run of the tab gets them, session executions too (placed with each execution).
class AttachmentStrip : public QWidget {
    Q_OBJECT
public:
    explicit AttachmentStrip(QWidget* parent = nullptr);

    // Reads and attaches local files (a file of the same name is replaced). Returns what could
    // not be attached (missing, unreadable, over RunInput's limits), empty when all were.
    QString attachFiles(const QStringList& paths);
    void removeFile(const QString& name);
    QStringList fileNames() const;
    void setInputText(const QString& text);
    QString inputText() const;
    bool inputShown() const;
    // What a run of this tab is given.
    RunInput runInput() const;
    // Files dropped on `target` (the editor's viewport) are attached instead of inserted as text.
    void watchDrops(QWidget* target);

public slots:
    void chooseFiles();            // "Attach Files…"
    void setInputShown(bool shown);

signals:
    void changed();
    void attachFailed(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    QList<InputFile> m_files;
    QHBoxLayout* m_chips;
    QToolButton* m_inputToggle;
    QPlainTextEdit* m_input;
};

} // namespace sandpad
