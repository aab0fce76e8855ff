#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace sandpad {

// A file given to a run (sandpad-run --input, a tab's attachments): placed read-only in the run's
// working directory under `name` (docs/runtime-protocol.md, "Working directory ...").
struct InputFile {
    QString name;        // a plain file name: no folder, no "..", no control characters
    QByteArray content;
};

// What a run is given besides its code: input files and its stdin.
struct RunInput {
    QList<InputFile> files;
    std::optional<QByteArray> stdinData; // nullopt: no input at all (input() says so)

    static constexpr int maxFiles = 100;
    static constexpr qint64 maxFileBytes = 64LL << 20;   // each, and all together
    static constexpr qint64 maxStdinBytes = 16LL << 20;

    bool isEmpty() const { return files.isEmpty() && !stdinData; }
    // Why this input cannot be given to a run, in words for the user; empty when it can.
    QString problem() const;
    // Why `name` cannot name an input file; empty when it can.
    static QString nameProblem(const QString& name);
};

} // namespace sandpad
