#pragma once

#include <QComboBox>

namespace sandpad {

// The tab's language selector. Qt on Linux gives a non-editable combo box its current text as
// its accessible name (a screen reader hears "Python", not what the box is for); this one is
// named by its accessibleName, its value is the language, and it is reached by Tab.
class LanguageBox : public QComboBox {
    Q_OBJECT
public:
    explicit LanguageBox(QWidget* parent = nullptr);
};

} // namespace sandpad
