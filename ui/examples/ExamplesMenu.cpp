#include "ui/examples/ExamplesMenu.h"

namespace sandpad {

ExamplesMenu::ExamplesMenu(QWidget* parent) : QMenu(tr("E&xamples"), parent)
{
    setAccessibleName(tr("Examples"));
    for (const Example& example : ExampleLibrary::all()) {
        QAction* action = addAction(example.title);
        action->setToolTip(example.fileName);
        connect(action, &QAction::triggered, this, [this, example] { emit exampleChosen(example); });
    }
}

} // namespace sandpad
