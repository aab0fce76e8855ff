#pragma once

#include "core/recovery/TabInput.h"
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
    // What a run of this tab is given (the files that are there).
    RunInput runInput() const;
    // Attached files that could not be read again when the tab came back (moved or deleted
    // since): shown as missing until attached again or removed; empty when none.
    QStringList missingFiles() const;
    // Why a run cannot be given this input (a missing file), in words for the user; empty when it can.
    QString problem() const;

    // The tab's input to keep (open tabs, crash journal), and back: files are read again from
    // their paths, one that cannot be read stays as a missing file. Returns the missing names.
    TabInput tabInput() const;
    QStringList restore(const TabInput& input);
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
    struct Attachment {
        InputFile file;
        QString path;         // where it was attached from (absolute)
        bool missing = false; // could not be read again (restore)
    };
    void rebuild();
    void orderFocus(const QList<QWidget*>& removes); // Tab goes as the strip reads
    QList<Attachment> m_files;
    QHBoxLayout* m_chips;
    QToolButton* m_attach = nullptr;
    QToolButton* m_inputToggle;
    QPlainTextEdit* m_input;
};

} // namespace sandpad
