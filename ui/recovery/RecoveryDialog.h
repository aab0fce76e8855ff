#pragma once

#include "core/recovery/RecoveryJournal.h"

#include <QDialog>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace sandpad {

// Shown at start when the recovery journal holds text a crash left unsaved: for each tab, what
// would come back (title, time, a preview) and a choice: Restore, Discard, or decide later (the
// file stays for the next start). Valid entries default to Restore, damaged ones to Later.
// On accept, the files of discarded entries are removed (damaged ones set aside as *.corrupt).
// Restored entries' files are left in place: the caller opens each text in a tab, lets the journal
// write it under the new tab, then calls journal.discardEntry(entry) — so no moment exists where
// the text is only in memory.
class RecoveryDialog : public QDialog {
    Q_OBJECT
public:
    enum class Decision { Later, Restore, Discard };

    explicit RecoveryDialog(RecoveryJournal& journal, QWidget* parent = nullptr);
    RecoveryDialog(RecoveryJournal& journal, const QList<RecoveryEntry>& entries,
                   QWidget* parent = nullptr);

    const QList<RecoveryEntry>& entries() const { return m_entries; }
    int count() const { return static_cast<int>(m_entries.size()); }
    void setDecision(int index, Decision decision);
    Decision decision(int index) const;
    void setCurrentIndex(int index);
    QString previewText() const;          // the preview pane's text (for tests)
    QString detailsText() const;

    // The entries to open as tabs (those set to Restore). Valid after accept().
    QList<RecoveryEntry> toRestore() const;

    // At start: when the journal holds files, shows the dialog (modal) and returns the entries to
    // open as tabs; returns nothing at once when there is nothing to recover.
    static QList<RecoveryEntry> offer(RecoveryJournal& journal, QWidget* parent = nullptr);

    static constexpr int kPreviewChars = 20000;

public slots:
    void accept() override;

private:
    void showEntry(int index);
    void updateItem(int index);

    RecoveryJournal& m_journal;
    QList<RecoveryEntry> m_entries;
    QList<Decision> m_decisions;
    QListWidget* m_list;
    QLabel* m_details;
    QPlainTextEdit* m_preview;
    QPushButton* m_restore;
    QPushButton* m_discard;
    QPushButton* m_later;
};

} // namespace sandpad
