#pragma once

#include <QObject>

class QScrollBar;

namespace sandpad {

// Keeps a scroll bar at its end while what it scrolls grows, like a terminal: following stops
// when the user scrolls away from the end and starts again when they scroll back to it (or
// follow() is called, e.g. for a run the user just started). It reacts to the bar's range, so
// it follows whatever makes the content taller (new entries, streamed output, a layout that
// settles late), not only the changes someone remembered to announce.
class ScrollFollower : public QObject {
    Q_OBJECT
public:
    static constexpr int kSlackPx = 40; // this close to the end counts as at the end

    explicit ScrollFollower(QScrollBar* bar, QObject* parent = nullptr);

    bool isFollowing() const { return m_following; }
    // Follow from now on and go to the end.
    void follow();

private:
    void onRangeChanged(int min, int max);
    void onValueChanged(int value);
    void toEnd();

    QScrollBar* m_bar;
    bool m_following = true;
    bool m_moving = false; // the value is being set here, not by the user
};

} // namespace sandpad
