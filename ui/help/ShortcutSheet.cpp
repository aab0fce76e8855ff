#include "ui/help/ShortcutSheet.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sandpad {

namespace {

QString plain(QString text)
{
    // "&Run All" -> "Run All", "&&" stays one "&"; "…" kept out of a sheet of names.
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return text.remove(QStringLiteral("…")).trimmed();
}

// Where an action is offered: its first menu's title, else the pane that holds it.
QString groupOf(const QAction* action)
{
    for (QObject* o : action->associatedObjects())
        if (const auto* menu = qobject_cast<QMenu*>(o))
            return plain(menu->title());
    for (QObject* o = action->parent(); o; o = o->parent())
        if (const auto* w = qobject_cast<QWidget*>(o); w && !w->accessibleName().isEmpty()
                                                       && !qobject_cast<const QMainWindow*>(w))
            return w->accessibleName();
    return QObject::tr("Window");
}

} // namespace

QList<ShortcutSheet::Row> ShortcutSheet::rows(const QMainWindow* window)
{
    QList<Row> result;
    QSet<const QAction*> seen;
    for (const QAction* a : window->findChildren<QAction*>()) {
        if (a->shortcuts().isEmpty() || seen.contains(a) || a->isSeparator())
            continue;
        seen.insert(a);
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        result.append({groupOf(a), plain(a->text()), keys.join(QStringLiteral(", "))});
    }
    // The editor's keys that are its own, not actions.
    const QString editor = tr("Editor");
    result.append({editor, tr("Indent / unindent"), tr("Tab, Shift+Tab")});
    result.append({editor, tr("Leave the editor (focus the next control)"), tr("Esc, then Tab or Shift+Tab")});
    std::stable_sort(result.begin(), result.end(),
                     [](const Row& a, const Row& b) { return a.group < b.group; });
    return result;
}

ShortcutSheet::ShortcutSheet(QMainWindow* window) : QDialog(window)
{
    setWindowTitle(tr("Keyboard shortcuts — Sandpad"));
    setAccessibleName(tr("Keyboard shortcuts"));
    const QList<Row> all = rows(window);
    auto* table = new QTableWidget(int(all.size()), 3, this);
    table->setAccessibleName(tr("Shortcut list"));
    table->setHorizontalHeaderLabels({tr("Where"), tr("Action"), tr("Keys")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setTabKeyNavigation(false);
    for (int i = 0; i < all.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(all[i].group));
        table->setItem(i, 1, new QTableWidgetItem(all[i].action));
        table->setItem(i, 2, new QTableWidgetItem(all[i].keys));
    }
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table, 1);
    layout->addWidget(buttons);
    resize(640, 620);
}

} // namespace sandpad
