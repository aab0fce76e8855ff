#pragma once

#include "ui/examples/ExampleLibrary.h"

#include <QMenu>

namespace sandpad {

// The Examples menu: each bundled example opens in a new editor tab.
class ExamplesMenu : public QMenu {
    Q_OBJECT
public:
    explicit ExamplesMenu(QWidget* parent = nullptr);

signals:
    void exampleChosen(const sandpad::Example& example);
};

} // namespace sandpad
