#pragma once

#include <QString>
#include <QStringView>

namespace sandpad {

// Text from a snippet made safe to show on a terminal: every control character but newline and
// tab is shown escaped, so a snippet cannot set the terminal's title, write the clipboard (OSC
// 52), clear the screen or move the cursor to overwrite the status line with a fake one.
// Escaped: C0 controls and DEL as `\x1b`, C1 controls and the bidirectional embeddings,
// overrides and isolates ("trojan source": U+202A-U+202E, U+2066-U+2069) as `\u202e`. A carriage
// return directly before a newline (CRLF text) is kept: it cannot hide anything.
// One object per output stream: a CR at the end of one chunk waits for the next chunk.
class TerminalText {
public:
    QString escape(QStringView chunk);
    QString finish(); // the CR held back, escaped, if the stream ended after it

    // A whole text at once.
    static QString escaped(QStringView text);

private:
    bool m_pendingCr = false;
};

} // namespace sandpad
