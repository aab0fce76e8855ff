#pragma once

#include <QIcon>

class QPalette;

namespace sandpad {

// The run actions' icons, drawn for the palette they are shown on: the style's media icons are
// dark glyphs that all but vanish on a dark toolbar. Green for run, red for stop, a shade of
// each that keeps its contrast against the palette's window colour; disabled in its mid colour.
class ThemeIcons {
public:
    enum class Kind { Run, RunCell, Stop };
    static QIcon icon(Kind kind, const QPalette& palette);
    // The colour the glyph is drawn in (for tests: readable against palette's window).
    static QColor glyphColour(Kind kind, const QPalette& palette);
};

} // namespace sandpad
