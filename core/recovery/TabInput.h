#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

namespace sandpad {

// A tab's input for its runs as the open-tabs list and the crash journal keep it: the files
// attached to it (by where they were attached from: the content is read again when the tab comes
// back, and a file that is gone comes back as missing) and the text of its Input box (stdin).
struct TabInput {
    struct File {
        QString name;  // as the run sees it (RunInput's InputFile::name)
        QString path;  // absolute, where it was attached from
        bool operator==(const File&) const = default;
    };
    QList<File> files;
    QString stdinText;
    bool inputShown = false; // the Input box was open

    static constexpr qsizetype kMaxStdinChars = 16 * 1024 * 1024; // RunInput::maxStdinBytes's order
    static constexpr int kMaxFiles = 100;                          // RunInput::maxFiles

    bool isEmpty() const { return files.isEmpty() && stdinText.isEmpty() && !inputShown; }
    bool operator==(const TabInput&) const = default;
    // {"files": [{"name", "path"}], "stdin": text, "stdin_shown": bool}; empty parts left out.
    QJsonObject toJson() const;
    // Lenient: what cannot be read (a file without a path, a name with a folder) is left out,
    // limits applied; an absent or non-object value gives an empty input.
    static TabInput fromJson(const QJsonValue& value);
};

} // namespace sandpad
