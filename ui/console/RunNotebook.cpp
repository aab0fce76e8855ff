#include "ui/console/RunNotebook.h"

#include "ui/console/OutputView.h"
#include "ui/console/RunEntry.h"
#include "ui/console/ScrollFollower.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QTextDocument>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace sandpad {

RunNotebook::RunNotebook(QWidget* parent)
    : QWidget(parent), m_scroll(new QScrollArea(this)), m_container(new QWidget),
      m_list(new QVBoxLayout(m_container)), m_find(new QLineEdit(this)), m_empty(new QLabel(m_container))
{
    setAccessibleName(tr("Run notebook"));
    m_find->setPlaceholderText(tr("Find in output (Enter for next)"));
    m_find->setAccessibleName(tr("Find in output"));
    m_find->setClearButtonEnabled(true);
    connect(m_find, &QLineEdit::returnPressed, this, [this] { findNext(m_find->text()); });
    m_findStatus = new QLabel(this);
    m_findStatus->setAccessibleName(tr("Find result"));
    connect(m_find, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_findEntry = -1;
        highlightMatches(text); // as you type: every match marked, the count shown
        m_findStatus->setText(text.isEmpty() ? QString()
                              : m_findTotal == 0 ? tr("Not found")
                                                 : tr("%n match(es)", nullptr, m_findTotal));
    });

    auto makeButton = [this](const QString& text, const QString& name, auto slot) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setAccessibleName(name);
        b->setToolTip(name);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        return b;
    };
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 2);
    auto* title = new QLabel(tr("<b>Output</b>"), this);
    bar->addWidget(title);
    bar->addSpacing(4); // the bar's spacing is its parent's 0: "Output· Session" was glued
    m_mode = new QLabel(this);
    m_mode->setObjectName(QStringLiteral("notebookMode"));
    m_mode->setAccessibleName(tr("Run mode of this tab"));
    // Its text's width when there is room; gives way on a narrow window (its text is also the
    // tooltip) rather than widen it: the explicit minimum overrides QLabel's text-wide one.
    m_mode->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    m_mode->setMinimumWidth(40);
    bar->addWidget(m_mode, 0);
    bar->addSpacing(8);
    bar->addWidget(m_find, 1);
    bar->addWidget(m_findStatus);
    bar->addWidget(makeButton(tr("Copy"), tr("Copy the selected run's output"), [this] {
        QString error;
        if (!copySelectedOutput(&error))
            QMessageBox::warning(this, tr("Copy output"), tr("Could not copy the output: %1").arg(error));
    }));
    bar->addWidget(makeButton(tr("Save…"), tr("Save the selected run's output"), [this] { saveOutputWithDialog(m_selected); }));
    bar->addWidget(makeButton(tr("Clear"), tr("Clear the notebook"), [this] { emit clearRequested(); }));

    m_list->setContentsMargins(6, 6, 6, 6);
    m_list->setSpacing(8);
    m_empty->setText(tr("Runs appear here. Write some code and press Ctrl+Enter."));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_list->addWidget(m_empty);
    m_list->addStretch(1);
    m_container->setBackgroundRole(QPalette::Window);
    m_scroll->setWidget(m_container);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Always there, so that the entries' width does not change when the runs outgrow the view:
    // every width change lays every entry's text out again (twice the work of a reload at start).
    m_scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    m_scroll->setAccessibleName(tr("Runs"));
    m_follower = new ScrollFollower(m_scroll->verticalScrollBar(), this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_scroll, 1);

}

RunEntry* RunNotebook::addRunning(Run* run)
{
    auto* entry = insert(new RunEntry(m_nextNumber++, run, std::nullopt, m_container));
    select(entry);
    // The user just started it: go to it, then follow it while it streams (m_follower) unless
    // the user scrolls away.
    m_follower->follow();
    scrollToBottomSoon();
    return entry;
}

