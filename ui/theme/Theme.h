#pragma once

#include <QString>
#include <QStringList>

class QPalette;

namespace sandpad {

// The application's colours: the desktop's own ("system"), or Fusion with a light or a dark
// palette for desktops whose theme Qt does not follow. Widgets derive their colours from the
// palette and repaint on its change, so switching needs no restart.
class Theme {
public:
    static QStringList names();                 // system, light, dark
    static QString displayName(const QString& name);
    // Applies `name` to the running application; unknown names mean "system".
    static void apply(const QString& name);
    static QString current();
    static QPalette darkPalette();
};

} // namespace sandpad
