#pragma once

#include <QList>
#include <QObject>
#include <functional>

class QAction;
class QKeyEvent;
class QWidget;

namespace sandpad {

// A pane's own keys that win over the window's while the pane (or a child of it) has focus.
// Qt counts two live shortcuts of one key as ambiguous and runs neither, and a toolbar's action
// is live only while the toolbar itself has focus; so Ctrl+Shift+S in the chart pane is its
// Export, Ctrl+F in the Documents dock its search, and the same keys are the window's
// elsewhere. An application event filter, for keys that go to the pane or a child of it: the
// ShortcutOverride is claimed for a pane action with that key (the window's shortcut map is then
// not asked), and the key press that follows triggers it before the focused child sees it. An action with
// Qt::WidgetShortcut counts only while one of its widgets has focus; any other is pane-wide.
class PaneShortcuts : public QObject {
    Q_OBJECT
public:
    using Actions = std::function<QList<QAction*>()>; // the candidates when a key comes
    // Owned by the pane.
    static PaneShortcuts* install(QWidget* pane, Actions actions);
    // Whether `widget` is in a pane that settles its keys this way (the shortcut checks).
    static bool settlesKeysFor(const QWidget* widget);

    QAction* actionFor(const QKeyEvent* key) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    PaneShortcuts(QWidget* pane, Actions actions);
    QWidget* m_pane;
    Actions m_actions;
};

} // namespace sandpad