RunEntry* RunNotebook::addFinished(Run* run, std::optional<RunPreviewCuts> preview)
{
    auto* entry = new RunEntry(m_nextNumber++, run, preview, m_container);
    entry->setWholeRunSource(m_wholeSource);
    insert(entry);
    scrollToBottomSoon();
    return entry;
}

RunEntry* RunNotebook::insert(RunEntry* entry)
{
    m_empty->hide();
    m_list->insertWidget(m_list->count() - 1, entry);
    connect(entry, &RunEntry::selected, this, &RunNotebook::select);
    connect(entry, &RunEntry::tracebackLineActivated, this, [this, entry](int line) { emit tracebackLineActivated(entry, line); });
    connect(entry, &RunEntry::chartActivated, this, &RunNotebook::chartActivated);
    connect(entry, &RunEntry::saveOutputRequested, this, &RunNotebook::saveOutputWithDialog);
    connect(entry, &RunEntry::saveTextRequested, this, &RunNotebook::saveTextWithDialog);
    connect(entry, &RunEntry::copyFailed, this, [this](const QString& error) {
        QMessageBox::warning(this, tr("Copy"), tr("Could not copy: %1").arg(error));
    });
    const QList<RunEntry*> all = entries();
    for (int i = 0; i + kMaxEntries < all.size(); ++i)
        if (!all[i]->isRunning())
            delete all[i];
    return entry;
}

QList<RunEntry*> RunNotebook::entries() const
{
    QList<RunEntry*> result;
    for (int i = 0; i < m_list->count(); ++i)
        if (auto* e = qobject_cast<RunEntry*>(m_list->itemAt(i)->widget()))
            result.append(e);
    return result;
}

RunEntry* RunNotebook::entry(const QString& runId) const
{
    for (RunEntry* e : entries())
        if (e->runId() == runId)
            return e;
    return nullptr;
}

void RunNotebook::select(RunEntry* entry)
{
    if (m_selected == entry)
        return;
    if (m_selected)
        m_selected->setSelected(false);
    m_selected = entry;
    if (entry) {
        entry->setSelected(true);
        emit entrySelected(entry->runId());
    }
}

bool RunNotebook::isFollowing() const { return m_follower->isFollowing(); }

void RunNotebook::showLatest()
{
    scrollToBottomSoon();
}

void RunNotebook::scrollToBottomSoon()
{
    // After the layout has settled, so that the maximum includes the new entry.
    QTimer::singleShot(0, this, [this] {
        // Settle the geometry now (layout requests are otherwise handled later) so that the
        // maximum includes what was just added.
        const QList<RunEntry*> all = entries();
        if (!all.isEmpty() && all.last()->layout())
            all.last()->layout()->activate();
        m_list->activate();
        m_follower->follow();
    });
}

namespace {
// Every match of text in the view's document (the shown text is bounded: kMaxViewChars).
QList<QTextCursor> matchesIn(const QPlainTextEdit* view, const QString& text)
{
    QList<QTextCursor> found;
    QTextCursor c(view->document());
    while (!(c = view->document()->find(text, c)).isNull())
        found.append(c);
    return found;
}
} // namespace

bool RunNotebook::findNext(const QString& text)
{
    const QList<RunEntry*> all = entries();
    highlightMatches(text);
    if (text.isEmpty() || all.isEmpty()) {
        m_findStatus->setText(text.isEmpty() ? QString() : tr("Not found"));
        return false;
    }
    const int start = std::clamp(m_findEntry, 0, int(all.size()) - 1);
    for (int step = 0; step <= all.size(); ++step) {
        const int i = (start + step) % all.size();
        OutputView* view = all[i]->outputView();
        if (view->find(text)) {
            m_findEntry = i;
            select(all[i]);
            m_scroll->ensureWidgetVisible(view, 10, 40);
            // "3 of 12": the matches in the entries before this one and up to the cursor here.
            int index = 0;
            for (int j = 0; j < i; ++j)
                index += int(matchesIn(all[j]->outputView(), text).size());
            for (const QTextCursor& m : matchesIn(view, text))
                if (m.selectionEnd() <= view->textCursor().selectionEnd())
                    ++index;
            m_findStatus->setText(tr("%1 of %2").arg(index).arg(m_findTotal));
            return true;
        }
        // Next time this view is searched it starts from the top.
        QTextCursor c = view->textCursor();
        c.movePosition(QTextCursor::Start);
        view->setTextCursor(c);
    }
    m_findStatus->setText(tr("Not found"));
    return false;
}

