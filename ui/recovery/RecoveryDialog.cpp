#include "ui/recovery/RecoveryDialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace sandpad {

RecoveryDialog::RecoveryDialog(RecoveryJournal& journal, QWidget* parent)
    : RecoveryDialog(journal, journal.pending(), parent)
{
}

RecoveryDialog::RecoveryDialog(RecoveryJournal& journal, const QList<RecoveryEntry>& entries,
                               QWidget* parent)
    : QDialog(parent), m_journal(journal), m_entries(entries)
{
    setWindowTitle(tr("Recover unsaved text"));
    setAccessibleName(tr("Recover unsaved text"));
    auto* intro = new QLabel(tr("Sandpad did not close cleanly. This text was not saved. Choose what "
                                "to bring back; anything left undecided is offered again next time."),
                             this);
    intro->setWordWrap(true);

    m_list = new QListWidget(this);
    m_list->setAccessibleName(tr("Unsaved tabs"));
    m_details = new QLabel(this);
    m_details->setAccessibleName(tr("Recovered tab details"));
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_preview = new QPlainTextEdit(this);
    m_preview->setReadOnly(true);
    m_preview->setAccessibleName(tr("Preview of the recovered text"));
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);

    m_restore = new QPushButton(tr("Restore"), this);
    m_discard = new QPushButton(tr("Discard"), this);
    m_later = new QPushButton(tr("Decide later"), this);
    m_restore->setAccessibleName(tr("Restore this tab"));
    m_discard->setAccessibleName(tr("Discard this tab's text"));
    m_later->setAccessibleName(tr("Keep this text for the next start"));

    for (const RecoveryEntry& e : m_entries) {
        m_decisions.append(e.isValid() ? Decision::Restore : Decision::Later);
        m_list->addItem(QString());
    }
    for (int i = 0; i < count(); ++i)
        updateItem(i);

    auto* itemButtons = new QHBoxLayout;
    itemButtons->addWidget(m_restore);
    itemButtons->addWidget(m_discard);
    itemButtons->addWidget(m_later);
    itemButtons->addStretch();

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_details);
    rightLayout->addWidget(m_preview, 1);
    rightLayout->addLayout(itemButtons);

    auto* splitter = new QSplitter(this);
    splitter->addWidget(m_list);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 2);

    auto* buttons = new QDialogButtonBox(this);
    auto* apply = buttons->addButton(tr("Apply"), QDialogButtonBox::AcceptRole);
    apply->setAccessibleName(tr("Apply the choices"));
    auto* restoreAll = buttons->addButton(tr("Restore all"), QDialogButtonBox::ActionRole);
    auto* later = buttons->addButton(tr("Not now"), QDialogButtonBox::RejectRole);
    later->setToolTip(tr("Keep every file for the next start"));
    connect(buttons, &QDialogButtonBox::accepted, this, &RecoveryDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &RecoveryDialog::reject);
    restoreAll->setAccessibleName(tr("Restore every readable tab and close"));
    connect(restoreAll, &QPushButton::clicked, this, [this] {
        for (int i = 0; i < count(); ++i)
            if (m_entries[i].isValid())
                setDecision(i, Decision::Restore);
        accept(); // said and done: nothing is left to choose
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);

    connect(m_list, &QListWidget::currentRowChanged, this, &RecoveryDialog::showEntry);
    connect(m_restore, &QPushButton::clicked, this,
            [this] { setDecision(m_list->currentRow(), Decision::Restore); });
    connect(m_discard, &QPushButton::clicked, this,
            [this] { setDecision(m_list->currentRow(), Decision::Discard); });
    connect(m_later, &QPushButton::clicked, this,
            [this] { setDecision(m_list->currentRow(), Decision::Later); });
    resize(900, 560);
    setCurrentIndex(count() > 0 ? 0 : -1);
    showEntry(m_list->currentRow());
}

void RecoveryDialog::setCurrentIndex(int index)
{
    m_list->setCurrentRow(index);
}

