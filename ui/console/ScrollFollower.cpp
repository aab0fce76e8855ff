#include "ui/console/ScrollFollower.h"

#include <QScrollBar>

namespace sandpad {

ScrollFollower::ScrollFollower(QScrollBar* bar, QObject* parent) : QObject(parent), m_bar(bar)
{
    connect(bar, &QScrollBar::rangeChanged, this, &ScrollFollower::onRangeChanged);
    connect(bar, &QScrollBar::valueChanged, this, &ScrollFollower::onValueChanged);
}

void ScrollFollower::follow()
{
    m_following = true;
    toEnd();
}

void ScrollFollower::onRangeChanged(int, int)
{
    if (m_following)
        toEnd();
}

void ScrollFollower::onValueChanged(int value)
{
    if (m_moving)
        return;
    // A range that shrank clamps the value to the end: still following then.
    m_following = value >= m_bar->maximum() - kSlackPx;
}

void ScrollFollower::toEnd()
{
    m_moving = true;
    m_bar->setValue(m_bar->maximum());
    m_moving = false;
}

} // namespace sandpad