void RunNotebook::highlightMatches(const QString& text)
{
    // Every match in every entry, in the palette's highlight colour, lighter than the current
    // one (the view's selection).
    QTextCharFormat format;
    QColor colour = palette().color(QPalette::Highlight);
    colour.setAlpha(90);
    format.setBackground(colour);
    m_findTotal = 0;
    for (RunEntry* e : entries()) {
        QList<QTextEdit::ExtraSelection> marks;
        if (!text.isEmpty())
            for (const QTextCursor& m : matchesIn(e->outputView(), text))
                marks.append({m, format});
        m_findTotal += int(marks.size());
        e->outputView()->setExtraSelections(marks);
    }
}

QString RunNotebook::findStatusText() const { return m_findStatus->text(); }

void RunNotebook::setModeText(const QString& text)
{
    m_mode->setText(text.isEmpty() ? QString() : QStringLiteral("· %1").arg(text));
    m_mode->setToolTip(text);
}

QString RunNotebook::modeText() const
{
    return m_mode->text().mid(2);
}

void RunNotebook::setWholeRunSource(RunEntry::WholeRunSource source)
{
    m_wholeSource = std::move(source);
    for (RunEntry* e : entries())
        e->setWholeRunSource(m_wholeSource);
}

bool RunNotebook::copySelectedOutput(QString* error)
{
    if (!m_selected)
        return true;
    QString selection = m_selected->outputView()->textCursor().selectedText();
    if (!selection.isEmpty()) {
        QApplication::clipboard()->setText(selection.replace(QChar::ParagraphSeparator, QLatin1Char('\n')));
        return true;
    }
    return m_selected->copyWholeText(RunEntry::Part::Output, error);
}

bool RunNotebook::saveOutput(RunEntry* entry, const QString& path, QString* error)
{
    return saveText(entry, RunEntry::Part::Output, path, error);
}

bool RunNotebook::saveText(RunEntry* entry, RunEntry::Part part, const QString& path, QString* error)
{
    if (!entry)
        return false;
    QString text;
    if (!entry->wholeText(part, &text, error))
        return false; // nothing written: an excerpt saved as the whole would lose text silently
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    file.write(text.toUtf8());
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void RunNotebook::saveOutputWithDialog(RunEntry* entry)
{
    saveTextWithDialog(entry, RunEntry::Part::Output);
}

void RunNotebook::saveTextWithDialog(RunEntry* entry, RunEntry::Part part)
{
    if (!entry)
        entry = m_selected;
    if (!entry)
        return;
    const QString what = part == RunEntry::Part::Output ? tr("output")
                         : part == RunEntry::Part::Result ? tr("result")
                                                          : tr("error");
    const QString path = QFileDialog::getSaveFileName(this, tr("Save %1 of run %2").arg(what).arg(entry->number()),
                                                      QStringLiteral("run-%1-%2.txt").arg(entry->number()).arg(what),
                                                      tr("Text files (*.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveText(entry, part, path, &error))
        QMessageBox::warning(this, tr("Save %1").arg(what), tr("Could not save %1: %2").arg(path, error));
}

void RunNotebook::clear()
{
    for (RunEntry* e : entries())
        if (!e->isRunning())
            delete e;
    m_findEntry = -1;
    if (entries().isEmpty())
        m_empty->show();
}

void RunNotebook::focusFind()
{
    m_find->setFocus();
    m_find->selectAll();
}

} // namespace sandpad
