#pragma once

#include <QDialog>

class QMainWindow;

namespace sandpad {

// Help > Keyboard shortcuts: every action of the window that has a key, read from the actions
// themselves (so the sheet cannot go stale), grouped by the menu or pane they belong to, and the
// editor's own keys that are not actions.
class ShortcutSheet : public QDialog {
    Q_OBJECT
public:
    struct Row {
        QString group;  // "File", "Run", "Documents", "Editor"...
        QString action; // without mnemonics
        QString keys;   // native text, several separated by ", "
    };
    static QList<Row> rows(const QMainWindow* window);

    explicit ShortcutSheet(QMainWindow* window);
};

} // namespace sandpad
