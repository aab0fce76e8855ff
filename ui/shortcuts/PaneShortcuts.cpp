#include "ui/shortcuts/PaneShortcuts.h"

#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QWidget>

namespace sandpad {

namespace {
const char* const kProperty = "sandpad_paneShortcuts";
} // namespace

PaneShortcuts::PaneShortcuts(QWidget* pane, Actions actions) : QObject(pane), m_pane(pane), m_actions(std::move(actions))
{
}

PaneShortcuts* PaneShortcuts::install(QWidget* pane, Actions actions)
{
    auto* keys = new PaneShortcuts(pane, std::move(actions));
    // On the application, so the key is taken at the focused child before that child acts on it
    // too (a list's Ctrl+Return would otherwise also "activate" the row: the action twice).
    qApp->installEventFilter(keys);
    pane->setProperty(kProperty, true);
    return keys;
}

bool PaneShortcuts::settlesKeysFor(const QWidget* widget)
{
    for (const QWidget* w = widget; w; w = w->parentWidget())
        if (w->property(kProperty).toBool())
            return true;
    return false;
}

QAction* PaneShortcuts::actionFor(const QKeyEvent* key) const
{
    if (key->key() == 0 || key->key() == Qt::Key_unknown || !m_actions)
        return nullptr;
    const QKeySequence pressed(key->keyCombination());
    const QWidget* focus = QApplication::focusWidget();
    if (!focus || !m_pane->isAncestorOf(focus))
        return nullptr;
    for (QAction* a : m_actions()) {
        if (!a || !a->isEnabled() || !a->shortcuts().contains(pressed))
            continue;
        if (a->shortcutContext() == Qt::WidgetShortcut && !a->associatedObjects().contains(const_cast<QWidget*>(focus)))
            continue; // e.g. Delete in a list, not in the search field beside it
        return a;
    }
    return nullptr;
}

bool PaneShortcuts::eventFilter(QObject* watched, QEvent* event)
{
    const auto* widget = qobject_cast<const QWidget*>(watched);
    if ((event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) && widget
        && (widget == m_pane || m_pane->isAncestorOf(widget))) {
        if (QAction* action = actionFor(static_cast<QKeyEvent*>(event))) {
            event->accept();
            if (event->type() == QEvent::KeyPress)
                action->trigger();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace sandpad
