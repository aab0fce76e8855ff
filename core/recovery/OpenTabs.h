#pragma once

#include "core/recovery/TabInput.h"

#include <QList>
#include <QString>
#include <optional>

namespace sandpad {

// One editor tab as a normal quit left it, to open it again at the next start.
struct OpenTab {
    enum class Kind { Untitled, File, Document, Revision };
    Kind kind = Kind::Untitled;
    QString title;       // the untitled name, file name or document title
    QString path;        // Kind::File: absolute
    QString documentId;  // Kind::Document, Kind::Revision
    QString revisionId;  // Kind::Revision: the revision shown
    QString language;    // "python" / "javascript"
    QString text;        // Kind::Untitled only (files and documents are read from where they are)
    int line = 0, column = 0; // the cursor, 0-based
    bool freshRuns = false;   // "Fresh Sandbox per Run" instead of the tab's session
    TabInput input;           // its attached files (by path) and Input box
};

// The open tabs at a normal quit, in <dataDir>/open-tabs.json, written atomically. The crash
// journal (RecoveryJournal) covers the other case: at a normal quit every tab was saved or
// discarded on purpose and the journal is emptied, and this file is taken (read and removed) at
// start, so a crash never finds a stale list here and a normal start never finds crash leftovers.
struct OpenTabs {
    QList<OpenTab> tabs;
    int current = 0;

    static constexpr int kFormatVersion = 1;
    static constexpr qsizetype kMaxTextChars = 8 * 1024 * 1024; // an untitled tab's text kept

    static QString filePath(const QString& dataDir);
    // False with *error set when it cannot be written (the tabs are then just not restored).
    bool write(const QString& path, QString* error = nullptr) const;
    // nullopt when there is no file; a file that cannot be read gives nullopt and *error.
    static std::optional<OpenTabs> read(const QString& path, QString* error = nullptr);
    // Reads the file and removes it (so the list is restored once).
    static std::optional<OpenTabs> take(const QString& path, QString* error = nullptr);
};

} // namespace sandpad
