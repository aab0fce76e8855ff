#include "ui/editor/FindReplaceBar.h"

#include "ui/editor/CodeEditor.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>

namespace sandpad {

FindReplaceBar::FindReplaceBar(QWidget* parent)
    : QWidget(parent), m_find(new QLineEdit(this)), m_replace(new QLineEdit(this)),
      m_caseSensitive(new QCheckBox(tr("Match &case"), this)),
      m_replaceButton(new QPushButton(tr("&Replace"), this)),
      m_replaceAllButton(new QPushButton(tr("Replace &all"), this)), m_status(new QLabel(this))
{
    setAccessibleName(tr("Find and replace"));
    m_find->setPlaceholderText(tr("Find"));
    m_find->setAccessibleName(tr("Find text"));
    m_find->setClearButtonEnabled(true);
    m_replace->setPlaceholderText(tr("Replace with"));
    m_replace->setAccessibleName(tr("Replacement text"));
    auto* previous = new QPushButton(tr("&Previous"), this);
    auto* next = new QPushButton(tr("&Next"), this);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAccessibleName(tr("Close find bar"));
    close->setAutoRaise(true);
    previous->setAccessibleName(tr("Find previous"));
    next->setAccessibleName(tr("Find next"));

    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(6, 3, 6, 3);
    layout->addWidget(m_find, 0, 0);
    layout->addWidget(previous, 0, 1);
    layout->addWidget(next, 0, 2);
    layout->addWidget(m_caseSensitive, 0, 3);
    layout->addWidget(m_status, 0, 4);
    layout->addWidget(close, 0, 5);
    layout->addWidget(m_replace, 1, 0);
    layout->addWidget(m_replaceButton, 1, 1);
    layout->addWidget(m_replaceAllButton, 1, 2);
    layout->setColumnStretch(0, 1);

    connect(m_find, &QLineEdit::returnPressed, this, [this] { findNext(true); });
    connect(m_replace, &QLineEdit::returnPressed, this, &FindReplaceBar::replaceCurrent);
    connect(next, &QPushButton::clicked, this, [this] { findNext(true); });
    connect(previous, &QPushButton::clicked, this, [this] { findNext(false); });
    connect(m_replaceButton, &QPushButton::clicked, this, &FindReplaceBar::replaceCurrent);
    connect(m_replaceAllButton, &QPushButton::clicked, this, &FindReplaceBar::replaceAll);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void FindReplaceBar::setEditor(CodeEditor* editor) { m_editor = editor; }

void FindReplaceBar::setReplaceVisible(bool visible)
{
    m_replace->setVisible(visible);
    m_replaceButton->setVisible(visible);
    m_replaceAllButton->setVisible(visible);
}

void FindReplaceBar::showFind()
{
    setReplaceVisible(false);
    show();
    if (m_editor && m_editor->hasSelectedText() && !m_editor->selectedText().contains(QLatin1Char('\n')))
        m_find->setText(m_editor->selectedText());
    m_find->setFocus();
    m_find->selectAll();
}

void FindReplaceBar::showReplace()
{
    showFind();
    setReplaceVisible(true);
}

bool FindReplaceBar::findNext(bool forward)
{
    if (!m_editor || m_find->text().isEmpty())
        return false;
    int line = 0, index = 0;
    m_editor->getCursorPosition(&line, &index);
    if (!forward && m_editor->hasSelectedText()) {
        // Start before the current match so "previous" does not find it again.
        int l1, i1, l2, i2;
        m_editor->getSelection(&l1, &i1, &l2, &i2);
        line = l1;
        index = i1;
    }
    const bool found = m_editor->findFirst(m_find->text(), false, m_caseSensitive->isChecked(), false,
                                           true, forward, line, index);
    m_status->setText(found ? QString() : tr("Not found"));
    return found;
}

void FindReplaceBar::replaceCurrent()
{
    if (!m_editor)
        return;
    const Qt::CaseSensitivity cs = m_caseSensitive->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive;
    if (m_editor->hasSelectedText() && m_editor->selectedText().compare(m_find->text(), cs) == 0)
        m_editor->replaceSelectedText(m_replace->text());
    findNext(true);
}

int FindReplaceBar::replaceAll()
{
    if (!m_editor || m_find->text().isEmpty())
        return 0;
    int count = 0;
    m_editor->beginUndoAction();
    bool found = m_editor->findFirst(m_find->text(), false, m_caseSensitive->isChecked(), false,
                                     false, true, 0, 0);
    while (found) {
        m_editor->replace(m_replace->text());
        ++count;
        found = m_editor->findNext();
    }
    m_editor->endUndoAction();
    m_status->setText(tr("%n replaced", nullptr, count));
    return count;
}

void FindReplaceBar::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        if (m_editor)
            m_editor->setFocus();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace sandpad