void RecoveryDialog::setDecision(int index, Decision decision)
{
    if (index < 0 || index >= count())
        return;
    if (decision == Decision::Restore && !m_entries[index].isValid())
        return;   // nothing readable to restore
    m_decisions[index] = decision;
    updateItem(index);
}

RecoveryDialog::Decision RecoveryDialog::decision(int index) const
{
    return index >= 0 && index < count() ? m_decisions[index] : Decision::Later;
}

void RecoveryDialog::updateItem(int index)
{
    const RecoveryEntry& e = m_entries[index];
    QString label;
    if (e.isValid()) {
        const RecoverySnapshot& s = *e.snapshot;
        label = tr("%1 — %2").arg(s.title.isEmpty() ? tr("Untitled") : s.title,
                                   QLocale().toString(s.savedAt.toLocalTime(), QLocale::ShortFormat));
    } else {
        label = tr("Damaged recovery file (%1)").arg(e.tabId);
    }
    switch (m_decisions[index]) {
    case Decision::Restore: label += tr("  → restore"); break;
    case Decision::Discard: label += tr("  → discard"); break;
    case Decision::Later: label += tr("  → later"); break;
    }
    m_list->item(index)->setText(label);
    if (index == m_list->currentRow())
        showEntry(index);
}

void RecoveryDialog::showEntry(int index)
{
    const bool valid = index >= 0 && index < count() && m_entries[index].isValid();
    m_restore->setEnabled(valid);
    m_discard->setEnabled(index >= 0 && index < count());
    m_later->setEnabled(index >= 0 && index < count());
    if (index < 0 || index >= count()) {
        m_details->clear();
        m_preview->clear();
        return;
    }
    const RecoveryEntry& e = m_entries[index];
    if (!valid) {
        m_details->setText(tr("This recovery file cannot be read: %1\nDiscarding sets it aside as "
                              "%2.corrupt.").arg(e.error, e.path));
        m_preview->clear();
        return;
    }
    const RecoverySnapshot& s = *e.snapshot;
    const int lines = static_cast<int>(s.text.count(QLatin1Char('\n'))) + (s.text.isEmpty() ? 0 : 1);
    QString details = tr("<b>%1</b><br>Last journaled %2 · %n line(s)", nullptr, lines)
                          .arg((s.title.isEmpty() ? tr("Untitled") : s.title).toHtmlEscaped(),
                               QLocale().toString(s.savedAt.toLocalTime(), QLocale::LongFormat));
    if (!s.documentId.isEmpty())
        details += tr("<br>Unsaved changes to a saved document (based on revision %1)")
                       .arg(s.baseRevisionId.left(8).toHtmlEscaped());
    m_details->setText(details);
    QString preview = s.text.left(kPreviewChars);
    if (s.text.size() > kPreviewChars)
        preview += tr("\n… (%n more character(s))", nullptr, static_cast<int>(s.text.size() - kPreviewChars));
    m_preview->setPlainText(preview);
}

QString RecoveryDialog::previewText() const
{
    return m_preview->toPlainText();
}

QString RecoveryDialog::detailsText() const
{
    return m_details->text();
}

QList<RecoveryEntry> RecoveryDialog::toRestore() const
{
    QList<RecoveryEntry> out;
    for (int i = 0; i < count(); ++i)
        if (m_decisions[i] == Decision::Restore)
            out.append(m_entries[i]);
    return out;
}

QList<RecoveryEntry> RecoveryDialog::offer(RecoveryJournal& journal, QWidget* parent)
{
    const QList<RecoveryEntry> entries = journal.pending();
    if (entries.isEmpty())
        return {};
    RecoveryDialog dialog(journal, entries, parent);
    if (dialog.exec() != QDialog::Accepted)
        return {};
    return dialog.toRestore();
}

void RecoveryDialog::accept()
{
    for (int i = 0; i < count(); ++i)
        if (m_decisions[i] == Decision::Discard)
            m_journal.discardEntry(m_entries[i]);
    QDialog::accept();
}

} // namespace sandpad
