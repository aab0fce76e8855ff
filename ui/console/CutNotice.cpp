#include "ui/console/CutNotice.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace sandpad {

CutNotice::CutNotice(const QString& accessibleName, QWidget* parent) : QWidget(parent), m_label(new QLabel(this))
{
    setAccessibleName(accessibleName);
    m_label->setTextFormat(Qt::PlainText);
    QFont italic = m_label->font();
    italic.setItalic(true);
    m_label->setFont(italic);
    auto button = [this](const QString& text, const QString& name) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setAccessibleName(name);
        b->setToolTip(name);
        b->setAutoRaise(true);
        return b;
    };
    QToolButton* copy = button(tr("Copy"), tr("Copy the whole text"));
    QToolButton* save = button(tr("Save…"), tr("Save the whole text"));
    connect(copy, &QToolButton::clicked, this, &CutNotice::copyRequested);
    connect(save, &QToolButton::clicked, this, &CutNotice::saveRequested);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_label);
    layout->addWidget(copy);
    layout->addWidget(save);
    layout->addStretch(1);
    hide();
}

void CutNotice::setText(const QString& text)
{
    m_label->setText(text);
}

QString CutNotice::text() const
{
    return m_label->text();
}

} // namespace sandpad
